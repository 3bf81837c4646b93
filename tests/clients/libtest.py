"""The end of a Python test script that CI counts with cargo's tests: one libtest-style line
per check, the failures' tracebacks, then cargo's `test result:` line (which `.ci/run` sums),
and the exit status."""

import sys
import traceback


def report(suite, results, pending=()):
    """Print `results` (pairs of a check's name and its traceback, `None` when it passed) as
    cargo's test harness does for the suite `suite`, and exit 1 when any check failed.

    Checks named in `pending` wait on work not done yet: they are printed `pending` (with
    their failure, so the gap shows) or `ok (pending: passes now)`, and counted as ignored,
    neither passed nor failed."""
    print(f"\nrunning {len(results)} tests")
    waiting = [(n, e) for n, e in results if n in pending]
    failed = [(n, e) for n, e in results if e is not None and n not in pending]
    passed = len(results) - len(failed) - len(waiting)
    for name, error in results:
        if name in pending:
            word = "pending" if error is not None else "ok (pending: passes now)"
        else:
            word = "ok" if error is None else "FAILED"
        print(f"test {suite}::{name} ... {word}")
    for name, error in waiting:
        if error is not None:
            print(f"\n---- {suite}::{name} (pending) ----\n{error[-1500:]}")
    for name, error in failed:
        print(f"\n---- {suite}::{name} ----\n{error}")
    status = "ok" if not failed else "FAILED"
    print(
        f"\ntest result: {status}. {passed} passed; {len(failed)} failed; "
        f"{len(waiting)} ignored; 0 measured; 0 filtered out\n"
    )
    sys.exit(1 if failed else 0)


def run_checks(checks, names):
    """Call each method of `checks` named in `names` in turn; the pairs `report` takes (a
    failure's traceback, `None` for a pass)."""
    results = []
    for name in names:
        try:
            getattr(checks, name)()
            results.append((name, None))
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            results.append((name, traceback.format_exc()))
    return results

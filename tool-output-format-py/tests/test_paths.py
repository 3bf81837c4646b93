"""Every path keeps the promises, from Python (SPEC 18, 19): the Rust matrix's fetch path as a
dimension here. For result wrappers x option sets, with a store: no secret in the text, the
structured form, the stored full result or any fetch page; at most one Next line in each;
the budget held on every page; following the Next lines reaches every row."""

import re

import pytest

from tool_output_format import Fetch, Formatter, MemoryStore, Page, Reply

ROWS = [
    {"id": f"T-{i:04}", "title": f"Printer {i} jammed", "password": f"pw-SECRET-{i}",
     "meta": {"api_key": f"key-SECRET-{i}", "url": f"https://api.example.com/t/{i}"},
     "html_url": f"https://desk.example.com/t/{i}", "body": "The printer stops. " * 8}
    for i in range(45)
]
NEXT = re.compile(r'Next: call get_stored_result\(ref="(r_[a-z0-9]{26})"(?:, cursor="([^"]+)")?\)')


def wrappers():
    yield "list", ROWS
    yield "page", Page(ROWS, has_more=True, next_cursor="c45", next_call=("list_tickets", "cursor"))
    yield "reply", Reply(ROWS)


def formatters(store):
    common = dict(redact_keys=["password", "api_key"], store=store)
    yield "plain", Formatter(max_rows=10, **common)
    yield "budget", Formatter(max_chars=1500, **common)
    yield "compact", Formatter(layout="compact", max_chars=3000, **common)
    yield "agent", Formatter.for_agents(max_chars=2500, **common)


def no_secret(where, text):
    assert "SECRET" not in text, f"{where}: {text[:400]}"


CASES = [(w, f) for w in ("list", "page", "reply") for f in ("plain", "budget", "compact", "agent")]


@pytest.mark.parametrize("wrapper,options", CASES)
def test_every_path_keeps_the_promises(wrapper, options):
    store = MemoryStore(600)
    fmt = dict(formatters(store))[options]
    result = dict(wrappers())[wrapper]
    text = fmt.format("list_tickets", result)
    budget = {"budget": 1500, "compact": 3000, "agent": 2500}.get(options)
    no_secret("text", text)
    no_secret("structured", str(fmt.format_json("list_tickets", result)))
    if budget:
        assert len(text) <= budget, len(text)
    assert text.count("Next:") <= 1, text
    seen = set(re.findall(r"T-\d{4}", text))
    m = NEXT.search(text)
    assert m, text
    ref, cursor = m.group(1), m.group(2)
    no_secret("stored", str(store.get(ref)))
    fetch = Fetch(store, "get_stored_result", formatter=fmt)
    pages = 0
    while True:
        page = fetch.call(ref, cursor=cursor)
        pages += 1
        assert pages < 100, "the walk does not end"
        no_secret(f"page {pages}", page)
        assert not page.startswith("**get_stored_result failed**"), page
        assert page.count("Next:") <= 1, page
        if budget:
            assert len(page) <= budget or page.startswith("[Over the budget: "), len(page)
        seen |= set(re.findall(r"T-\d{4}", page))
        m = NEXT.search(page)
        if not m:
            break
        cursor = m.group(2)
    assert seen == {f"T-{i:04}" for i in range(45)}
    # A stored page's rest ends with the page's own next call.
    if wrapper == "page":
        assert 'Next: call list_tickets(cursor="c45")' in page, page
    # The agent preset shows the page for people and folds the API URL.
    if options == "agent":
        assert "https://desk.example.com/t/0" in text

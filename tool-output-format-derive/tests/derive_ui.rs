//! Compile tests for `#[derive(ToolOutput)]`: every attribute mistake is a spanned compile
//! error (one mistake per file under `tests/ui/<group>/`, `.stderr` checked in), and the
//! programs under `tests/ui-pass/` compile and run (their `main` asserts the rendered text).
//!
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test -p tool-output-format-derive --test derive_ui`,
//! then read every changed `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
    t.pass("tests/ui-pass/*.rs");
}

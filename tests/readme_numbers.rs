//! The README's headline numbers come from BENCHMARKS.md: every ratio in its `## Measured`
//! section (`0.98x`, `19x`, ...) must appear in BENCHMARKS.md, so a number cannot be written
//! from memory or outlive the measurement it quotes once BENCHMARKS.md is updated.

const README: &str = include_str!("../README.md");
const BENCHMARKS: &str = include_str!("../BENCHMARKS.md");

/// The ratios in `text`: a number (digits, `.` and `,` inside) directly followed by `x` and
/// no further letter.
fn ratios(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.'))
        {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || ((b[i] == b'.' || b[i] == b',')
                        && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
            if b.get(i) == Some(&b'x') && !b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric) {
                out.push(&text[start..=i]);
            }
        }
        i += 1;
    }
    out
}

fn measured() -> &'static str {
    let start = README
        .find("\n## Measured\n")
        .expect("the README has a `## Measured` section");
    let rest = &README[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    &rest[..end]
}

#[test]
fn every_ratio_in_the_readme_is_in_benchmarks_md() {
    let found = ratios(measured());
    assert!(found.len() >= 10, "{found:?}");
    let missing: Vec<&str> = found
        .iter()
        .copied()
        .filter(|r| !ratios(BENCHMARKS).contains(r))
        .collect();
    assert!(
        missing.is_empty(),
        "README ratios not in BENCHMARKS.md: {missing:?}"
    );
}

#[test]
fn ratios_are_read_whole() {
    assert_eq!(
        ratios("a 0.98x b **19x** 1,234.5x; 2x2 v0.5x 3.36x/2.47x (1.0x)"),
        ["0.98x", "19x", "1,234.5x", "3.36x", "2.47x", "1.0x"]
    );
}

//! Paths (`user.login`) and drop patterns (`*_url`, `user.*_url`): parsing and matching.
//!
//! A path is a list of keys separated by single dots, relative to one record. Arrays are
//! transparent, so a path never names an index. A key that itself contains a dot cannot be
//! named (documented limit). A pattern is a path whose keys may contain `*` (any run of
//! characters within one key); an undotted pattern matches a key at every depth, a dotted one
//! is anchored at the record.

use std::fmt;

/// What a malformed path or pattern got wrong (the caller adds where it was written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathProblem(pub(crate) String);

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An exact field path: `user.login` is `["user", "login"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Path {
    keys: Vec<String>,
}

impl Path {
    /// Parses an exact path (no `*`).
    pub(crate) fn parse(text: &str) -> Result<Path, PathProblem> {
        let keys = split_keys(text, "path")?;
        if text.contains('*') {
            return Err(PathProblem(format!(
                "malformed path `{text}`: `*` is only allowed in drop patterns; \
                 name the field exactly, like `user.login`"
            )));
        }
        Ok(Path {
            keys: keys.into_iter().map(str::to_owned).collect(),
        })
    }

    pub(crate) fn keys(&self) -> &[String] {
        &self.keys
    }

    /// True when this path is exactly `at` (the input keys from the record down).
    pub(crate) fn is(&self, at: &[&str]) -> bool {
        self.keys.len() == at.len() && self.keys.iter().zip(at).all(|(k, a)| k == a)
    }

    /// The dotted form, `user.login`.
    pub(crate) fn dotted(&self) -> String {
        self.keys.join(".")
    }
}

/// A drop pattern: keys that may contain `*`; anchored when it has more than one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pattern {
    keys: Vec<Glob>,
}

impl Pattern {
    pub(crate) fn parse(text: &str) -> Result<Pattern, PathProblem> {
        let keys = split_keys(text, "pattern")?;
        if text.contains("**") {
            return Err(PathProblem(format!(
                "malformed pattern `{text}`: `**` is not supported; `*` matches any run of \
                 characters within one key, and a pattern without a dot already matches at \
                 every depth"
            )));
        }
        Ok(Pattern {
            keys: keys.into_iter().map(Glob::new).collect(),
        })
    }

    /// True when the field at `at` (input keys from the record down) matches.
    pub(crate) fn matches(&self, at: &[&str]) -> bool {
        match self.keys.as_slice() {
            [one] => at.last().is_some_and(|key| one.matches(key)),
            many => many.len() == at.len() && many.iter().zip(at).all(|(p, k)| p.matches(k)),
        }
    }
}

/// A list of patterns, with the ends of the keys they can match found once: most keys of a
/// record end with two bytes no pattern's key ends with, and are passed over without a match
/// of each pattern.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Patterns {
    list: Vec<Pattern>,
    /// Bit [`pair`]`(a, b)` is set when a pattern may match a key ending with the bytes `a b`
    /// (a key of one byte `b` ends with `0 b`).
    pairs: [u64; 4],
    /// Bit `b` is set when a pattern may match a key whose last byte is `b`, whatever the
    /// byte before (a pattern like `*x`).
    lasts: [u64; 4],
    /// A pattern may match a key ending with any bytes (`html_*`, `*`).
    any: bool,
}

/// The bit of a key's last two bytes in [`Patterns::pairs`].
#[inline]
fn pair(a: u8, b: u8) -> u8 {
    b ^ a.rotate_left(4)
}

#[inline]
fn has(bits: &[u64; 4], b: u8) -> bool {
    bits[usize::from(b >> 6)] & (1 << (b & 63)) != 0
}

fn set(bits: &mut [u64; 4], b: u8) {
    bits[usize::from(b >> 6)] |= 1 << (b & 63);
}

impl Patterns {
    pub(crate) fn push(&mut self, pattern: Pattern) {
        match pattern.keys.last().map_or(Ending::Any, Glob::ending) {
            Ending::Two(a, b) => set(&mut self.pairs, pair(a, b)),
            Ending::Last(b) => set(&mut self.lasts, b),
            Ending::Any => self.any = true,
        }
        self.list.push(pattern);
    }

    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// True when a pattern matches the field at `at` (see [`Pattern::matches`]).
    #[inline]
    pub(crate) fn matches(&self, at: &[&str]) -> bool {
        // A pattern's last key matches the field's own key, so the key must end with bytes
        // that key can end with (an empty key is matched in full).
        let passed_over = !self.any
            && match at.last().map_or(&[][..], |key| key.as_bytes()) {
                [] => false,
                [.., a, b] => !has(&self.pairs, pair(*a, *b)) && !has(&self.lasts, *b),
                [b] => !has(&self.pairs, pair(0, *b)) && !has(&self.lasts, *b),
            };
        !passed_over && self.list.iter().any(|p| p.matches(at))
    }
}

/// How the keys a [`Glob`] matches end.
enum Ending {
    /// With these two bytes (a key of one byte `b`: `0 b`).
    Two(u8, u8),
    /// With this byte, whatever the byte before.
    Last(u8),
    /// With any bytes.
    Any,
}

/// One key of a pattern, with the form [`glob`] reduces to for it found once: a shape's
/// patterns are matched against every key of every record it shapes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Glob {
    /// No `*`: the key itself.
    Exact(String),
    /// `*` then no other `*`: keys that end with the rest.
    Suffix(String),
    /// No `*` but the last: keys that start with the rest.
    Prefix(String),
    /// Anything else: [`glob`] itself.
    Any(String),
}

impl Glob {
    fn new(key: &str) -> Glob {
        let stars = key.bytes().filter(|&b| b == b'*').count();
        match (stars, key.strip_prefix('*'), key.strip_suffix('*')) {
            (0, _, _) => Glob::Exact(key.to_owned()),
            (1, Some(rest), _) => Glob::Suffix(rest.to_owned()),
            (1, _, Some(rest)) => Glob::Prefix(rest.to_owned()),
            _ => Glob::Any(key.to_owned()),
        }
    }

    /// How the keys this matches end.
    fn ending(&self) -> Ending {
        match self {
            Glob::Exact(k) => match k.as_bytes() {
                [.., a, b] => Ending::Two(*a, *b),
                [b] => Ending::Two(0, *b),
                [] => Ending::Any,
            },
            Glob::Suffix(end) => match end.as_bytes() {
                [.., a, b] => Ending::Two(*a, *b),
                [b] => Ending::Last(*b),
                [] => Ending::Any,
            },
            Glob::Prefix(_) | Glob::Any(_) => Ending::Any,
        }
    }

    #[inline]
    fn matches(&self, key: &str) -> bool {
        match self {
            Glob::Exact(k) => k == key,
            Glob::Suffix(end) => key.ends_with(end.as_str()),
            Glob::Prefix(start) => key.starts_with(start.as_str()),
            Glob::Any(pattern) => glob(pattern, key),
        }
    }
}

fn split_keys<'a>(text: &'a str, what: &str) -> Result<Vec<&'a str>, PathProblem> {
    if text.is_empty() {
        return Err(PathProblem(format!(
            "malformed {what} ``: it is empty; write a key, or keys separated by dots like `user.login`"
        )));
    }
    let keys: Vec<&str> = text.split('.').collect();
    if keys.iter().any(|k| k.is_empty()) {
        let why = if text.starts_with('.') {
            "it starts with a dot"
        } else if text.ends_with('.') {
            "it ends with a dot"
        } else {
            "it has an empty key between two dots"
        };
        return Err(PathProblem(format!(
            "malformed {what} `{text}`: {why}; write keys separated by single dots, like `user.login`"
        )));
    }
    Ok(keys)
}

/// `*` matches any run of characters (also none); everything else matches itself.
/// Iterative with one backtrack point: linear in practice, never exponential.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    let p = pattern.as_bytes();
    let t = text.as_bytes();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&b| b == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        let cases = [
            ("*_url", "avatar_url", true),
            ("*_url", "_url", true),
            ("*_url", "url", false),
            ("*_url", "urls", false),
            ("url", "url", true),
            ("*", "", true),
            ("*", "anything", true),
            ("a*b*c", "aXbYc", true),
            ("a*b*c", "abcabc", true),
            ("a*b*c", "acb", false),
            ("node_id", "node_ids", false),
            ("héllo*", "héllo wörld", true),
            ("*ö*", "wörld", true),
        ];
        for (pattern, text, want) in cases {
            assert_eq!(glob(pattern, text), want, "{pattern} on {text}");
        }
    }

    #[test]
    fn each_glob_form_agrees_with_glob() {
        let patterns = ["url", "*_url", "html_*", "*", "a*b", "*a*", "", "*ö", "é*"];
        let keys = [
            "url",
            "avatar_url",
            "_url",
            "html_url",
            "html_",
            "ab",
            "aXb",
            "a",
            "",
            "wö",
            "éa",
        ];
        for p in patterns {
            for k in keys {
                assert_eq!(Glob::new(p).matches(k), glob(p, k), "{p} on {k}");
            }
        }
    }

    #[test]
    fn a_list_of_patterns_passes_over_only_keys_none_of_them_matches() {
        let texts = [
            "url",
            "*_url",
            "x",
            "*l",
            "user.gravatar_id",
            "a*b",
            "*ö",
            "html_*",
            "x.*",
        ];
        let paths: [&[&str]; 16] = [
            &["x"],
            &["l"],
            &["ll"],
            &["xl"],
            &["url"],
            &["avatar_url"],
            &["html_x"],
            &["user", "gravatar_id"],
            &["gravatar_id"],
            &["aXb"],
            &["wö"],
            &["x", "y"],
            &["x"],
            &["ab", ""],
            &["amount"],
            &["user", "login"],
        ];
        // Every prefix of the list: the ends grow with it (two bytes, one byte for `*l`), and
        // a pattern whose keys may end with any bytes (`html_*`) turns the filter off.
        for n in 0..=texts.len() {
            let mut list = Patterns::default();
            let patterns: Vec<Pattern> = texts[..n]
                .iter()
                .map(|t| Pattern::parse(t).unwrap())
                .collect();
            for p in &patterns {
                list.push(p.clone());
            }
            for at in paths {
                let want = patterns.iter().any(|p| p.matches(at));
                assert_eq!(list.matches(at), want, "{:?} on {at:?}", &texts[..n]);
            }
        }
    }

    #[test]
    fn undotted_pattern_matches_at_every_depth_dotted_is_anchored() {
        let any = Pattern::parse("*_url").unwrap();
        assert!(any.matches(&["html_url"]));
        assert!(any.matches(&["user", "avatar_url"]));
        assert!(!any.matches(&["user"]));
        let anchored = Pattern::parse("user.*_url").unwrap();
        assert!(anchored.matches(&["user", "avatar_url"]));
        assert!(!anchored.matches(&["html_url"]));
        assert!(!anchored.matches(&["owner", "user", "avatar_url"]));
        assert!(!anchored.matches(&["user", "avatar_url", "x"]));
    }

    #[test]
    fn malformed_paths_say_what_is_wrong() {
        let err = |t: &str| Path::parse(t).unwrap_err().0;
        assert_eq!(
            err(""),
            "malformed path ``: it is empty; write a key, or keys separated by dots like `user.login`"
        );
        assert_eq!(
            err("user..login"),
            "malformed path `user..login`: it has an empty key between two dots; write keys \
             separated by single dots, like `user.login`"
        );
        assert!(err(".a").contains("starts with a dot"));
        assert!(err("a.").contains("ends with a dot"));
        assert!(err("user.*").contains("`*` is only allowed in drop patterns"));
        assert!(
            Pattern::parse("**.url")
                .unwrap_err()
                .0
                .contains("`**` is not supported")
        );
        assert!(Pattern::parse("a..b").is_err());
        assert_eq!(Path::parse("user.login").unwrap().dotted(), "user.login");
        assert!(Path::parse("user.login").unwrap().is(&["user", "login"]));
    }
}

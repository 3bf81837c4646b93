//! Data written in another notation than one JSON document: a tool's text that is, whole, a
//! list or a record in JSON, in NDJSON (one JSON record a line) or as a Python literal
//! (`[{'order_id': 1, 'paid': True, 'note': None}, ...]`, what `str()` of a list of dicts
//! prints). [`parse`] reads it as the data it is, so it is rendered as a table or a record,
//! not as one long line of text; anything else stays text.

use serde_json::{Map, Number, Value};

/// The deepest a Python literal may nest before it is read as text (as `serde_json` stops at
/// 128).
const MAX_DEPTH: usize = 128;

/// The data `text` holds when it is, whole, a JSON list or record, NDJSON records (two lines
/// or more), or a Python literal list, tuple or dict; `None` for anything else (it is text).
///
/// ```ignore
/// let v = parse("[{'id': 1, 'ok': True, 'note': None}]").unwrap();
/// assert_eq!(v, serde_json::json!([{"id": 1, "ok": true, "note": null}]));
/// ```
pub fn parse(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if !(trimmed.starts_with(['[', '{', '('])) {
        return None;
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(v @ (Value::Object(_) | Value::Array(_))) => return Some(v),
        Ok(_) => return None,
        Err(_) => {}
    }
    if let Some(v) = ndjson(trimmed) {
        return Some(v);
    }
    let mut p = Python {
        s: trimmed.as_bytes(),
        at: 0,
    };
    let v = p.value(0)?;
    p.space();
    (p.at == p.s.len() && matches!(v, Value::Array(_) | Value::Object(_))).then_some(v)
}

/// Two or more lines, each a JSON record: the list of them.
fn ndjson(text: &str) -> Option<Value> {
    let mut records = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line) {
            Ok(v @ Value::Object(_)) => records.push(v),
            _ => return None,
        }
    }
    (records.len() >= 2).then_some(Value::Array(records))
}

/// A reader of Python literals over bytes (the text is UTF-8; only ASCII bytes are syntax).
struct Python<'s> {
    s: &'s [u8],
    at: usize,
}

impl Python<'_> {
    fn space(&mut self) {
        while self.s.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'[' => self.items(b']', depth).map(Value::Array),
            b'(' => self.items(b')', depth).map(Value::Array),
            b'{' => self.dict(depth),
            b'\'' | b'"' => self.string().map(Value::String),
            b'b' | b'r' | b'u' | b'B' | b'R' | b'U'
                if matches!(self.s.get(self.at + 1), Some(b'\'' | b'"')) =>
            {
                let raw = matches!(self.s[self.at], b'r' | b'R');
                self.at += 1;
                if raw {
                    self.raw_string().map(Value::String)
                } else {
                    self.string().map(Value::String)
                }
            }
            b'-' | b'+' | b'0'..=b'9' | b'.' => self.number(),
            _ => self.word(),
        }
    }

    /// `[a, b]` or `(a, b)` (a trailing comma allowed).
    fn items(&mut self, close: u8, depth: usize) -> Option<Vec<Value>> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            if self.eat(close) {
                return Some(out);
            }
            out.push(self.value(depth + 1)?);
            if !self.eat(b',') {
                return self.eat(close).then_some(out);
            }
        }
    }

    /// `{key: value, ...}`: a key that is not a string is written as JSON text.
    fn dict(&mut self, depth: usize) -> Option<Value> {
        self.at += 1;
        let mut out = Map::new();
        loop {
            if self.eat(b'}') {
                return Some(Value::Object(out));
            }
            let key = match self.value(depth + 1)? {
                Value::String(s) => s,
                other => other.to_string(),
            };
            if !self.eat(b':') {
                return None;
            }
            out.insert(key, self.value(depth + 1)?);
            if !self.eat(b',') {
                return self.eat(b'}').then_some(Value::Object(out));
            }
        }
    }

    /// A quoted string (`'...'` or `"..."`, not triple-quoted) with Python's escapes.
    fn string(&mut self) -> Option<String> {
        let quote = self.s[self.at];
        self.at += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let b = *self.s.get(self.at)?;
            self.at += 1;
            match b {
                b'\n' => return None,
                _ if b == quote => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = *self.s.get(self.at)?;
                    self.at += 1;
                    let c = match e {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'0' => '\0',
                        b'\\' | b'\'' | b'"' => char::from(e),
                        b'x' => self.hex(2)?,
                        b'u' => self.hex(4)?,
                        b'U' => self.hex(8)?,
                        _ => {
                            // Python keeps an unknown escape as written.
                            out.push(b'\\');
                            char::from(e)
                        }
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(b),
            }
        }
    }

    /// `r'...'`: backslashes kept.
    fn raw_string(&mut self) -> Option<String> {
        let quote = self.s[self.at];
        self.at += 1;
        let start = self.at;
        while *self.s.get(self.at)? != quote {
            if self.s[self.at] == b'\n' {
                return None;
            }
            self.at += usize::from(self.s[self.at] == b'\\') + 1;
        }
        let text = std::str::from_utf8(self.s.get(start..self.at)?).ok()?;
        self.at += 1;
        Some(text.to_owned())
    }

    fn hex(&mut self, n: usize) -> Option<char> {
        let digits = std::str::from_utf8(self.s.get(self.at..self.at + n)?).ok()?;
        self.at += n;
        char::from_u32(u32::from_str_radix(digits, 16).ok()?)
    }

    /// An int or a float as Python prints them (`1`, `-2.5`, `1e-07`); one too large for
    /// JSON's numbers is kept as its text.
    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        while self.s.get(self.at).is_some_and(|b| {
            b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'_')
        }) {
            self.at += 1;
        }
        let text: String = std::str::from_utf8(&self.s[start..self.at])
            .ok()?
            .chars()
            .filter(|&c| c != '_')
            .collect();
        let text = text.strip_prefix('+').unwrap_or(&text);
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            // An int: exact, or past 64 bits its digits as text (never rounded).
            return Some(match (text.parse::<i64>(), text.parse::<u64>()) {
                (Ok(i), _) => Value::Number(i.into()),
                (_, Ok(u)) => Value::Number(u.into()),
                _ => Value::String(text.to_owned()),
            });
        }
        Number::from_f64(text.parse().ok()?).map(Value::Number)
    }

    /// `True`, `False`, `None`.
    fn word(&mut self) -> Option<Value> {
        for (word, v) in [
            ("True", Value::Bool(true)),
            ("False", Value::Bool(false)),
            ("None", Value::Null),
        ] {
            if self.s[self.at..].starts_with(word.as_bytes())
                && !self
                    .s
                    .get(self.at + word.len())
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            {
                self.at += word.len();
                return Some(v);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_python_literal_is_data() {
        let text = "[{'order_id': 1, 'amount': 293.86, 'status': 'paid', 'ok': True, \
                    'note': None, \"q\": 'it\\'s', 't': (1, 2,), 'big': 123456789012345678901234567890}]";
        assert_eq!(
            parse(text).unwrap(),
            json!([{"order_id": 1, "amount": 293.86, "status": "paid", "ok": true,
                    "note": null, "q": "it's", "t": [1, 2],
                    "big": "123456789012345678901234567890"}])
        );
        assert_eq!(
            parse("{1: 'a', 'b': [], 'c': {}}").unwrap(),
            json!({"1": "a", "b": [], "c": {}})
        );
        assert_eq!(
            parse("[b'raw', r'a\\b', '\\u00e9\\x41']").unwrap(),
            json!(["raw", "a\\b", "éA"])
        );
    }

    #[test]
    fn json_and_ndjson_are_data() {
        assert_eq!(parse(" [1, 2] ").unwrap(), json!([1, 2]));
        assert_eq!(
            parse("{\"a\": 1}\n{\"a\": 2}\n").unwrap(),
            json!([{"a": 1}, {"a": 2}])
        );
    }

    #[test]
    fn anything_else_is_text() {
        for text in [
            "hello",
            "'a string'",
            "42",
            "[1, 2",
            "[{'a': 1}] and more",
            "{\"a\": 1}",
            "(not, data)",
            "[{'a': 'line\nbreak'}]",
            "diff --git a/x b/x",
        ] {
            let got = parse(text);
            assert!(
                got.is_none() || text == "{\"a\": 1}",
                "{text:?} read as {got:?}"
            );
        }
        // One JSON record is data too.
        assert_eq!(parse("{\"a\": 1}").unwrap(), json!({"a": 1}));
        // Nesting past the bound stays text, never a stack overflow.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse(&deep).is_none());
    }
}

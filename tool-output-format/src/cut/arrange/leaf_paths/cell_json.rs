//! A table cell's JSON text read back as values, for the leaf columns: strings borrowed from
//! the text where they hold no escape, numbers kept as their text, a record's fields in
//! order in a list (a key given twice keeps its first place and takes its last value, as
//! `serde_json::Map` does). A cell's JSON is written as `serde_json` writes it, so a number's
//! text is what `serde_json` would write for it again, and [`Json::write`] writes a value's
//! text as `serde_json::to_string` writes the value. Text that `serde_json` would not read
//! (not JSON, or nested [`MAX_NESTING`] deep) is `None`.

use std::borrow::Cow;

use crate::input::json::write_str;

/// The deepest nesting read, as `serde_json`'s recursion limit.
const MAX_NESTING: usize = 127;

/// One JSON value of a cell's text.
#[derive(Debug, PartialEq)]
pub(super) enum Json<'t> {
    Null,
    Bool(bool),
    /// Its text.
    Number(&'t str),
    Str(Cow<'t, str>),
    List(Vec<Json<'t>>),
    Record(Record<'t>),
}

/// A record's fields, in order, each key once.
pub(super) type Record<'t> = Vec<(Cow<'t, str>, Json<'t>)>;

impl<'t> Json<'t> {
    /// `text` as one JSON value (whitespace around it allowed), or `None`.
    pub(super) fn parse(text: &'t str) -> Option<Json<'t>> {
        let mut p = Parser { text, at: 0 };
        let v = p.value(0)?;
        p.ws();
        (p.at == text.len()).then_some(v)
    }

    /// The value of the field `key` of a record.
    pub(super) fn get<'r>(record: &'r Record<'t>, key: &str) -> Option<&'r Json<'t>> {
        record.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Append the value as compact JSON, as `serde_json::to_string` writes it.
    pub(super) fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(n),
            Json::Str(s) => write_str(s, out),
            Json::List(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Json::Record(fields) => {
                out.push('{');
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(k, out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

struct Parser<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Parser<'t> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &str) -> Option<()> {
        self.text[self.at..]
            .starts_with(word)
            .then(|| self.at += word.len())
    }

    /// The value at the cursor; `depth`: the containers it is in.
    fn value(&mut self, depth: usize) -> Option<Json<'t>> {
        self.ws();
        match self.peek()? {
            b'n' => self.eat("null").map(|()| Json::Null),
            b't' => self.eat("true").map(|()| Json::Bool(true)),
            b'f' => self.eat("false").map(|()| Json::Bool(false)),
            b'"' => self.string().map(Json::Str),
            b'[' if depth < MAX_NESTING => {
                self.at += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == Some(b']') {
                    self.at += 1;
                    return Some(Json::List(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.peek()? {
                        b',' => self.at += 1,
                        b']' => {
                            self.at += 1;
                            return Some(Json::List(items));
                        }
                        _ => return None,
                    }
                }
            }
            b'{' if depth < MAX_NESTING => {
                self.at += 1;
                let mut fields: Record<'t> = Vec::new();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    return Some(Json::Record(fields));
                }
                loop {
                    self.ws();
                    if self.peek()? != b'"' {
                        return None;
                    }
                    let key = self.string()?;
                    self.ws();
                    self.eat(":")?;
                    let v = self.value(depth + 1)?;
                    fields.push((key, v));
                    self.ws();
                    match self.peek()? {
                        b',' => self.at += 1,
                        b'}' => {
                            self.at += 1;
                            once_each(&mut fields);
                            return Some(Json::Record(fields));
                        }
                        _ => return None,
                    }
                }
            }
            b'-' | b'0'..=b'9' => self.number().map(Json::Number),
            _ => None,
        }
    }

    /// A number's text (JSON's grammar: `-`, digits without a leading zero, a fraction, an
    /// exponent).
    fn number(&mut self) -> Option<&'t str> {
        let b = self.text.as_bytes();
        let start = self.at;
        let digits = |at: &mut usize| {
            let from = *at;
            while b.get(*at).is_some_and(u8::is_ascii_digit) {
                *at += 1;
            }
            *at > from
        };
        let mut at = self.at;
        if b.get(at) == Some(&b'-') {
            at += 1;
        }
        if b.get(at) == Some(&b'0') {
            at += 1;
        } else if !digits(&mut at) {
            return None;
        }
        if b.get(at) == Some(&b'.') {
            at += 1;
            if !digits(&mut at) {
                return None;
            }
        }
        if matches!(b.get(at), Some(b'e' | b'E')) {
            at += 1;
            if matches!(b.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            if !digits(&mut at) {
                return None;
            }
        }
        let n = &self.text[start..at];
        // Out of a float's range: `serde_json` reads no such number.
        if !n.parse::<f64>().is_ok_and(f64::is_finite) {
            return None;
        }
        self.at = at;
        Some(n)
    }

    /// A string literal at the cursor (its opening quote), unescaped.
    fn string(&mut self) -> Option<Cow<'t, str>> {
        let b = self.text.as_bytes();
        self.at += 1;
        let start = self.at;
        // Borrowed while no escape is met.
        let mut owned: Option<String> = None;
        let mut run = start;
        loop {
            let i = self.at + memchr::memchr2(b'"', b'\\', &b[self.at..])?;
            if b[self.at..i].iter().any(|&c| c < 0x20) {
                return None;
            }
            if b[i] == b'"' {
                self.at = i + 1;
                return Some(match owned {
                    None => Cow::Borrowed(&self.text[start..i]),
                    Some(mut s) => {
                        s.push_str(&self.text[run..i]);
                        Cow::Owned(s)
                    }
                });
            }
            let s = owned.get_or_insert_with(String::new);
            s.push_str(&self.text[run..i]);
            self.at = i + 1;
            match b.get(self.at)? {
                b'"' => s.push('"'),
                b'\\' => s.push('\\'),
                b'/' => s.push('/'),
                b'b' => s.push('\u{8}'),
                b'f' => s.push('\u{c}'),
                b'n' => s.push('\n'),
                b'r' => s.push('\r'),
                b't' => s.push('\t'),
                b'u' => {
                    let text = self.text;
                    let hex = |at: usize| {
                        let h = text.get(at..at + 4)?;
                        u16::from_str_radix(h, 16)
                            .ok()
                            .filter(|_| h.bytes().all(|c| c.is_ascii_hexdigit()))
                    };
                    let first = hex(self.at + 1)?;
                    self.at += 4;
                    let c = match first {
                        0xD800..=0xDBFF => {
                            // A leading surrogate: its trailing one must follow.
                            if self.text.get(self.at + 1..self.at + 3) != Some("\\u") {
                                return None;
                            }
                            let second = hex(self.at + 3)?;
                            if !(0xDC00..=0xDFFF).contains(&second) {
                                return None;
                            }
                            self.at += 6;
                            let c = 0x10000
                                + ((u32::from(first) - 0xD800) << 10)
                                + (u32::from(second) - 0xDC00);
                            char::from_u32(c)?
                        }
                        0xDC00..=0xDFFF => return None,
                        c => char::from_u32(u32::from(c))?,
                    };
                    s.push(c);
                }
                _ => return None,
            }
            self.at += 1;
            run = self.at;
        }
    }
}

/// A record's fields with each key once: a key given again keeps its first place and takes
/// the later value (as `serde_json::Map` inserts).
fn once_each<'t>(fields: &mut Record<'t>) {
    let n = fields.len();
    if n < 2 {
        return;
    }
    // By key, then place: a key given twice sits next to itself.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| fields[a].0.cmp(&fields[b].0).then(a.cmp(&b)));
    if !order.windows(2).any(|w| fields[w[0]].0 == fields[w[1]].0) {
        return;
    }
    // For each field: dropped (a later one of its key took its value), or kept.
    let mut keep = vec![true; n];
    let mut taken: Vec<Option<Json<'t>>> = Vec::new();
    taken.resize_with(n, || None);
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && fields[order[j + 1]].0 == fields[order[i]].0 {
            j += 1;
        }
        if j > i {
            // The first place takes the last value.
            let (first, last) = (order[i], order[j]);
            taken[first] = Some(std::mem::replace(&mut fields[last].1, Json::Null));
            for &k in &order[i + 1..=j] {
                keep[k] = false;
            }
        }
        i = j + 1;
    }
    let mut at = 0;
    fields.retain_mut(|(_, v)| {
        let kept = keep[at];
        if let Some(last) = taken[at].take() {
            *v = last;
        }
        at += 1;
        kept
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    /// The value `serde_json` reads, as a [`Json`] would hold it.
    fn from_value(v: &Value) -> Json<'static> {
        match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(Box::leak(n.to_string().into_boxed_str())),
            Value::String(s) => Json::Str(Cow::Owned(s.clone())),
            Value::Array(items) => Json::List(items.iter().map(from_value).collect()),
            Value::Object(m) => Json::Record(
                m.iter()
                    .map(|(k, v)| (Cow::Owned(k.clone()), from_value(v)))
                    .collect(),
            ),
        }
    }

    proptest! {
        #[test]
        fn a_cell_is_read_as_serde_json_reads_it(
            parts in prop::collection::vec(
                prop::sample::select(vec![
                    "{", "}", "[", "]", ",", ":", " ", "\"a\"", "\"b\"", "\"a\\\"\\\\\\/\\n\\u00e9\"",
                    "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\u0001\"", "\"\t\"", "\"é\"", "null",
                    "true", "false", "0", "-1", "1.5", "2e3", "-0.0", "01", "1.", "18446744073709551615",
                    "12345678901234567890123", "1e400", "\"x", "\\",
                ]),
                0..14,
            ),
        ) {
            let text = parts.concat();
            let want = serde_json::from_str::<Value>(&text).ok();
            let got = Json::parse(&text);
            match (&want, &got) {
                (Some(v), Some(j)) => {
                    // Numbers compared by the text serde_json writes for them again.
                    let mut written = String::new();
                    j.write(&mut written);
                    let reread: Value = serde_json::from_str(&written).expect("JSON");
                    prop_assert_eq!(&reread, v);
                    let long = text.split(|c: char| !c.is_ascii_digit()).any(|d| d.len() >= 19);
                    if text.contains(['.', 'e']) || long {
                        // A float's or a big number's text may differ from what serde_json
                        // writes; a cell's never does (it was written by serde_json's rules).
                        return Ok(());
                    }
                    prop_assert_eq!(j, &from_value(v));
                    prop_assert_eq!(written, v.to_string());
                }
                (None, None) => {}
                _ => prop_assert!(false, "{text:?}: serde_json {want:?}, read {got:?}"),
            }
        }

        #[test]
        fn written_json_reads_back_as_it_was(v in json_value()) {
            let text = v.to_string();
            let j = Json::parse(&text).expect("JSON");
            prop_assert_eq!(&j, &from_value(&v));
            let mut written = String::new();
            j.write(&mut written);
            prop_assert_eq!(written, text);
        }
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "(?s).{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(("[a-c\"\\\\é]{0,2}", inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    #[test]
    fn a_key_given_twice_keeps_its_first_place_and_its_last_value() {
        let text = r#"{"a":1,"b":2,"a":3,"c":4,"b":5}"#;
        let want: Value = serde_json::from_str(text).unwrap();
        assert_eq!(Json::parse(text).unwrap(), from_value(&want));
        let deep = "[".repeat(MAX_NESTING) + &"]".repeat(MAX_NESTING);
        assert!(Json::parse(&deep).is_some() && serde_json::from_str::<Value>(&deep).is_ok());
        let deeper = "[".repeat(MAX_NESTING + 1) + &"]".repeat(MAX_NESTING + 1);
        assert!(Json::parse(&deeper).is_none() && serde_json::from_str::<Value>(&deeper).is_err());
    }
}

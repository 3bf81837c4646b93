//! Shape files (`--shape FILE`): a JSON object with the optional keys `keep`, `drop`
//! (arrays of paths), `rename` (an object: input path -> new name), `convert` (an object:
//! path -> converter) and `drop_empty` (a boolean).
//!
//! Phase 1 reads and checks the file (syntax, unknown keys, value types); applying it waits
//! for the library's `Shape`, so `tof` then stops with a "not yet supported" error.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::Error;

/// The keys a shape file may have (pinned by the SPEC).
pub const KEYS: [&str; 5] = ["keep", "drop", "rename", "convert", "drop_empty"];

/// A checked shape file, as written (converted into the library's `Shape` in phase 2).
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeFile {
    /// The file's object.
    pub spec: Map<String, Value>,
}

/// Read and check a shape file.
pub fn load(path: &Path) -> Result<ShapeFile, Error> {
    let name = path.display().to_string();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
    {
        return Err(Error::Unsupported(format!(
            "--shape {name}: TOML shape files are not supported yet; write the shape as a JSON object"
        )));
    }
    let text = std::fs::read(path).map_err(|error| Error::Io {
        context: format!("reading the shape file {name}"),
        error,
    })?;
    parse(&name, &text)
}

/// Check a shape file's text; `name` is used in messages.
pub fn parse(name: &str, text: &[u8]) -> Result<ShapeFile, Error> {
    let v: Value = serde_json::from_slice(text).map_err(|e| Error::json(name, 0, &e))?;
    let invalid = |message: String| Error::Invalid {
        source: name.to_owned(),
        message,
    };
    let Value::Object(spec) = v else {
        return Err(invalid(format!(
            "a shape file is a JSON object with the keys {}; found {}",
            KEYS.join(", "),
            kind(&v)
        )));
    };
    for (k, v) in &spec {
        let ok = match k.as_str() {
            "keep" | "drop" => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
            "rename" => v
                .as_object()
                .is_some_and(|m| m.values().all(Value::is_string)),
            "convert" => v.is_object(),
            "drop_empty" => v.is_boolean(),
            _ => {
                return Err(invalid(format!(
                    "unknown shape key `{k}`; expected one of {}",
                    KEYS.join(", ")
                )));
            }
        };
        if !ok {
            let expected = match k.as_str() {
                "keep" | "drop" => "an array of paths (strings), e.g. [\"id\", \"user.login\"]",
                "rename" => {
                    "an object of input path -> new name, e.g. {\"user.login\": \"author\"}"
                }
                "convert" => "an object of path -> converter, e.g. {\"created_at\": \"timestamp\"}",
                _ => "true or false",
            };
            return Err(invalid(format!(
                "shape key `{k}` is {}; expected {expected}",
                kind(v)
            )));
        }
    }
    Ok(ShapeFile { spec })
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_good_shape_file() {
        let s = parse(
            "s.json",
            br#"{"keep": ["id", "user.login"], "drop": ["*_url"], "rename": {"user.login": "author"},
                "convert": {"created_at": "timestamp"}, "drop_empty": true}"#,
        )
        .unwrap();
        assert_eq!(s.spec.len(), 5);
    }

    #[test]
    fn mistakes_name_the_key() {
        let cases: [(&[u8], &str); 5] = [
            (
                br#"{"kep": []}"#,
                "s.json: unknown shape key `kep`; expected one of keep, drop, rename, convert, drop_empty",
            ),
            (
                br#"{"keep": "id"}"#,
                "s.json: shape key `keep` is a string; expected an array of paths (strings), e.g. [\"id\", \"user.login\"]",
            ),
            (
                br#"{"drop_empty": 1}"#,
                "s.json: shape key `drop_empty` is a number; expected true or false",
            ),
            (
                b"[]",
                "s.json: a shape file is a JSON object with the keys keep, drop, rename, convert, drop_empty; found an array",
            ),
            (b"{\n  \"keep\": [,]\n}", "s.json:2:12: expected value"),
        ];
        for (text, want) in cases {
            let e = parse("s.json", text).unwrap_err();
            assert_eq!(e.to_string(), want);
            assert_eq!(e.exit_code(), crate::error::EXIT_INPUT);
        }
    }
}

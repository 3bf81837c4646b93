//! Shape files (`--shape FILE`): a JSON object, or a TOML document when the file name ends
//! in `.toml`, with the optional keys `keep`, `drop` (arrays of paths), `rename` (an object:
//! input path -> new name), `convert` (an object: path -> converter), `drop_empty` and
//! `flatten` (booleans), read into the library's [`Shape`] (see `Shape::from_json_str` and
//! `Shape::from_toml_str` for the converter forms) and applied to every result through
//! `Formatter::shape`.
//!
//! A JSON text is parsed with `serde_json` first, so a syntax error reads `FILE:LINE:COLUMN:
//! message` like every other input error; the object is then read by `Shape::from_value`
//! (what `Shape::from_json_str` does after parsing), so every other mistake reads
//! `FILE: shape WHERE: message`, naming the key or path. A TOML text goes through
//! `Shape::from_toml_str`, its syntax errors written as `FILE:LINE:COLUMN: message` too. All
//! exit with code 2.
//!
//! A stream (NDJSON, or a JSON array longer than the row cap) is shaped as the records the
//! reader keeps: `drop_empty` and `flatten` decide their columns from those rows, and the
//! columns first seen in later rows are added as empty cells (see `render`).

use std::path::Path;

use serde_json::Value;
use tool_output_format::{Shape, shape::ShapeError};

use crate::error::Error;

/// Read a shape file.
pub fn load(path: &Path) -> Result<Shape, Error> {
    let name = path.display().to_string();
    let text = std::fs::read(path).map_err(|error| Error::Io {
        context: format!("reading the shape file {name}"),
        error,
    })?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
    {
        parse_toml(&name, &text)
    } else {
        parse(&name, &text)
    }
}

/// Read a shape file's text; `name` is used in messages.
pub fn parse(name: &str, text: &[u8]) -> Result<Shape, Error> {
    let v: Value = serde_json::from_slice(text).map_err(|e| Error::json(name, text, 0, &e))?;
    Shape::from_value(&v).map_err(|e| Error::Invalid {
        source: name.to_owned(),
        message: e.to_string(),
    })
}

/// Read a TOML shape file's text; `name` is used in messages.
pub fn parse_toml(name: &str, text: &[u8]) -> Result<Shape, Error> {
    let text = std::str::from_utf8(text).map_err(|e| Error::Invalid {
        source: name.to_owned(),
        message: format!(
            "not valid TOML: not UTF-8 text (byte {} is not)",
            e.valid_up_to()
        ),
    })?;
    Shape::from_toml_str(text).map_err(|e| toml_error(name, &e))
}

/// A shape error from a TOML file: `FILE:LINE:COLUMN: message` for a syntax error (its place
/// is `line L column C`), `FILE: shape WHERE: message` for the rest.
fn toml_error(name: &str, e: &ShapeError) -> Error {
    let position = e.at().strip_prefix("line ").and_then(|rest| {
        let (line, column) = rest.split_once(" column ")?;
        Some((line.parse().ok()?, column.parse().ok()?))
    });
    match position {
        Some((line, column)) => Error::Input {
            source: name.to_owned(),
            line,
            column,
            message: e.message().to_owned(),
        },
        None => Error::Invalid {
            source: name.to_owned(),
            message: e.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_good_shape_file() {
        let s = parse(
            "s.json",
            br#"{"keep": ["id", "user.login"], "drop": ["*_url"], "rename": {"user.login": "author"},
                "convert": {"created_at": "timestamp"}, "drop_empty": true}"#,
        )
        .unwrap();
        let v = json!({"id": 1, "user": {"login": "li"}, "created_at": "2023-12-22T01:00:00+01:00", "x_url": "u"});
        assert_eq!(s.apply(&v), json!({"id": 1, "author": "li"}));
    }

    #[test]
    fn mistakes_name_the_key() {
        let cases: [(&[u8], &str); 6] = [
            (
                br#"{"kep": []}"#,
                "s.json: shape \"kep\": unknown key; a shape file has the keys `keep`, `drop`, `rename`, `convert`, `drop_empty`, `flatten`, `essential`, `minor`",
            ),
            (
                br#"{"keep": "id"}"#,
                "s.json: shape keep: `keep` is an array of paths, like [\"id\", \"user.login\"], found the string \"id\"",
            ),
            (
                br#"{"drop_empty": 1}"#,
                "s.json: shape drop_empty: `drop_empty` is true or false, found 1",
            ),
            (
                b"[]",
                "s.json: shape: a shape file is a JSON object, found an array",
            ),
            (
                br#"{"keep": ["user..login"]}"#,
                "s.json: shape keep[0]: malformed path `user..login`: it has an empty key between two dots; write keys separated by single dots, like `user.login`",
            ),
            (b"{\n  \"keep\": [,]\n}", "s.json:2:12: expected value"),
        ];
        for (text, want) in cases {
            let e = parse("s.json", text).unwrap_err();
            assert_eq!(e.to_string(), want);
            assert_eq!(e.exit_code(), crate::error::EXIT_INPUT);
        }
    }

    #[test]
    fn toml_shape_files() {
        let s = parse_toml(
            "s.toml",
            br#"keep = ["id", "user.login"]
drop = ["*_url"]
drop_empty = true
[rename]
"user.login" = "author"
[convert]
created_at = "timestamp""#,
        )
        .unwrap();
        let v = json!({"id": 1, "user": {"login": "li"}, "x_url": "u"});
        assert_eq!(s.apply(&v), json!({"id": 1, "author": "li"}));

        let cases: [(&[u8], &str); 3] = [
            (
                b"kep = []",
                "s.toml: shape \"kep\": unknown key; a shape file has the keys `keep`, `drop`, `rename`, `convert`, `drop_empty`, `flatten`, `essential`, `minor`",
            ),
            (
                b"keep = [\"id\"]\ndrop_empty = yes",
                "s.toml:2:14: not valid TOML: string values must be quoted, expected literal string",
            ),
            (
                b"keep = [\"\xff\"]",
                "s.toml: not valid TOML: not UTF-8 text (byte 9 is not)",
            ),
        ];
        for (text, want) in cases {
            let e = parse_toml("s.toml", text).unwrap_err();
            assert_eq!(e.to_string(), want);
            assert_eq!(e.exit_code(), crate::error::EXIT_INPUT);
        }
    }
}

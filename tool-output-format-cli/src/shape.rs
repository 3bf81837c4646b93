//! Shape files (`--shape FILE`): a JSON object with the optional keys `keep`, `drop`
//! (arrays of paths), `rename` (an object: input path -> new name), `convert` (an object:
//! path -> converter), `drop_empty` and `flatten` (booleans), read into the library's
//! [`Shape`] (see `Shape::from_json_str` for the converter forms) and applied to every result
//! through `Formatter::shape`.
//!
//! The text is parsed with serde_json first, so a syntax error reads `FILE:LINE:COLUMN:
//! message` like every other input error; the object is then read by `Shape::from_value`
//! (what `Shape::from_json_str` does after parsing), so every other mistake reads
//! `FILE: shape WHERE: message`, naming the key or path. Both exit with code 2.
//!
//! A stream (NDJSON, or a JSON array longer than the row cap) is shaped as the records the
//! reader keeps: `drop_empty` and `flatten` decide their columns from those rows, and the
//! columns first seen in later rows are added as empty cells (see `render`).

use std::path::Path;

use serde_json::Value;
use tool_output_format::Shape;

use crate::error::Error;

/// Read a shape file.
pub fn load(path: &Path) -> Result<Shape, Error> {
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

/// Read a shape file's text; `name` is used in messages.
pub fn parse(name: &str, text: &[u8]) -> Result<Shape, Error> {
    let v: Value = serde_json::from_slice(text).map_err(|e| Error::json(name, text, 0, &e))?;
    Shape::from_value(&v).map_err(|e| Error::Invalid {
        source: name.to_owned(),
        message: e.to_string(),
    })
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
                "s.json: shape \"kep\": unknown key; a shape file has the keys `keep`, `drop`, `rename`, `convert`, `drop_empty`, `flatten`",
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
}

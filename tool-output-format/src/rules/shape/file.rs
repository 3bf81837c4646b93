//! Shape files: a JSON object (or a TOML document, feature `toml`) with the pinned keys
//! `keep`, `drop`, `rename`, `convert` and `drop_empty` (and `flatten`, `essential`,
//! `minor`), for the command line and non-Rust hosts.
//!
//! Read by hand from a `serde_json::Value` (no serde derive), so every error names the exact
//! place (`convert["amount"].fixed`) and lists what was expected. A TOML file is turned into
//! that `Value` first (tables as objects, datetimes as their RFC 3339 text), so both forms
//! have one reader and the same messages.

use super::{Convert, Shape, ShapeError, ShapeErrorKind};
use serde_json::{Map, Value};

const KEYS: &str =
    "`keep`, `drop`, `rename`, `convert`, `drop_empty`, `flatten`, `essential`, `minor`";
const CONVERTERS: &str = "\"epoch_seconds\", \"epoch_millis\", \"timestamp\", \"cents\", \
                          {\"fixed\": N}, {\"map\": {...}}, {\"prefix\": \"...\"}";

impl Shape {
    /// Reads a shape file (JSON). The object's keys, all optional:
    ///
    /// | key | value |
    /// |---|---|
    /// | `keep` | array of paths |
    /// | `drop` | array of patterns |
    /// | `rename` | object: input path -> new name |
    /// | `convert` | object: input path -> converter |
    /// | `drop_empty` | bool |
    /// | `flatten` | bool ([`Shape::flatten`]; an addition to the pinned keys) |
    /// | `essential` | array of paths ([`Shape::essential`]) |
    /// | `minor` | array of paths ([`Shape::minor`]) |
    ///
    /// A converter is one of the strings `"epoch_seconds"`, `"epoch_millis"`, `"timestamp"`,
    /// `"cents"`, or an object with one key: `{"fixed": 2}` (0 to 255 decimals),
    /// `{"map": {"3": "shipped"}}` (keys are matched by text, so `"3"` matches `3` and `"3"`;
    /// values are any JSON), `{"prefix": "ORD-"}`.
    ///
    /// An unknown key, a value of the wrong type, an unknown converter, a malformed path and
    /// everything [`Shape::check`] reports is an error naming where it is; a JSON syntax error
    /// names its line and column. (A key given twice in one JSON object is not detected: the
    /// last one counts, as in `serde_json`.)
    ///
    /// # Errors
    ///
    /// A [`ShapeError`] of kind `Syntax` for text that is not JSON (its line and column), else
    /// the first mistake [`Shape::from_value`] finds.
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let shape = Shape::from_json_str(r#"{
    ///     "keep": ["id", "order_status", "creation_date", "amount"],
    ///     "rename": {"id": "order_id", "order_status": "status", "creation_date": "created_at"},
    ///     "convert": {
    ///         "id": {"prefix": "ORD-"},
    ///         "order_status": {"map": {"in_transit": "shipped", "fulfilled": "delivered"}},
    ///         "creation_date": "timestamp",
    ///         "amount": {"fixed": 2}
    ///     }
    /// }"#).unwrap();
    /// let v3 = json!({"id": "12345", "order_status": "in_transit", "creation_date": "2023-12-22 00:00:00+00:00", "amount": "49.99"});
    /// assert_eq!(
    ///     shape.apply(&v3),
    ///     json!({"order_id": "ORD-12345", "status": "shipped", "created_at": "2023-12-22T00:00:00Z", "amount": "49.99"})
    /// );
    ///
    /// let err = Shape::from_json_str(r#"{"keep": ["a"], "dorp": ["b"]}"#).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "shape \"dorp\": unknown key; a shape file has the keys `keep`, `drop`, `rename`, `convert`, `drop_empty`, `flatten`, `essential`, `minor`"
    /// );
    /// ```
    pub fn from_json_str(text: &str) -> Result<Shape, ShapeError> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            ShapeError::new(
                ShapeErrorKind::Syntax,
                format!("line {} column {}", e.line(), e.column()),
                format!("not valid JSON: {e}"),
            )
        })?;
        Shape::from_value(&value)
    }

    /// Reads a shape file already parsed (or converted from YAML by the host) into a
    /// `serde_json::Value`. Same form and errors as [`Shape::from_json_str`].
    ///
    /// # Errors
    ///
    /// A [`ShapeError`] for the first mistake: a value that is not an object, an unknown key,
    /// or a value of the wrong kind, with where it is ([`ShapeError::at`]).
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let shape = Shape::from_value(&json!({"drop": ["*_url", "node_id"], "drop_empty": true})).unwrap();
    /// assert_eq!(shape.apply(&json!({"id": 1, "html_url": "h", "body": ""})), json!({"id": 1}));
    ///
    /// let err = Shape::from_value(&json!({"convert": {"amount": {"fixed": "2"}}})).unwrap_err();
    /// assert_eq!(err.at(), "convert[\"amount\"].fixed");
    /// ```
    pub fn from_value(value: &Value) -> Result<Shape, ShapeError> {
        let Value::Object(file) = value else {
            return Err(bad("", "a shape file is a JSON object", value));
        };
        let mut shape = Shape::new();
        for (key, value) in file {
            shape = match key.as_str() {
                "keep" => shape.keep(strings(value, "keep")?),
                "drop" => shape.drop(strings(value, "drop")?),
                "essential" => shape.essential(strings(value, "essential")?),
                "minor" => shape.minor(strings(value, "minor")?),
                "rename" => {
                    for (path, name) in object(value, "rename")? {
                        let Value::String(name) = name else {
                            return Err(bad(
                                &format!("rename[{path:?}]"),
                                "the new name is a string",
                                name,
                            ));
                        };
                        shape = shape.rename(path, name.as_str());
                    }
                    shape
                }
                "convert" => {
                    for (path, spec) in object(value, "convert")? {
                        shape =
                            shape.convert(path, converter(spec, &format!("convert[{path:?}]"))?);
                    }
                    shape
                }
                "drop_empty" => match value {
                    Value::Bool(true) => shape.drop_empty(),
                    Value::Bool(false) => shape,
                    other => return Err(bad("drop_empty", "`drop_empty` is true or false", other)),
                },
                "flatten" => match value {
                    Value::Bool(true) => shape.flatten(),
                    Value::Bool(false) => shape,
                    other => return Err(bad("flatten", "`flatten` is true or false", other)),
                },
                _ => {
                    return Err(ShapeError::new(
                        ShapeErrorKind::UnknownKey,
                        format!("{key:?}"),
                        format!("unknown key; a shape file has the keys {KEYS}"),
                    ));
                }
            };
        }
        shape.check()?;
        Ok(shape)
    }
}

#[cfg(feature = "toml")]
impl Shape {
    /// Reads a shape file written in TOML (feature `toml`): the same keys, values and errors
    /// as [`Shape::from_json_str`], a TOML syntax error naming its line and column.
    ///
    /// A path with a dot is a quoted key in TOML (`"user.login" = "author"`): unquoted,
    /// `user.login` is a dotted key, a table `user` with the key `login`, and the shape reads
    /// it as the one path `user` (an error for `rename`, whose new name must be a string).
    ///
    /// # Errors
    ///
    /// A [`ShapeError`] of kind `Syntax` for text that is not TOML (its line and column), else
    /// the mistakes [`Shape::from_json_str`] reports.
    ///
    /// ```
    /// use tool_output_format::Shape;
    /// use serde_json::json;
    ///
    /// let shape = Shape::from_toml_str(r#"
    /// keep = ["id", "user.login", "amount"]
    /// essential = ["id"]
    /// minor = ["amount"]
    /// drop_empty = true
    ///
    /// [rename]
    /// id = "order_id"
    /// "user.login" = "author"
    ///
    /// [convert]
    /// id = { prefix = "ORD-" }
    /// amount = { fixed = 2 }
    /// "#).unwrap();
    /// let v = json!({"id": 7, "user": {"login": "ada"}, "amount": 5, "note": ""});
    /// assert_eq!(shape.apply(&v), json!({"order_id": "ORD-7", "author": "ada", "amount": "5.00"}));
    /// assert_eq!(shape, Shape::from_json_str(r#"{
    ///     "keep": ["id", "user.login", "amount"], "essential": ["id"], "minor": ["amount"],
    ///     "drop_empty": true, "rename": {"id": "order_id", "user.login": "author"},
    ///     "convert": {"id": {"prefix": "ORD-"}, "amount": {"fixed": 2}}
    /// }"#).unwrap());
    ///
    /// let err = Shape::from_toml_str("keep = [\"id\"\ndorp = 1").unwrap_err();
    /// assert_eq!(err.at(), "line 2 column 1");
    /// ```
    pub fn from_toml_str(text: &str) -> Result<Shape, ShapeError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let at = e.span().map_or_else(String::new, |span| {
                let (line, column) = line_column(text, span.start);
                format!("line {line} column {column}")
            });
            ShapeError::new(
                ShapeErrorKind::Syntax,
                at,
                format!("not valid TOML: {}", e.message().trim_end()),
            )
        })?;
        Shape::from_value(&toml_to_json(toml::Value::Table(table)))
    }
}

/// A TOML value as JSON: tables as objects (in file order), datetimes as their RFC 3339
/// text, NaN and infinities as `null` (JSON has no such numbers).
#[cfg(feature = "toml")]
fn toml_to_json(value: toml::Value) -> Value {
    match value {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.into_iter().map(toml_to_json).collect()),
        toml::Value::Table(table) => Value::Object(
            table
                .into_iter()
                .map(|(k, v)| (k, toml_to_json(v)))
                .collect(),
        ),
    }
}

/// The 1-based line and column (in characters) of byte `offset` in `text`.
#[cfg(feature = "toml")]
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    // A span starts on a character boundary; `get` keeps a wrong one from panicking.
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

fn strings<'v>(value: &'v Value, key: &str) -> Result<Vec<&'v str>, ShapeError> {
    let Value::Array(items) = value else {
        return Err(bad(
            key,
            &format!("`{key}` is an array of paths, like [\"id\", \"user.login\"]"),
            value,
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.as_str()),
            other => Err(bad(
                &format!("{key}[{i}]"),
                "a path is a string, like \"user.login\"",
                other,
            )),
        })
        .collect()
}

fn object<'v>(value: &'v Value, key: &str) -> Result<&'v Map<String, Value>, ShapeError> {
    match value {
        Value::Object(map) => Ok(map),
        other => Err(bad(
            key,
            &format!("`{key}` is an object from input paths, like {{\"user.login\": ...}}"),
            other,
        )),
    }
}

fn converter(spec: &Value, at: &str) -> Result<Convert, ShapeError> {
    let unknown = |what: &str| {
        ShapeError::new(
            ShapeErrorKind::UnknownConverter,
            at,
            format!("unknown converter {what}; expected one of {CONVERTERS}"),
        )
    };
    match spec {
        Value::String(name) => match name.as_str() {
            "epoch_seconds" => Ok(Convert::EpochSeconds),
            "epoch_millis" => Ok(Convert::EpochMillis),
            "timestamp" => Ok(Convert::Timestamp),
            "cents" => Ok(Convert::Cents),
            "fixed" | "map" | "prefix" => Err(ShapeError::new(
                ShapeErrorKind::BadValue,
                at,
                format!(
                    "`{name}` takes an argument: write {{\"{name}\": ...}}, e.g. {}",
                    example(name)
                ),
            )),
            other => Err(unknown(&format!("{other:?}"))),
        },
        Value::Object(map) if map.len() == 1 => {
            let Some((name, arg)) = map.iter().next() else {
                return Err(unknown("{}"));
            };
            let at = format!("{at}.{name}");
            match name.as_str() {
                "fixed" => match arg.as_u64().and_then(|n| u8::try_from(n).ok()) {
                    Some(n) => Ok(Convert::Fixed(n)),
                    _ => Err(bad(
                        &at,
                        "`fixed` takes the number of decimals, 0 to 255",
                        arg,
                    )),
                },
                "map" => match arg {
                    Value::Object(pairs) => Ok(Convert::map(
                        pairs.iter().map(|(k, v)| (k.as_str(), v.clone())),
                    )),
                    other => Err(bad(
                        &at,
                        "`map` takes an object from input values to output values, like {\"3\": \"shipped\"}",
                        other,
                    )),
                },
                "prefix" => match arg {
                    Value::String(p) if !p.is_empty() => Ok(Convert::prefix(p.as_str())),
                    other => Err(bad(
                        &at,
                        "`prefix` takes a non-empty string, like \"ORD-\"",
                        other,
                    )),
                },
                other => Err(unknown(&format!("{{{other:?}: ...}}"))),
            }
        }
        other => Err(bad(
            at,
            &format!("a converter is one of {CONVERTERS}"),
            other,
        )),
    }
}

fn example(name: &str) -> &'static str {
    match name {
        "fixed" => "{\"fixed\": 2}",
        "map" => "{\"map\": {\"3\": \"shipped\"}}",
        _ => "{\"prefix\": \"ORD-\"}",
    }
}

/// A value of the wrong type: what was expected and what was found.
fn bad(at: &str, expected: &str, found: &Value) -> ShapeError {
    let found = match found {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    };
    ShapeError::new(
        ShapeErrorKind::BadValue,
        at,
        format!("{expected}, found {found}"),
    )
}

#[cfg(all(test, feature = "toml"))]
mod toml_tests {
    use super::*;
    use serde_json::json;

    /// The doc example of `from_json_str`, as TOML: the same shape.
    const ORDERS_JSON: &str = r#"{
        "keep": ["id", "order_status", "creation_date", "amount"],
        "rename": {"id": "order_id", "order_status": "status", "creation_date": "created_at"},
        "convert": {
            "id": {"prefix": "ORD-"},
            "order_status": {"map": {"in_transit": "shipped", "3": "delivered"}},
            "creation_date": "timestamp",
            "amount": {"fixed": 2}
        },
        "drop_empty": true
    }"#;
    const ORDERS_TOML: &str = r#"
keep = ["id", "order_status", "creation_date", "amount"]
drop_empty = true

[rename]
id = "order_id"
order_status = "status"
creation_date = "created_at"

[convert]
id = { prefix = "ORD-" }
order_status = { map = { in_transit = "shipped", "3" = "delivered" } }
creation_date = "timestamp"
amount = { fixed = 2 }
"#;

    #[test]
    fn toml_and_json_files_give_the_same_shape() {
        let from_toml = Shape::from_toml_str(ORDERS_TOML).unwrap();
        let from_json = Shape::from_json_str(ORDERS_JSON).unwrap();
        let rows = json!([
            {"id": "12345", "order_status": "in_transit", "creation_date": "2023-12-22 00:00:00+00:00", "amount": "49.99"},
            {"id": 7, "order_status": 3, "creation_date": "2023-12-22T01:00:00+01:00", "amount": 5, "note": ""},
        ]);
        let want = json!([
            {"order_id": "ORD-12345", "status": "shipped", "created_at": "2023-12-22T00:00:00Z", "amount": "49.99"},
            {"order_id": "ORD-7", "status": "delivered", "created_at": "2023-12-22T00:00:00Z", "amount": "5.00"},
        ]);
        assert_eq!(from_toml.apply(&rows), want);
        assert_eq!(from_json.apply(&rows), want);
        assert_eq!(from_toml, from_json);
    }

    #[test]
    fn toml_values_become_json() {
        let doc: toml::Table = "a = 1\nb = 1.5\nc = nan\nd = 1979-05-27T07:32:00Z\ne = [true, \"x\"]\n[f]\nz = 1\ny = 2"
            .parse()
            .unwrap();
        assert_eq!(
            toml_to_json(toml::Value::Table(doc)),
            json!({"a": 1, "b": 1.5, "c": null, "d": "1979-05-27T07:32:00Z", "e": [true, "x"], "f": {"z": 1, "y": 2}})
        );
    }

    #[test]
    fn toml_mistakes_name_the_place() {
        let cases = [
            (
                "kep = []",
                "shape \"kep\": unknown key; a shape file has the keys `keep`, `drop`, `rename`, `convert`, `drop_empty`, `flatten`, `essential`, `minor`",
            ),
            (
                "keep = \"id\"",
                "shape keep: `keep` is an array of paths, like [\"id\", \"user.login\"], found the string \"id\"",
            ),
            (
                "drop_empty = 1",
                "shape drop_empty: `drop_empty` is true or false, found 1",
            ),
            (
                "[convert]\namount = { fixed = \"2\" }",
                "shape convert[\"amount\"].fixed: `fixed` takes the number of decimals, 0 to 255, found the string \"2\"",
            ),
            (
                "[convert]\nat = \"epoch\"",
                "shape convert[\"at\"]: unknown converter \"epoch\"; expected one of \"epoch_seconds\", \"epoch_millis\", \"timestamp\", \"cents\", {\"fixed\": N}, {\"map\": {...}}, {\"prefix\": \"...\"}",
            ),
            // An unquoted dotted key is a nested table, not a path.
            (
                "[rename]\nuser.login = \"author\"",
                "shape rename[\"user\"]: the new name is a string, found an object",
            ),
            (
                "essential = \"id\"",
                "shape essential: `essential` is an array of paths, like [\"id\", \"user.login\"], found the string \"id\"",
            ),
            (
                "minor = [\"etag\", \"*_url\"]",
                "shape minor[1]: malformed path `*_url`: `*` is only allowed in drop patterns; name the field exactly, like `user.login`",
            ),
            (
                "keep = [\"user..login\"]",
                "shape keep[0]: malformed path `user..login`: it has an empty key between two dots; write keys separated by single dots, like `user.login`",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(
                Shape::from_toml_str(text).unwrap_err().to_string(),
                want,
                "{text}"
            );
        }
    }

    #[test]
    fn toml_syntax_errors_give_line_and_column() {
        let err =
            Shape::from_toml_str("keep = [\"id\"]\ndrop = [\"a\",\n\"é\" \"b\"]").unwrap_err();
        assert_eq!(err.kind(), ShapeErrorKind::Syntax);
        assert_eq!(err.at(), "line 3 column 5");
        assert!(err.message().starts_with("not valid TOML: "), "{err}");
        assert_eq!(line_column("ab\ncdé", 7), (2, 4));
        assert_eq!(line_column("ab", 99), (1, 3));
    }
}

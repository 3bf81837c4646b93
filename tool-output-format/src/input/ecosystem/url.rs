//! `url::Url` (feature `url`): its string (`Url::as_str`, the serialized URL as parsed and
//! normalised), which is also its serde form. Borrowed: rendering copies nothing.

use ::url::Url;
use serde_json::Value;

use crate::doc::{Kind, Node, Text};
use crate::input::ToolOutput;
use crate::input::context::Context;

/// Renders as its string (`https://example.com/a?b=c`), as its serde form; the JSON form is
/// that string. Feature `url`.
impl ToolOutput for Url {
    fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
        Node::Str(Text::Borrowed(self.as_str()))
    }
    fn to_json(&self) -> Value {
        Value::String(self.as_str().to_owned())
    }
    fn write_cell(&self, _: &Context<'_>, out: &mut String) -> Kind {
        out.push_str(self.as_str());
        Kind::Text
    }
}

#[cfg(test)]
mod tests {
    use ::url::Url;
    use serde_json::Value;

    use crate::{Formatter, ToolOutput};

    #[test]
    fn urls_as_their_strings() {
        let fmt = Formatter::new();
        for (input, want) in [
            ("https://example.com/a?b=c", "https://example.com/a?b=c"),
            // Parsing normalises: a root path, a lowercase host, `%20` for a space.
            ("HTTPS://Example.COM", "https://example.com/"),
            ("https://example.com/a b|c", "https://example.com/a%20b|c"),
        ] {
            let value = Url::parse(input).unwrap();
            assert_eq!(value.to_json(), Value::String(want.to_owned()));
            assert_eq!(serde_json::to_value(&value).unwrap(), value.to_json());
            assert_eq!(fmt.format("t", &value), fmt.format("t", want));
            let rows = vec![value];
            assert_eq!(fmt.format("t", &rows), fmt.format("t", &vec![want]));
        }
    }
}

//! What a cut text left out, as the fetch tool's cursor writes it: written by the trailer
//! where the text stopped, read by the fetch tool that serves the rest. The one grammar both
//! use.
//!
//! - [`Short`], after a row cursor: `"25;25>34"` (the rows from 25, then the values of the
//!   first 25 rows that shortening to 34 characters cut), `"25;25-title,id"` (their fields
//!   but the columns shown), `"25;25+node_id"` (the fields left out), `"25;25>34-title"`.
//! - [`RecordRest`], after a `~`: what a record's text left out beside the table it resumes
//!   in, `">34*5+owner.login"` (values shortened to 34 characters, parts cut to their first
//!   5 rows, items or lines, the fields left out; `-`: every field).
//!
//! Names are joined with `,`, the characters the grammar uses percent-encoded (see
//! [`super::name_list`]).

use super::name_list;

/// The most characters of names a cursor lists; past it, it names none (`-`: every field).
pub(crate) const MAX_NAMES_CHARS: usize = 80;

/// The parts of the rows a first text showed that it did not show whole: the rows before
/// `before`.
///
/// - `over`: the text shortened values to `C` characters: every value of those rows that
///   shortening to `C` cuts;
/// - `fields`: the text showed those rows without some fields (a budget left columns out, or
///   the preset folded fields): those fields, named by the columns shown or by the fields
///   left out (see [`Fields`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Short {
    pub before: usize,
    pub over: Option<usize>,
    pub fields: Option<Fields>,
}

/// Which fields of the rows shown a first text left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fields {
    /// Every field but these columns shown (`-a,b`; none named: the rows whole).
    Except(Vec<String>),
    /// These fields (`+a,b`: a name is a field, or a path into one, `a.b` of `a`); when a name
    /// is no field or path of any row, the rows whole.
    Only(Vec<String>),
}

impl Fields {
    /// The shorter way to name what was left out of rows shown with the columns `shown`
    /// without the fields `left`: those columns (`-`) or those fields (`+`); every field when
    /// both pass [`MAX_NAMES_CHARS`].
    pub fn shorter(shown: &[impl AsRef<str>], left: &[impl AsRef<str>]) -> Fields {
        let (shown_text, left_text) = (name_list::encode(shown), name_list::encode(left));
        let (shown_len, left_len) = (shown_text.chars().count(), left_text.chars().count());
        if left_len < shown_len && left_len <= MAX_NAMES_CHARS {
            Fields::Only(left.iter().map(|n| n.as_ref().to_owned()).collect())
        } else if shown_len <= MAX_NAMES_CHARS {
            Fields::Except(shown.iter().map(|n| n.as_ref().to_owned()).collect())
        } else {
            Fields::Except(Vec::new())
        }
    }

    /// The fields `names`, or every field when they are none or pass [`MAX_NAMES_CHARS`].
    pub fn only(names: Vec<String>) -> Fields {
        let len = name_list::encode(&names).chars().count();
        if names.is_empty() || len > MAX_NAMES_CHARS {
            Fields::Except(Vec::new())
        } else {
            Fields::Only(names)
        }
    }

    /// Reads `-a,b` or `+a,b`: `None` when `s` starts otherwise or a name is badly encoded.
    fn parse(s: &str) -> Option<Fields> {
        let names = name_list::decode(s.get(1..)?)?;
        match s.as_bytes().first() {
            Some(b'-') => Some(Fields::Except(names)),
            Some(b'+') => Some(Fields::Only(names)),
            _ => None,
        }
    }

    fn write(&self, out: &mut String) {
        let (sign, names) = match self {
            Fields::Except(names) => ('-', names),
            Fields::Only(names) => ('+', names),
        };
        out.push(sign);
        out.push_str(&name_list::encode(names));
    }
}

impl Short {
    /// Reads `"K>C"`, `"K-a,b"`, `"K+a,b"` or `"K>C-a,b"`.
    pub fn parse(s: &str) -> Option<Self> {
        // `K` and `C` are digits, so the first `-` or `+` starts the names.
        let (head, fields) = match s.find(['-', '+']) {
            Some(i) => (&s[..i], Some(Fields::parse(&s[i..])?)),
            None => (s, None),
        };
        let (before, over) = match head.split_once('>') {
            Some((before, over)) => (before, Some(over.parse().ok()?)),
            None => (head, None),
        };
        (over.is_some() || fields.is_some()).then_some(())?;
        Some(Short {
            before: before.parse().ok()?,
            over,
            fields,
        })
    }

    /// This rest's part of a cursor: `K>C`, `K-a,b`, `K+a,b` or `K>C-a,b`.
    fn rest(&self) -> String {
        let mut out = self.before.to_string();
        if let Some(c) = self.over {
            out.push('>');
            out.push_str(&c.to_string());
        }
        if let Some(fields) = &self.fields {
            fields.write(&mut out);
        }
        out
    }

    /// The cursor of row `row`, then this rest (`"25;25>34"`); only the row when the rest
    /// names nothing (`"25"`).
    pub fn row_cursor(&self, row: usize) -> String {
        if self.over.is_none() && self.fields.is_none() {
            return row.to_string();
        }
        format!("{row};{}", self.rest())
    }

    /// The cursor of the `i`-th part of this rest.
    pub fn value_cursor(&self, i: usize) -> String {
        format!("v{i};{}", self.rest())
    }
}

/// What the first text of a record did not show outside the one table it resumes in: the
/// values that shortening to `C` characters cut (`>C`), the parts a budget cut to their first
/// `N` rows, items or lines (`*N`), and the fields it left out (`+a,b.c`; `-`: every field).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RecordRest {
    /// The length the first text shortened values to.
    pub over: Option<usize>,
    /// The rows, items or lines a budget kept of each part it cut.
    pub nested: Option<usize>,
    /// The fields the first text left out (dotted paths); `Except(vec![])`: every field.
    pub fields: Option<Fields>,
}

impl RecordRest {
    /// Reads `">C*N+a,b"` (each part optional, at least one; `-` alone for every field).
    pub fn parse(s: &str) -> Option<Self> {
        let (head, fields) = match s.find(['+', '-']) {
            Some(i) => match Fields::parse(&s[i..])? {
                Fields::Except(names) if !names.is_empty() => return None,
                fields => (&s[..i], Some(fields)),
            },
            None => (s, None),
        };
        let (over, nested) = match head.split_once('*') {
            Some((over, nested)) => (over, Some(nested.parse().ok()?)),
            None => (head, None),
        };
        let over = match over {
            "" => None,
            c => Some(c.strip_prefix('>')?.parse().ok()?),
        };
        let rest = RecordRest {
            over,
            nested,
            fields,
        };
        (!rest.is_empty()).then_some(rest)
    }

    /// Whether it names nothing to serve.
    pub fn is_empty(&self) -> bool {
        self.over.is_none() && self.nested.is_none() && self.fields.is_none()
    }

    /// This rest as a cursor writes it (see [`RecordRest::parse`]).
    pub fn write(&self) -> String {
        let mut out = String::new();
        if let Some(c) = self.over {
            out.push('>');
            out.push_str(&c.to_string());
        }
        if let Some(n) = self.nested {
            out.push('*');
            out.push_str(&n.to_string());
        }
        match &self.fields {
            Some(Fields::Except(_)) => out.push('-'),
            Some(fields) => fields.write(&mut out),
            None => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_rest_is_written_as_it_is_read() {
        for s in [
            "2>5",
            "2-id,a%2Cb",
            "1-",
            "2>5+state,user.login",
            "0>7-a%2Fb%40c%7E",
        ] {
            let short = Short::parse(s).unwrap();
            assert_eq!(short.row_cursor(9), format!("9;{s}"));
        }
        assert_eq!(
            Short::parse("2>5"),
            Some(Short {
                before: 2,
                over: Some(5),
                fields: None
            })
        );
        for bad in ["2>", "2", "1-a%2", "x>5", "2>5*1"] {
            assert_eq!(Short::parse(bad), None, "{bad}");
        }
        let plain = Short {
            before: 3,
            over: None,
            fields: None,
        };
        assert_eq!(plain.row_cursor(3), "3");
    }

    #[test]
    fn a_record_rest_is_written_as_it_is_read() {
        for s in [">34", "*5", "+owner.login,a%2Cb", "-", ">34*5+x", ">7-"] {
            assert_eq!(RecordRest::parse(s).unwrap().write(), s);
        }
        for bad in ["", "34", ">", "*", ">x", "-a", "+a%2"] {
            assert_eq!(RecordRest::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_shorter_names_are_chosen_within_the_bound() {
        let shown = ["id", "title"];
        assert_eq!(
            Fields::shorter(&shown, &["body_with_a_long_name"]),
            Fields::Except(vec!["id".into(), "title".into()])
        );
        assert_eq!(
            Fields::shorter(&["id", "title", "state"], &["url"]),
            Fields::Only(vec!["url".into()])
        );
        let long: Vec<String> = (0..20).map(|i| format!("column_{i}")).collect();
        assert_eq!(Fields::shorter(&long, &long), Fields::Except(Vec::new()));
        assert_eq!(Fields::only(long), Fields::Except(Vec::new()));
        assert_eq!(Fields::only(Vec::new()), Fields::Except(Vec::new()));
    }
}

//! Cross-field checks, after every attribute is parsed: names that could break a table
//! header, names used twice (a gap serde leaves open), attribute combinations that make no
//! sense, and container keys that do not apply to enums.

use std::collections::HashMap;

use proc_macro2::Span;

use crate::ast::{Container, Data, Field, TupleField};
use crate::attr;
use crate::ctxt::Ctxt;

pub fn check(cx: &Ctxt, cont: &Container) {
    match &cont.data {
        Data::Struct(fields) => {
            for f in fields {
                check_skip(cx, &f.attrs);
            }
            let mut seen: HashMap<&str, &Field> = HashMap::new();
            for f in fields.iter().filter(|f| !f.skipped()) {
                check_combinations(cx, f);
                if f.flattened() {
                    continue;
                }
                check_name(cx, &f.name, f.name_span);
                match seen.get(f.name.as_str()) {
                    Some(first) => cx.error_at(
                        f.name_span,
                        format!(
                            "fields `{}` and `{}` both render under the name `{}`; \
                             rename one of them",
                            first.member, f.member, f.name
                        ),
                    ),
                    None => {
                        seen.insert(&f.name, f);
                    }
                }
            }
        }
        Data::Tuple(fields) => check_tuple(cx, cont, fields),
        Data::Enum(variants) => {
            let a = &cont.attrs;
            for (span, key) in [
                (a.title.span(), "title"),
                (a.max_rows.span(), "max_rows"),
                (a.canonical.span(), "canonical"),
            ] {
                if let Some(span) = span {
                    cx.error_at(
                        span,
                        format!(
                            "tool_output attribute `{key}` applies to structs only, not to \
                             enums"
                        ),
                    );
                }
            }
            let mut seen: HashMap<&str, &syn::Ident> = HashMap::new();
            for v in variants {
                if let Some(first) = seen.insert(&v.name, v.ident) {
                    cx.error_at(
                        v.name_span,
                        format!(
                            "variants `{first}` and `{}` both render as `{}`; rename one of them",
                            v.ident, v.name
                        ),
                    );
                }
            }
        }
    }
}

/// The per-field keys set on `a`, each with its key's span, `skip` excepted (and the mark:
/// a mark on a skipped field is ignored, not an error).
fn keys_besides_skip(a: &attr::Field) -> [(Option<Span>, &'static str); 6] {
    [
        (a.rename.span(), "rename"),
        (a.max_chars.span(), "max_chars"),
        (a.with.span(), "with"),
        (a.flatten.span(), "flatten"),
        (a.redact.span(), "redact"),
        (a.detail.span(), "detail"),
    ]
}

/// A skipped field is not rendered: any other key on it says the opposite.
fn check_skip(cx: &Ctxt, a: &attr::Field) {
    let reason = if a.skip.is_set() {
        "`skip`: a skipped field is not rendered; remove one of the two"
    } else if a.serde_skip {
        "`#[serde(skip)]`: the field is not rendered; remove it"
    } else {
        return;
    };
    for (span, key) in keys_besides_skip(a) {
        if let Some(span) = span {
            cx.error_at(
                span,
                format!("tool_output attribute `{key}` cannot be combined with {reason}"),
            );
        }
    }
}

/// A tuple struct has no field names: keys about names, columns and records do not apply.
/// Its fields take `with` and `redact`; `skip` leaves a field out of a tuple of several.
fn check_tuple(cx: &Ctxt, cont: &Container, fields: &[TupleField]) {
    let a = &cont.attrs;
    for (span, key) in [
        (a.title.span(), "title"),
        (a.max_rows.span(), "max_rows"),
        (a.rename_all.span(), "rename_all"),
        (a.canonical.span(), "canonical"),
    ] {
        if let Some(span) = span {
            cx.error_at(
                span,
                format!(
                    "tool_output attribute `{key}` applies to structs with named fields, not \
                     to tuple structs"
                ),
            );
        }
    }
    for f in fields {
        let a = &f.attrs;
        check_skip(cx, a);
        for (span, key) in [
            (a.rename.span(), "rename"),
            (a.max_chars.span(), "max_chars"),
            (a.flatten.span(), "flatten"),
            (a.detail.span(), "detail"),
            (a.mark.span(), a.mark.get().map_or("key", |m| m.name())),
        ] {
            if let Some(span) = span {
                cx.error_at(
                    span,
                    format!(
                        "tool_output attribute `{key}` applies to named fields, not to the \
                         fields of a tuple struct"
                    ),
                );
            }
        }
    }
    if let [only] = fields
        && (only.attrs.skip.is_set() || only.attrs.serde_skip)
    {
        cx.error_spanned_by(
            only.field,
            "the only field of a tuple struct cannot be skipped: nothing would be left to \
             render",
        );
    }
}

/// A flattened field contributes its own struct's fields: per-field keys cannot apply.
fn check_combinations(cx: &Ctxt, f: &Field) {
    if !f.flattened() {
        return;
    }
    let a = &f.attrs;
    for (span, key) in [
        (a.rename.span(), "rename"),
        (a.max_chars.span(), "max_chars"),
        (a.with.span(), "with"),
        (a.redact.span(), "redact"),
    ] {
        if let Some(span) = span {
            cx.error_at(
                span,
                format!("tool_output attribute `{key}` cannot be combined with `flatten`"),
            );
        }
    }
    if let (Some(span), Some(mark)) = (a.mark.span(), a.mark.get()) {
        cx.error_at(
            span,
            format!(
                "tool_output attribute `{}` cannot be combined with `flatten`: mark the nested \
                 struct's own fields instead",
                mark.name()
            ),
        );
    }
    if let Some(lit) = &a.serde_rename
        && a.rename.span().is_none()
    {
        cx.error_spanned_by(lit, "`rename` cannot be combined with `flatten`");
    }
}

/// A column name is written into the table header as is: it must not be able to break it.
pub fn check_name(cx: &Ctxt, name: &str, span: Span) {
    let problem = if name.is_empty() {
        Some("is empty".to_owned())
    } else if name.trim() != name {
        Some("starts or ends with white space".to_owned())
    } else {
        name.chars().find_map(|c| match c {
            '|' => Some("contains `|`".to_owned()),
            '\\' => Some("contains a backslash".to_owned()),
            '<' => Some("contains `<`".to_owned()),
            '\n' | '\r' => Some("contains a line break".to_owned()),
            c if is_hidden(c) => Some(format!("contains the control character U+{:04X}", c as u32)),
            _ => None,
        })
    };
    if let Some(problem) = problem {
        cx.error_at(
            span,
            format!(
                "tool_output field name {name:?} {problem}; it could not be a table header as is"
            ),
        );
    }
}

/// The characters the runtime never writes raw (`text::is_hidden_control`).
fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{61c}'
        | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

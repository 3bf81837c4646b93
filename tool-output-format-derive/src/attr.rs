//! Attribute parsing: ours (`#[tool_output(...)]`) and the serde keys we honour
//! (`#[serde(...)]`).
//!
//! Our keys are validated strictly: an unknown key, a key set twice or a bad value is an error
//! (collected in the [`Ctxt`], parsing goes on so every mistake is reported in one compile).
//! Serde keys are read leniently: `serde_derive` validates them, so anything we do not use, or
//! cannot read, is skipped without a word.

use proc_macro2::{Span, TokenTree};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{Attribute, LitInt, LitStr, Path, Token, token};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

const NS: &str = "tool_output";

/// One attribute value that knows where it was set and reports a second setting.
pub struct Attr<T> {
    name: &'static str,
    value: Option<(Span, T)>,
}

impl<T> Attr<T> {
    fn none(name: &'static str) -> Self {
        Attr { name, value: None }
    }

    /// Set the value; a second setting is an error at its key.
    fn set(&mut self, cx: &Ctxt, key: &Path, value: T) {
        if self.value.is_some() {
            cx.error_spanned_by(key, format!("duplicate {NS} attribute `{}`", self.name));
        } else {
            self.value = Some((key.span(), value));
        }
    }

    pub fn get(&self) -> Option<&T> {
        self.value.as_ref().map(|(_, v)| v)
    }

    /// The span of the key that set the value.
    pub fn span(&self) -> Option<Span> {
        self.value.as_ref().map(|(s, _)| *s)
    }

    pub fn is_set(&self) -> bool {
        self.value.is_some()
    }
}

/// `#[tool_output(...)]` and `#[serde(...)]` on the struct or enum.
pub struct Container {
    pub rename_all: Attr<RenameRule>,
    pub title: Attr<LitStr>,
    pub max_rows: Attr<usize>,
    pub krate: Attr<Path>,
    pub canonical: Attr<Path>,
    pub serde_rename_all: Option<RenameRule>,
}

/// `#[tool_output(...)]` and `#[serde(...)]` on a named field.
pub struct Field {
    pub rename: Attr<LitStr>,
    pub skip: Attr<()>,
    pub max_chars: Attr<usize>,
    pub with: Attr<With>,
    pub flatten: Attr<()>,
    pub redact: Attr<()>,
    /// `detail = "full"` (true): the field appears only in full detail.
    pub detail: Attr<bool>,
    /// `key`, `essential` or `minor`: the field's one mark.
    pub mark: Attr<Mark>,
    pub serde_rename: Option<LitStr>,
    pub serde_skip: bool,
    pub serde_flatten: bool,
}

/// A field's mark: how much it matters when a budget must leave fields out (the runtime's
/// `Mark`, without its default `None`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Key,
    Essential,
    Minor,
}

impl Mark {
    /// The mark a key names (`key`, `essential`, `minor`), if it names one.
    fn from_key(key: &Path) -> Option<Mark> {
        [Mark::Key, Mark::Essential, Mark::Minor]
            .into_iter()
            .find(|m| key.is_ident(m.name()))
    }

    /// The attribute key.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Key => "key",
            Mark::Essential => "essential",
            Mark::Minor => "minor",
        }
    }

    /// The runtime's `Mark` variant.
    pub fn variant(self) -> &'static str {
        match self {
            Mark::Key => "Key",
            Mark::Essential => "Essential",
            Mark::Minor => "Minor",
        }
    }
}

impl Attr<Mark> {
    /// Set the mark; a second one is an error at its key (the same one twice is a duplicate,
    /// two different ones contradict each other).
    fn set_mark(&mut self, cx: &Ctxt, key: &Path, mark: Mark) {
        match self.get() {
            Some(&first) if first == mark => {
                cx.error_spanned_by(key, format!("duplicate {NS} attribute `{}`", mark.name()))
            }
            Some(&first) => cx.error_spanned_by(
                key,
                format!(
                    "{NS} attribute `{}` cannot be combined with `{}`: a field has one mark \
                     (`key`, `essential` or `minor`); keep one of them",
                    mark.name(),
                    first.name()
                ),
            ),
            None => self.set(cx, key, mark),
        }
    }
}

/// `with = "..."`: a named converter of the runtime, or a path to the user's function.
pub enum With {
    /// `with = "epoch_seconds"`, `with = "fixed(2)"`: the runtime's `Convert` of that name,
    /// as the tokens after `Convert::` (`EpochSeconds`, `Fixed(2)`), spanned at the literal.
    Convert(proc_macro2::TokenStream),
    /// `with = "path::to::fn"`: the field's value is shown as `fn(&value)`.
    Path(Path),
}

/// The converters `with` names, as `(name, Convert variant)`. A bare name from this list
/// means the converter; a function of the same name is reached as `self::name`.
pub const CONVERTERS: &[(&str, &str)] = &[
    ("epoch_seconds", "EpochSeconds"),
    ("epoch_millis", "EpochMillis"),
    ("timestamp", "Timestamp"),
    ("cents", "Cents"),
];

/// `#[tool_output(...)]` and `#[serde(...)]` on a unit variant.
pub struct Variant {
    pub rename: Attr<LitStr>,
    pub serde_rename: Option<LitStr>,
}

const CONTAINER_KEYS: &[&str] = &["rename_all", "title", "max_rows", "crate", "canonical"];
const FIELD_KEYS: &[&str] = &[
    "rename",
    "skip",
    "max_chars",
    "with",
    "flatten",
    "redact",
    "detail",
    "key",
    "essential",
    "minor",
];
const VARIANT_KEYS: &[&str] = &["rename"];

impl Container {
    pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut c = Container {
            rename_all: Attr::none("rename_all"),
            title: Attr::none("title"),
            max_rows: Attr::none("max_rows"),
            krate: Attr::none("crate"),
            canonical: Attr::none("canonical"),
            serde_rename_all: None,
        };
        for_each_ours(cx, attrs, |meta| {
            if meta.path.is_ident("rename_all") {
                if let Some(lit) = lit_str(cx, &meta, "rename_all")? {
                    match RenameRule::from_str(&lit.value()) {
                        Some(rule) => c.rename_all.set(cx, &meta.path, rule),
                        None => cx.error_spanned_by(
                            &lit,
                            format!(
                                "unknown rename rule `rename_all = {:?}`, expected one of {}",
                                lit.value(),
                                RenameRule::expected()
                            ),
                        ),
                    }
                }
            } else if meta.path.is_ident("title") {
                if let Some(lit) = lit_str(cx, &meta, "title")? {
                    check_title(cx, &lit);
                    c.title.set(cx, &meta.path, lit);
                }
            } else if meta.path.is_ident("max_rows") {
                if let Some(n) = positive_int(cx, &meta, "max_rows")? {
                    c.max_rows.set(cx, &meta.path, n);
                }
            } else if meta.path.is_ident("crate") {
                if let Some(p) = lit_path(cx, &meta, "crate")? {
                    c.krate.set(cx, &meta.path, p);
                }
            } else if meta.path.is_ident("canonical") {
                if let Some(p) = lit_path(cx, &meta, "canonical")? {
                    c.canonical.set(cx, &meta.path, p);
                }
            } else {
                unknown(cx, &meta, "container", CONTAINER_KEYS)?;
            }
            Ok(())
        });
        for_each_serde(attrs, |meta| {
            if meta.path.is_ident("rename_all") {
                if let Some(lit) = serde_ser_str(meta)? {
                    c.serde_rename_all = c
                        .serde_rename_all
                        .or_else(|| RenameRule::from_str(&lit.value()));
                }
            } else {
                skip_value(meta.input)?;
            }
            Ok(())
        });
        c
    }
}

impl Field {
    pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut f = Field {
            rename: Attr::none("rename"),
            skip: Attr::none("skip"),
            max_chars: Attr::none("max_chars"),
            with: Attr::none("with"),
            flatten: Attr::none("flatten"),
            redact: Attr::none("redact"),
            detail: Attr::none("detail"),
            mark: Attr::none("mark"),
            serde_rename: None,
            serde_skip: false,
            serde_flatten: false,
        };
        for_each_ours(cx, attrs, |meta| {
            if meta.path.is_ident("rename") {
                if let Some(lit) = lit_str(cx, &meta, "rename")? {
                    f.rename.set(cx, &meta.path, lit);
                }
            } else if meta.path.is_ident("skip") {
                if flag(cx, &meta, "skip")? {
                    f.skip.set(cx, &meta.path, ());
                }
            } else if meta.path.is_ident("max_chars") {
                if let Some(n) = positive_int(cx, &meta, "max_chars")? {
                    f.max_chars.set(cx, &meta.path, n);
                }
            } else if meta.path.is_ident("with") {
                if let Some(w) = with(cx, &meta)? {
                    f.with.set(cx, &meta.path, w);
                }
            } else if meta.path.is_ident("flatten") {
                if flag(cx, &meta, "flatten")? {
                    f.flatten.set(cx, &meta.path, ());
                }
            } else if meta.path.is_ident("redact") {
                if flag(cx, &meta, "redact")? {
                    f.redact.set(cx, &meta.path, ());
                }
            } else if meta.path.is_ident("detail") {
                if let Some(lit) = lit_str(cx, &meta, "detail")? {
                    match lit.value().as_str() {
                        "full" => f.detail.set(cx, &meta.path, true),
                        "summary" => f.detail.set(cx, &meta.path, false),
                        other => cx.error_spanned_by(
                            &lit,
                            format!(
                                "unknown detail level `detail = {other:?}`, expected one of \
                                 \"full\", \"summary\""
                            ),
                        ),
                    }
                }
            } else if let Some(mark) = Mark::from_key(&meta.path) {
                if flag(cx, &meta, mark.name())? {
                    f.mark.set_mark(cx, &meta.path, mark);
                }
            } else {
                unknown(cx, &meta, "field", FIELD_KEYS)?;
            }
            Ok(())
        });
        for_each_serde(attrs, |meta| {
            if meta.path.is_ident("rename") {
                if let Some(lit) = serde_ser_str(meta)? {
                    f.serde_rename.get_or_insert(lit);
                }
            } else if meta.path.is_ident("skip") || meta.path.is_ident("skip_serializing") {
                f.serde_skip = true;
                skip_value(meta.input)?;
            } else if meta.path.is_ident("flatten") {
                f.serde_flatten = true;
                skip_value(meta.input)?;
            } else {
                skip_value(meta.input)?;
            }
            Ok(())
        });
        if f.detail.get() == Some(&true) && (f.flatten.is_set() || f.serde_flatten) {
            cx.error_at(
                f.detail.span().unwrap_or_else(Span::call_site),
                "tool_output attribute `detail = \"full\"` is not supported on a flattened \
                 field: mark the nested struct's own fields instead",
            );
        }
        f
    }

    /// Whether the field appears only in full detail (`detail = "full"`).
    pub fn full_only(&self) -> bool {
        self.detail.get() == Some(&true)
    }
}

impl Variant {
    pub fn from_attrs(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut v = Variant {
            rename: Attr::none("rename"),
            serde_rename: None,
        };
        for_each_ours(cx, attrs, |meta| {
            if meta.path.is_ident("rename") {
                if let Some(lit) = lit_str(cx, &meta, "rename")? {
                    v.rename.set(cx, &meta.path, lit);
                }
            } else {
                unknown(cx, &meta, "variant", VARIANT_KEYS)?;
            }
            Ok(())
        });
        for_each_serde(attrs, |meta| {
            if meta.path.is_ident("rename") {
                if let Some(lit) = serde_ser_str(meta)? {
                    v.serde_rename.get_or_insert(lit);
                }
            } else {
                skip_value(meta.input)?;
            }
            Ok(())
        });
        v
    }
}

/// Run `f` on every key of every `#[tool_output(...)]`; syntax errors go to the context.
fn for_each_ours(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(NS)) {
        if let Err(err) = attr.parse_nested_meta(&mut f) {
            cx.syn_error(err);
        }
    }
}

/// Run `f` on every key of every `#[serde(...)]`, ignoring whatever does not parse.
fn for_each_serde(attrs: &[Attribute], mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<()>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| f(&meta));
    }
}

/// Report an unknown key at the key, skip its value and go on.
fn unknown(cx: &Ctxt, meta: &ParseNestedMeta, kind: &str, valid: &[&str]) -> syn::Result<()> {
    let key = meta.path.to_token_stream().to_string().replace(' ', "");
    let valid: Vec<String> = valid.iter().map(|k| format!("`{k}`")).collect();
    cx.error_spanned_by(
        &meta.path,
        format!(
            "unknown {NS} {kind} attribute `{key}`, expected one of {}",
            valid.join(", ")
        ),
    );
    skip_value(meta.input)
}

/// Skip `= tokens...` up to the next top-level comma, or one `( ... )` group.
fn skip_value(input: ParseStream) -> syn::Result<()> {
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        while !input.is_empty() && !input.peek(Token![,]) {
            input.parse::<TokenTree>()?;
        }
    } else if input.peek(token::Paren) {
        input.parse::<TokenTree>()?;
    }
    Ok(())
}

/// A key that takes no value (`skip`). A value is an error (and is skipped).
fn flag(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) || meta.input.peek(token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            format!("{NS} attribute `{key}` takes no value: write `{key}`"),
        );
        skip_value(meta.input)?;
        return Ok(false);
    }
    Ok(true)
}

/// `key = "..."`. Anything else is an error at the value (which is skipped).
fn lit_str(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<LitStr>> {
    let expected = format!("expected {NS} attribute `{key}` to be a string: `{key} = \"...\"`");
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(&meta.path, expected);
        skip_value(meta.input)?;
        return Ok(None);
    }
    let value = meta.value()?;
    if value.peek(LitStr) {
        let lit: LitStr = value.parse()?;
        if !lit.suffix().is_empty() {
            cx.error_spanned_by(&lit, format!("unexpected suffix `{}`", lit.suffix()));
        }
        return Ok(Some(lit));
    }
    let mut bad = proc_macro2::TokenStream::new();
    while !value.is_empty() && !value.peek(Token![,]) {
        bad.extend([value.parse::<TokenTree>()?]);
    }
    if bad.is_empty() {
        cx.error_spanned_by(&meta.path, expected);
    } else {
        cx.error_spanned_by(bad, expected);
    }
    Ok(None)
}

/// `key = "path::to::item"`, parsed as a path that keeps the literal's span.
fn lit_path(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<Path>> {
    let Some(lit) = lit_str(cx, meta, key)? else {
        return Ok(None);
    };
    if let Ok(p) = lit.parse::<Path>() {
        Ok(Some(p))
    } else {
        cx.error_spanned_by(
            &lit,
            format!(
                "expected a path in {NS} attribute `{key}`: `{key} = \"path::to::item\"`, found {:?}",
                lit.value()
            ),
        );
        Ok(None)
    }
}

/// `with = "epoch_seconds"` (a converter) or `with = "path::to::fn"`.
fn with(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<With>> {
    let Some(lit) = lit_str(cx, meta, "with")? else {
        return Ok(None);
    };
    let text = lit.value();
    let sp = lit.span();
    if let Some((_, variant)) = CONVERTERS.iter().find(|(name, _)| *name == text) {
        let variant = syn::Ident::new(variant, sp);
        return Ok(Some(With::Convert(quote::quote_spanned!(sp=> #variant))));
    }
    if let Some(arg) = text
        .strip_prefix("fixed(")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        return Ok(if let Ok(n) = arg.trim().parse::<u8>() {
            let n = proc_macro2::Literal::u8_suffixed(n);
            Some(With::Convert(quote::quote_spanned!(sp=> Fixed(#n))))
        } else {
            cx.error_spanned_by(
                &lit,
                format!(
                    "{NS} attribute `with = \"fixed(N)\"` takes the number of decimals, 0 \
                     to 255, found {text:?}"
                ),
            );
            None
        });
    }
    if let Ok(p) = lit.parse::<Path>() {
        Ok(Some(With::Path(p)))
    } else {
        let names: Vec<String> = CONVERTERS.iter().map(|(n, _)| format!("{n:?}")).collect();
        cx.error_spanned_by(
            &lit,
            format!(
                "expected a converter ({}, \"fixed(N)\") or a path to a function in {NS} \
                 attribute `with`: `with = \"path::to::fn\"`, found {text:?}",
                names.join(", ")
            ),
        );
        Ok(None)
    }
}

/// `key = N` with N >= 1.
fn positive_int(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<usize>> {
    let expected =
        format!("expected {NS} attribute `{key}` to be a positive integer: `{key} = 100`");
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(&meta.path, expected);
        skip_value(meta.input)?;
        return Ok(None);
    }
    let value = meta.value()?;
    if !value.peek(LitInt) {
        let mut bad = proc_macro2::TokenStream::new();
        while !value.is_empty() && !value.peek(Token![,]) {
            bad.extend([value.parse::<TokenTree>()?]);
        }
        cx.error_spanned_by(bad, expected);
        return Ok(None);
    }
    let lit: LitInt = value.parse()?;
    match lit.base10_parse::<usize>() {
        Ok(0) => {
            cx.error_spanned_by(&lit, format!("{NS} attribute `{key}` must be at least 1"));
            Ok(None)
        }
        Ok(n) => Ok(Some(n)),
        Err(_) => {
            cx.error_spanned_by(&lit, expected);
            Ok(None)
        }
    }
}

/// A title is printed as `**title**` on its own line: it must be one line of visible text.
fn check_title(cx: &Ctxt, lit: &LitStr) {
    let t = lit.value();
    if t.trim().is_empty() || t.trim() != t || t.chars().any(char::is_control) {
        cx.error_spanned_by(
            lit,
            "tool_output attribute `title` must be non-empty text on one line, without \
             leading or trailing spaces",
        );
    }
}

/// Serde's serialize name: `key = "..."` or `key(serialize = "...")`; `None` for any
/// other form (`serde_derive` reports those).
fn serde_ser_str(meta: &ParseNestedMeta) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(Token![=]) {
        let value = meta.value()?;
        if value.peek(LitStr) {
            return Ok(Some(value.parse()?));
        }
        skip_value_rest(value)?;
        return Ok(None);
    }
    let mut found = None;
    if meta.input.peek(token::Paren) {
        meta.parse_nested_meta(|inner| {
            if inner.path.is_ident("serialize") && inner.input.peek(Token![=]) {
                let value = inner.value()?;
                if value.peek(LitStr) {
                    let lit: LitStr = value.parse()?;
                    found.get_or_insert(lit);
                    return Ok(());
                }
                return skip_value_rest(value);
            }
            skip_value(inner.input)
        })?;
    }
    Ok(found)
}

fn skip_value_rest(input: ParseStream) -> syn::Result<()> {
    while !input.is_empty() && !input.peek(Token![,]) {
        input.parse::<TokenTree>()?;
    }
    Ok(())
}

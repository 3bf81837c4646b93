//! The input model: the item's shape with its attributes parsed and every final name
//! resolved, keeping the spans errors and generated code point at.

use proc_macro2::Span;
use syn::{Data as SynData, DeriveInput, Fields, Generics, Ident, LitStr, Type};

use crate::attr;
use crate::case::RenameRule;
use crate::ctxt::Ctxt;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub attrs: attr::Container,
    pub data: Data<'a>,
    pub generics: &'a Generics,
}

pub enum Data<'a> {
    Struct(Vec<Field<'a>>),
    /// A tuple struct: one field renders as that field (a newtype, as serde serializes it),
    /// several as a list of their values.
    Tuple(Vec<TupleField<'a>>),
    Enum(Vec<Variant<'a>>),
}

/// A field of a tuple struct.
pub struct TupleField<'a> {
    pub index: syn::Index,
    pub ty: &'a Type,
    pub attrs: attr::Field,
    /// The whole field (attributes and type), for errors about it.
    pub field: &'a syn::Field,
}

pub struct Field<'a> {
    pub member: &'a Ident,
    pub ty: &'a Type,
    pub attrs: attr::Field,
    /// The final name after all renaming.
    pub name: String,
    /// Where that name came from: the rename literal, else the field's identifier.
    pub name_span: Span,
    /// The key serde writes the field under (serde's `rename`, else its `rename_all`, else
    /// the identifier): where the field is in the serialized data.
    pub serde_name: String,
}

impl Field<'_> {
    pub fn skipped(&self) -> bool {
        self.attrs.skip.is_set() || self.attrs.serde_skip
    }

    pub fn flattened(&self) -> bool {
        self.attrs.flatten.is_set() || self.attrs.serde_flatten
    }
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub name: String,
    pub name_span: Span,
}

impl<'a> Container<'a> {
    /// The model, or `None` (with errors in `cx`) for item shapes that do not derive.
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        let attrs = attr::Container::from_attrs(cx, &input.attrs);
        let rule = attrs
            .rename_all
            .get()
            .copied()
            .unwrap_or(RenameRule::None)
            .or(attrs.serde_rename_all.unwrap_or(RenameRule::None));
        let serde_rule = attrs.serde_rename_all.unwrap_or(RenameRule::None);
        let data = match &input.data {
            SynData::Struct(s) => match &s.fields {
                Fields::Named(named) => Data::Struct(
                    named
                        .named
                        .iter()
                        .map(|f| field(cx, f, rule, serde_rule))
                        .collect::<Option<_>>()?,
                ),
                Fields::Unnamed(f) => Data::Tuple(
                    f.unnamed
                        .iter()
                        .enumerate()
                        .map(|(i, f)| TupleField {
                            index: syn::Index::from(i),
                            ty: &f.ty,
                            attrs: attr::Field::from_attrs(cx, &f.attrs),
                            field: f,
                        })
                        .collect(),
                ),
                Fields::Unit => {
                    cx.error_spanned_by(
                        &input.ident,
                        "#[derive(ToolOutput)] supports structs with fields; a unit struct \
                         has nothing to render",
                    );
                    return None;
                }
            },
            SynData::Enum(e) => {
                let mut variants = Vec::new();
                let mut ok = true;
                for v in &e.variants {
                    if !matches!(v.fields, Fields::Unit) {
                        cx.error_spanned_by(
                            &v.fields,
                            "#[derive(ToolOutput)] supports enums whose variants are all unit \
                             variants (rendered as their names); this variant carries data",
                        );
                        ok = false;
                        continue;
                    }
                    let vattrs = attr::Variant::from_attrs(cx, &v.attrs);
                    let (name, name_span) = match (vattrs.rename.get(), &vattrs.serde_rename) {
                        (Some(lit), _) | (None, Some(lit)) => (lit.value(), lit.span()),
                        (None, None) => (rule.apply_to_variant(&unraw(&v.ident)), v.ident.span()),
                    };
                    variants.push(Variant {
                        ident: &v.ident,
                        name,
                        name_span,
                    });
                }
                if !ok {
                    return None;
                }
                Data::Enum(variants)
            }
            SynData::Union(u) => {
                cx.error_spanned_by(
                    u.union_token,
                    "#[derive(ToolOutput)] does not support unions",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            attrs,
            data,
            generics: &input.generics,
        })
    }
}

fn field<'a>(
    cx: &Ctxt,
    f: &'a syn::Field,
    rule: RenameRule,
    serde_rule: RenameRule,
) -> Option<Field<'a>> {
    let member = f.ident.as_ref()?;
    let attrs = attr::Field::from_attrs(cx, &f.attrs);
    let serde_name = attrs
        .serde_rename
        .as_ref()
        .map_or_else(|| serde_rule.apply_to_field(&unraw(member)), LitStr::value);
    let (name, name_span) = match (attrs.rename.get(), &attrs.serde_rename) {
        (Some(lit), _) | (None, Some(lit)) => (lit.value(), lit.span()),
        (None, None) => (rule.apply_to_field(&unraw(member)), member.span()),
    };
    Some(Field {
        member,
        ty: &f.ty,
        attrs,
        name,
        name_span,
        serde_name,
    })
}

/// The identifier without a raw `r#` prefix.
fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

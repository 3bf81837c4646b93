//! Code generation. Everything is emitted inside `const _: () = { ... };` and reaches the
//! runtime only through `<crate>::__private`.

use proc_macro2::Span;
use proc_macro2::{Group, Literal, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Generics, LitStr, Path, Type, parse_quote};

use crate::ast::{Container, Data, Field, TupleField, Variant};
use crate::attr::{self, With};
use crate::ctxt::Ctxt;
use crate::{ast, check, fallback};

/// The whole derive: parse, check, then generate code or report every error (with a stub
/// impl so the call sites do not fail a second time).
pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = ast::Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => expand(&cont),
        (Err(err), _) => {
            let mut out = err.to_compile_error();
            out.extend(fallback::stub(input));
            out
        }
        (Ok(()), None) => fallback::stub(input),
    }
}

/// The runtime crate's path (`crate = "..."`, default `::tool_output_format`).
pub fn runtime_path(krate: Option<&Path>) -> TokenStream {
    if let Some(p) = krate {
        quote!(#p)
    } else {
        quote!(::tool_output_format)
    }
}

/// The generics with a `ToolOutput` bound on every type parameter.
pub fn bounded(generics: &Generics, p: &TokenStream) -> Generics {
    let mut g = generics.clone();
    for param in g.type_params_mut() {
        param.bounds.push(parse_quote!(#p::ToolOutput));
    }
    g
}

fn expand(cont: &Container) -> TokenStream {
    let krate = runtime_path(cont.attrs.krate.get());
    let p = quote!(#krate::__private);
    let version = format_ident!("API_{}", env!("CARGO_PKG_VERSION").replace(['.', '-'], "_"));
    let body = match &cont.data {
        Data::Struct(fields) => expand_struct(cont, fields, &p),
        Data::Tuple(fields) => expand_tuple(cont, fields, &p),
        Data::Enum(variants) => expand_enum(cont, variants, &p),
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications)]
        const _: () = {
            const _: () = #p::#version;
            #[allow(unused_imports)]
            use #p::{ViaNothing as _, ViaSerialize as _, ViaToolOutput as _};
            #body
        };
    }
}

// One generated impl, written in the order it is emitted; split, its pieces would pass the
// same dozen token streams around.
#[allow(clippy::too_many_lines)]
fn expand_struct(cont: &Container, fields: &[Field], p: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let mut generics = bounded(cont.generics, p);
    if cont.generics.type_params().next().is_some() {
        let wc = generics.make_where_clause();
        for f in fields.iter().filter(|f| !f.skipped() && f.flattened()) {
            let ty = f.ty;
            wc.predicates.push(parse_quote!(#ty: #p::Struct));
        }
    }
    let (ig, tg, wc) = generics.split_for_impl();
    let live: Vec<&Field> = fields.iter().filter(|f| !f.skipped()).collect();

    let mut columns = Vec::new();
    // `detail = "full"` fields: the columns at a detail level, and their names.
    let mut detail_columns = Vec::new();
    let mut full_only = Vec::new();
    let mut row = Vec::new();
    let mut record = Vec::new();
    let mut json = Vec::new();
    let mut canonical = Vec::new();
    // Final names: own `(name, message)` pairs and the flattened types, for `NAMES` and the
    // compile-time clash check.
    let mut own_names = Vec::new();
    let mut flat_types = Vec::new();
    let mut clashes = Vec::new();
    let checkable = cont.generics.params.is_empty();
    // Where each field's secrets are in the serialized (serde) data: a `redact` field's value
    // replaced, the others' own secrets redacted below them.
    let mut redact_data = Vec::new();
    for f in fields.iter().filter(|f| !f.attrs.serde_skip) {
        let m = f.member;
        let route = quote!((&&&#p::Field(&self.#m)));
        if f.flattened() {
            redact_data.push(quote!(#route.__tof_redact_data(data);));
            continue;
        }
        let key = LitStr::new(&f.serde_name, f.name_span);
        if f.attrs.redact.is_set() {
            redact_data.push(quote! {
                if let #p::Some(v) = data.get_mut(#key) {
                    *v = #p::Value::String(#p::String::from(#p::REDACTED));
                }
            });
        } else {
            redact_data.push(quote! {
                if let #p::Some(v) = data.get_mut(#key) {
                    #route.__tof_redact_data(v);
                }
            });
        }
    }
    for f in &live {
        if !f.flattened() {
            let name = LitStr::new(&f.name, f.name_span);
            let msg = format!(
                "tool_output: two fields of `{ident}` render under the name `{}` (one of them \
                 through `flatten`); rename one of them",
                f.name
            );
            own_names.push(quote!((#name, #msg)));
        }
    }
    for f in &live {
        let m = f.member;
        let ty = f.ty;
        if f.flattened() {
            if checkable {
                // Spanned at the flattened field: a name its struct brings that this struct
                // (or an earlier flattened field) already has fails the build here.
                let sp = f.member.span();
                clashes.push(quote_spanned! {sp=>
                    const _: () = {
                        let taken = #p::Names { own: &[#(#own_names),*], flat: &[#(&<#flat_types as #p::Struct>::NAMES),*] };
                        if let #p::Some(msg) = #p::clash(&taken, &<#ty as #p::Struct>::NAMES) {
                            ::core::panic!("{}", msg);
                        }
                    };
                });
            }
            flat_types.push(ty);
            // Spanned at the field's type: "`X` cannot be flattened" points there.
            let sp = ty.span();
            columns.push(quote_spanned!(sp=> <#ty as #p::Struct>::columns(out, limits, marks);));
            detail_columns.push(quote_spanned!(sp=>
                <#ty as #p::Struct>::detail_columns(detail, out, limits, marks);
            ));
            full_only.push(quote_spanned!(sp=> <#ty as #p::Struct>::full_only(out);));
            row.push(quote_spanned!(sp=> <#ty as #p::Struct>::write_row(&self.#m, t, cx);));
            record.push(quote_spanned!(sp=> <#ty as #p::Struct>::write_fields(&self.#m, r, cx);));
            json.push(quote_spanned!(sp=> <#ty as #p::Struct>::write_json(&self.#m, m);));
            continue;
        }
        let name = LitStr::new(&f.name, f.name_span);
        let v = field_value(f.ty, &f.attrs, &quote!(self.#m), p);
        let (node, cell, value_json) = (v.node, v.cell, v.json);
        let limit = if let Some(&n) = f.attrs.max_chars.get() {
            let n = Literal::usize_unsuffixed(n);
            quote!(#p::Some(#n))
        } else {
            quote!(#p::None)
        };
        let mark = if let Some(m) = f.attrs.mark.get() {
            let variant = format_ident!("{}", m.variant());
            quote!(#p::Mark::#variant)
        } else {
            quote!(#p::Mark::None)
        };
        let column = quote! {
            out.push(#p::Text::Borrowed(#name));
            limits.push(#limit);
            marks.push(#mark);
        };
        let field = if f.attrs.mark.is_set() {
            quote!(#p::push_marked(r, #p::Text::Borrowed(#name), #node, #limit, #mark);)
        } else {
            quote!(r.push_limited(#p::Text::Borrowed(#name), #node, #limit);)
        };
        let cell = quote!({
            let out = #p::cell_buf(t);
            let kind = #cell;
            #p::end_cell(t, kind);
        });
        columns.push(column.clone());
        if f.attrs.full_only() {
            detail_columns.push(quote!(if detail == #p::Detail::Full { #column }));
            full_only.push(quote!(out.push(#name);));
            row.push(quote!(if #p::full_detail(cx) { #cell }));
            record.push(quote!(if #p::full_detail(cx) { #field }));
        } else {
            detail_columns.push(column);
            row.push(cell);
            record.push(field);
        }
        json.push(quote!(m.insert(#p::String::from(#name), #value_json);));
        if let Some(check) = cont.attrs.canonical.get() {
            let msg = format!(
                "tool_output: field name {:?} is rejected by `canonical = \"{}\"`",
                f.name,
                quote!(#check).to_string().replace(' ', "")
            );
            canonical.push(quote_spanned! {f.name_span=>
                const _: () = ::core::assert!(#check(#name), #msg);
            });
        }
    }
    let title = if let Some(t) = cont.attrs.title.get() {
        quote!(#p::Some(#t))
    } else {
        quote!(#p::None)
    };
    let max_rows = if let Some(&n) = cont.attrs.max_rows.get() {
        let n = Literal::usize_unsuffixed(n);
        quote!(#p::Some(#n))
    } else {
        quote!(#p::None)
    };
    // `#[inline]` on every generated method: like serde's generic impls, their code is then
    // generated in the crates that call them, and only for the methods they call, instead of
    // eagerly for every derived struct (a crate of 50 derived structs compiled 3.5x slower
    // than with `Serialize`; 1.4x with it; see BENCHMARKS.md).
    quote! {
        #(#canonical)*
        #(#clashes)*
        #[automatically_derived]
        impl #ig #p::Struct for #ident #tg #wc {
            const NAMES: #p::Names = #p::Names {
                own: &[#(#own_names),*],
                flat: &[#(&<#flat_types as #p::Struct>::NAMES),*],
            };
            #[inline]
            fn columns(
                out: &mut #p::Vec<#p::Text<'static>>,
                limits: &mut #p::Vec<#p::Option<usize>>,
                marks: &mut #p::Vec<#p::Mark>,
            ) {
                #(#columns)*
            }
            #[inline]
            fn detail_columns(
                detail: #p::Detail,
                out: &mut #p::Vec<#p::Text<'static>>,
                limits: &mut #p::Vec<#p::Option<usize>>,
                marks: &mut #p::Vec<#p::Mark>,
            ) {
                let _ = detail;
                #(#detail_columns)*
            }
            #[inline]
            fn full_only(out: &mut #p::Vec<&'static str>) {
                let _ = &out;
                #(#full_only)*
            }
            #[inline]
            fn write_row(&self, t: &mut #p::Table<'_>, cx: &#p::Context<'_>) {
                #(#row)*
            }
            #[inline]
            fn write_fields<'__a>(&'__a self, r: &mut #p::Record<'__a>, cx: &#p::Context<'_>) {
                let inner = #p::nested(cx);
                #(#record)*
            }
            #[inline]
            fn write_json(&self, m: &mut #p::Map<#p::String, #p::Value>) {
                #(#json)*
            }
        }
        #[automatically_derived]
        impl #ig #p::ToolOutput for #ident #tg #wc {
            #[inline]
            fn to_node<'__a>(&'__a self, cx: &#p::Context<'_>) -> #p::Node<'__a> {
                #p::record_node(self, #title, cx)
            }
            #[inline]
            fn to_json(&self) -> #p::Value {
                #p::record_json(self)
            }
            #[inline]
            fn list_node<'__a>(items: &'__a [Self], cx: &#p::Context<'_>) -> #p::Node<'__a> {
                #p::list_node(items, #title, #max_rows, cx)
            }
            #[inline]
            fn __tof_hook(&self, hook: &mut #p::Hook<'_>) {
                if let #p::Some(data) = hook.redact() {
                    let _ = &data;
                    #(#redact_data)*
                }
            }
        }
    }
}

/// A tuple struct. A newtype (one field) renders as its field, as serde serializes it: the
/// same node, cell and JSON, so `Money(4999)` reads `4999` (or `"49.99"` with
/// `with = "cents"`). Several fields render as the list of their values (serde's array),
/// without the skipped ones.
fn expand_tuple(cont: &Container, fields: &[TupleField], p: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let generics = bounded(cont.generics, p);
    let (ig, tg, wc) = generics.split_for_impl();
    if let [only] = fields {
        let i = &only.index;
        let v = field_value(only.ty, &only.attrs, &quote!(self.#i), p);
        let (node, cell, json) = (v.node, v.cell, v.json);
        let redact = redact_element(&only.attrs, &quote!(self.#i), &quote!(data), p);
        return quote! {
            #[automatically_derived]
            impl #ig #p::ToolOutput for #ident #tg #wc {
                #[inline]
                fn to_node<'__a>(&'__a self, cx: &#p::Context<'_>) -> #p::Node<'__a> {
                    let inner = cx;
                    #node
                }
                #[inline]
                fn to_json(&self) -> #p::Value {
                    #json
                }
                #[inline]
                fn write_cell(&self, cx: &#p::Context<'_>, out: &mut #p::String) -> #p::Kind {
                    #cell
                }
                #[inline]
                fn __tof_hook(&self, hook: &mut #p::Hook<'_>) {
                    if let #p::Some(data) = hook.redact() {
                        #redact
                    }
                }
            }
        };
    }
    let live: Vec<&TupleField> = fields
        .iter()
        .filter(|f| !(f.attrs.skip.is_set() || f.attrs.serde_skip))
        .collect();
    let n = live.len();
    // serde writes every field not serde-skipped, in order: the data's elements.
    let redact_items: Vec<TokenStream> = fields
        .iter()
        .filter(|f| !f.attrs.serde_skip)
        .enumerate()
        .map(|(at, f)| {
            let i = &f.index;
            let element = quote!(v);
            let redact = redact_element(&f.attrs, &quote!(self.#i), &element, p);
            quote! {
                if let #p::Some(v) = data.get_mut(#at) {
                    #redact
                }
            }
        })
        .collect();
    let (nodes, jsons): (Vec<_>, Vec<_>) = live
        .iter()
        .map(|f| {
            let i = &f.index;
            let v = field_value(f.ty, &f.attrs, &quote!(self.#i), p);
            (v.node, v.json)
        })
        .unzip();
    quote! {
        #[automatically_derived]
        impl #ig #p::ToolOutput for #ident #tg #wc {
            #[inline]
            fn to_node<'__a>(&'__a self, cx: &#p::Context<'_>) -> #p::Node<'__a> {
                if #p::too_deep(cx) {
                    return #p::Node::DepthCut(#p::None);
                }
                let inner = #p::nested(cx);
                let mut items = #p::Vec::with_capacity(#n);
                #(items.push(#nodes);)*
                #p::Node::List(items)
            }
            #[inline]
            fn to_json(&self) -> #p::Value {
                let mut items = #p::Vec::with_capacity(#n);
                #(items.push(#jsons);)*
                #p::Value::Array(items)
            }
            #[inline]
            fn __tof_hook(&self, hook: &mut #p::Hook<'_>) {
                if let #p::Some(data) = hook.redact() {
                    let _ = &data;
                    #(#redact_items)*
                }
            }
        }
    }
}

/// How one field renders, as three expressions over the names the generated methods use:
/// `node` (with the context `inner`), `cell` (appends the cell text to the `String` `out`
/// with the context `cx`, and is the cell's `Kind`) and `json`.
struct FieldValue {
    node: TokenStream,
    cell: TokenStream,
    json: TokenStream,
}

/// The field at `place` (`self.name`, `self.0`) with its `redact` and `with` applied.
///
/// The value goes through `__private::Field` (see `private/field.rs` in the runtime): its
/// `ToolOutput` impl when it has one, else its `Serialize` form, else a compile error that
/// says what to do. Expressions are spanned at the `with` literal or at the field's type, so
/// a type error points at the user's tokens.
fn field_value(ty: &Type, attrs: &attr::Field, place: &TokenStream, p: &TokenStream) -> FieldValue {
    // A redacted field's value is never read: `[redacted]` stands in everywhere, including
    // the JSON a registered renderer receives.
    if attrs.redact.is_set() {
        return via_field(ty.span(), &quote!(#p::REDACTED), p);
    }
    match attrs.with.get() {
        None => via_field(ty.span(), &quote!(&#place), p),
        Some(With::Path(with)) => {
            let sp = with.span();
            let mut v = via_field(sp, &quote_spanned!(sp=> &#with(&#place)), p);
            // The check that `with` returns a value (not `()`) is compiled, never run; a
            // computed value's node is made owned so it outlives the temporary.
            let node = v.node;
            v.node = quote_spanned! {sp=> {
                if false {
                    #[allow(unused_imports)]
                    use #p::{WithUnit as _, WithValue as _};
                    (&#p::With(&#with(&#place))).check::<()>();
                }
                #p::Node::into_owned(#node)
            }};
            v
        }
        Some(With::Convert(conv)) => {
            let sp = conv
                .clone()
                .into_iter()
                .next()
                .map_or_else(Span::call_site, |t| t.span());
            let source = via_field(ty.span(), &quote!(&#place), p).json;
            let json = quote_spanned!(sp=> #p::convert(&#p::Convert::#conv, #source));
            FieldValue {
                node: quote_spanned!(sp=> #p::json_node(&#json, &inner)),
                cell: quote_spanned!(sp=> #p::json_cell(&#json, cx, out)),
                json,
            }
        }
    }
}

/// Redacts the serialized data `data` (a `&mut Value` expression) of the tuple field at
/// `place`: replaced when the field is `redact`, else its own secrets below it.
fn redact_element(
    attrs: &attr::Field,
    place: &TokenStream,
    data: &TokenStream,
    p: &TokenStream,
) -> TokenStream {
    if attrs.redact.is_set() {
        quote!(*#data = #p::Value::String(#p::String::from(#p::REDACTED));)
    } else {
        quote!((&&&#p::Field(&#place)).__tof_redact_data(#data);)
    }
}

/// The three routes for a `&T` expression `value` (the traits are imported by `expand`).
///
/// Every token is spanned at `sp`, the runtime path and the field access included: the
/// compiler blames a call whose tokens come from one place at that place, so "`X` cannot be
/// rendered" points at the field's type (or the `with` literal), not at the derive.
fn via_field(sp: Span, value: &TokenStream, p: &TokenStream) -> FieldValue {
    let wrapped = respan(quote!((&&&#p::Field(#value))), sp);
    FieldValue {
        node: respan(quote!(#wrapped.__tof_node(&inner)), sp),
        cell: respan(quote!(#wrapped.__tof_cell(cx, out)), sp),
        // The route check sits in the JSON form, which every field has: one error per
        // field whose type has no route. Compiled, never run (a `with` function is called
        // once).
        json: respan(
            quote!({
                if false {
                    #wrapped.__tof_check();
                }
                #wrapped.__tof_json()
            }),
            sp,
        ),
    }
}

/// `tokens` with every span (inside groups too) set to `sp`.
fn respan(tokens: TokenStream, sp: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let TokenTree::Group(g) = &tt {
                let mut group = Group::new(g.delimiter(), respan(g.stream(), sp));
                group.set_span(sp);
                tt = TokenTree::Group(group);
            } else {
                tt.set_span(sp);
            }
            tt
        })
        .collect()
}

fn expand_enum(cont: &Container, variants: &[Variant], p: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let generics = bounded(cont.generics, p);
    let (ig, tg, wc) = generics.split_for_impl();
    let arms: Vec<TokenStream> = variants
        .iter()
        .map(|v| {
            let vi = v.ident;
            let name = LitStr::new(&v.name, v.name_span);
            quote!(#ident::#vi => #name,)
        })
        .collect();
    let name = quote!(match *self { #(#arms)* });
    quote! {
        #[automatically_derived]
        impl #ig #p::ToolOutput for #ident #tg #wc {
            fn to_node<'__a>(&'__a self, _: &#p::Context<'_>) -> #p::Node<'__a> {
                #p::Node::Str(#p::Text::Borrowed(#name))
            }
            fn to_json(&self) -> #p::Value {
                #p::Value::String(#p::String::from(#name))
            }
            fn write_cell(&self, _: &#p::Context<'_>, out: &mut #p::String) -> #p::Kind {
                out.push_str(#name);
                #p::Kind::Text
            }
        }
    }
}

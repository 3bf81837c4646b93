//! On an attribute error: a stub impl next to the errors, so every place that uses the type
//! as a `ToolOutput` (or flattens it) compiles and the user sees only the real mistakes.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, LitStr, Path};

use crate::expand::{bounded, runtime_path};

pub fn stub(input: &DeriveInput) -> TokenStream {
    let krate = runtime_path(crate_attr(input).as_ref());
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let generics = bounded(&input.generics, &p);
    let (ig, tg, wc) = generics.split_for_impl();
    let structs = matches!(input.data, Data::Struct(_)).then(|| {
        quote! {
            impl #ig #p::Struct for #ident #tg #wc {
                const NAMES: #p::Names = #p::Names { own: &[], flat: &[] };
                fn columns(
                    _: &mut #p::Vec<#p::Text<'static>>,
                    _: &mut #p::Vec<#p::Option<usize>>,
                    _: &mut #p::Vec<#p::Mark>,
                ) {
                    ::core::unimplemented!()
                }
                fn write_row(&self, _: &mut #p::Table<'_>, _: &#p::Context<'_>) { ::core::unimplemented!() }
                fn write_fields<'__a>(&'__a self, _: &mut #p::Record<'__a>, _: &#p::Context<'_>) {
                    ::core::unimplemented!()
                }
                fn write_json(&self, _: &mut #p::Map<#p::String, #p::Value>) {
                    ::core::unimplemented!()
                }
            }
        }
    });
    quote! {
        #[doc(hidden)]
        const _: () = {
            #structs
            impl #ig #p::ToolOutput for #ident #tg #wc {
                fn to_node<'__a>(&'__a self, _: &#p::Context<'_>) -> #p::Node<'__a> {
                    ::core::unimplemented!()
                }
                fn to_json(&self) -> #p::Value { ::core::unimplemented!() }
            }
        };
    }
}

/// `crate = "..."`, read leniently (its errors are reported by the real parse).
fn crate_attr(input: &DeriveInput) -> Option<Path> {
    let mut found = None;
    for attr in input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("tool_output"))
    {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let lit: LitStr = meta.value()?.parse()?;
                found = lit.parse().ok();
            } else {
                while !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                    let _: proc_macro2::TokenTree = meta.input.parse()?;
                }
            }
            Ok(())
        });
    }
    found
}

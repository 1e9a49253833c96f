// SPDX-License-Identifier: GPL-2.0

use proc_macro::{Ident, TokenStream, TokenTree};

/// The name of the function that `item` declares, if it declares one.
fn function_name(item: TokenStream) -> Option<Ident> {
    let mut tokens = item.into_iter();
    while let Some(token) = tokens.next() {
        if let TokenTree::Ident(ident) = token {
            if ident.to_string() == "fn" {
                return match tokens.next() {
                    Some(TokenTree::Ident(name)) => Some(name),
                    _ => None,
                };
            }
        }
    }
    None
}

/// Expands `#[export]` on `item` (see [`crate::export`]).
pub(crate) fn export(attr: TokenStream, item: TokenStream) -> TokenStream {
    let Some(name) = function_name(item.clone()).filter(|_| attr.is_empty()) else {
        return "::core::compile_error!(\"#[export] is for a function and takes no arguments\");"
            .parse()
            .unwrap();
    };
    // Both branches of an `if` have one type: the function must have the type of the
    // declaration that bindgen generated from the C header.
    let check = format!(
        "const _: () = {{ if true {{ ::kernel::bindings::{name} }} else {{ {name} }}; }}; #[no_mangle]"
    );
    let mut out: TokenStream = check.parse().unwrap();
    out.extend(item);
    out
}

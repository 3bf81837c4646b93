//! Token counting for budgets and size reports.

/// Counts the tokens of a text. Implement it to budget for another model's tokenizer.
///
/// ```
/// use tool_output_format::TokenCounter;
/// struct Words;
/// impl TokenCounter for Words {
///     fn count(&self, text: &str) -> usize { text.split_whitespace().count() }
/// }
/// assert_eq!(Words.count("a b c"), 3);
/// ```
pub trait TokenCounter: Send + Sync {
    /// The number of tokens in `text`.
    fn count(&self, text: &str) -> usize;
}

/// Exact `o200k_base` counts (the tokenizer of GPT-4o-class models), from `tiktoken-rs`'s
/// embedded vocabulary: offline, built once per process on first use.
///
/// ```
/// use tool_output_format::{O200k, TokenCounter};
/// assert_eq!(O200k.count("hello world"), 2);
/// ```
#[cfg(feature = "tokens")]
#[derive(Debug, Clone, Copy, Default)]
pub struct O200k;

#[cfg(feature = "tokens")]
impl TokenCounter for O200k {
    fn count(&self, text: &str) -> usize {
        use std::sync::OnceLock;
        static BPE: OnceLock<Option<tiktoken_rs::CoreBPE>> = OnceLock::new();
        match BPE.get_or_init(|| tiktoken_rs::o200k_base().ok()) {
            Some(bpe) => bpe.encode_ordinary(text).len(),
            // The vocabulary is embedded, so this cannot fail in practice; if it ever did,
            // a bytes-per-token upper bound keeps budgets safe rather than panicking.
            None => text.len(),
        }
    }
}

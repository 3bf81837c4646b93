//! Sinks: write a document as text. Markdown is the first (and, so far, only) sink.

pub mod markdown;

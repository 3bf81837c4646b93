//! Feature `tracing`: one event per formatted result, so oversize results show up in traces.
//!
//! The event has target `tool_output_format`, level `INFO`, the message
//! `tool result formatted` and the fields `tool`, `chars`, `bytes`, `tokens` (when counted:
//! with the `tokens` feature, or a custom counter), `rows_kept` and `rows_total` (table
//! results), `cut` (anything cut: [`Report::truncated`](crate::Report::truncated)) and
//! `stored` (the full result was kept in a store). Its fields are computed only when a
//! subscriber listens.

use crate::call::report::Report;

/// Whether a subscriber listens to the event (then the report is computed for it).
#[cfg(feature = "tracing")]
pub(crate) fn enabled() -> bool {
    tracing::enabled!(target: "tool_output_format", tracing::Level::INFO)
}

#[cfg(not(feature = "tracing"))]
pub(crate) fn enabled() -> bool {
    false
}

/// Emit the event for one formatted result.
#[cfg(feature = "tracing")]
pub(crate) fn event(tool: &str, r: &Report) {
    tracing::info!(
        target: "tool_output_format",
        tool,
        chars = r.chars,
        bytes = r.bytes,
        tokens = r.tokens,
        rows_kept = r.rows.map(|k| k.kept),
        rows_total = r.rows.map(|k| k.total),
        cut = r.truncated(),
        stored = r.reference.is_some(),
        "tool result formatted"
    );
}

#[cfg(not(feature = "tracing"))]
pub(crate) fn event(_tool: &str, _r: &Report) {}

/// A tool name with no options of its own, near a name that has some (a likely typo).
#[cfg(feature = "tracing")]
pub(crate) fn near_miss(tool: &str, registered: &str) {
    tracing::warn!(
        target: "tool_output_format",
        tool,
        registered,
        "no options are registered for this tool name, but for a near spelling: the formatter's defaults apply"
    );
}

#[cfg(not(feature = "tracing"))]
pub(crate) fn near_miss(_tool: &str, _registered: &str) {}

//! What the runtime asks of a result beyond [`ToolOutput`]'s public methods, and who may
//! answer: the derive's helpers and the containers' forwarding, kept off `ToolOutput`'s
//! public face.
//!
//! [`Hooks`] is the sealed trait the runtime calls (`is_whole`, `redact_serialized`). It is
//! crate-private and implemented once, for every `ToolOutput`, so no other crate can
//! implement or call it. A type changes its answers through the one hidden entry point
//! `ToolOutput::__tof_hook`, which takes a [`Hook`]: a question only this crate can build
//! (its field is private), so no other crate can call that method either.
//!
//! Why one hidden method stays on `ToolOutput`: a default that a derive overrides and that a
//! hand-written impl inherits without writing anything is, in Rust without specialization, a
//! provided item of the trait itself. A supertrait would make every hand-written impl
//! implement it too, and a blanket impl of a separate trait could not be overridden by the
//! derive. So the behaviour lives here and in the derive's expansion, and `ToolOutput` keeps
//! a single sealed door to it.

use serde_json::Value;

use super::ToolOutput;

/// One question the runtime asks a result, answered by `ToolOutput::__tof_hook`. Not public
/// API: only this crate builds one; derived code and the containers read it.
pub struct Hook<'q>(Question<'q>);

enum Question<'q> {
    /// Is `to_json` the whole result (what a store keeps)? Starts `true`.
    Whole(&'q mut bool),
    /// Replace the values the type marks `#[tool_output(redact)]` in this serialized form.
    Redact(&'q mut Value),
}

impl Hook<'_> {
    /// The value's `serde::Serialize` form whose secrets to redact (at every depth), when
    /// that is the question.
    #[inline]
    pub fn redact(&mut self) -> Option<&mut Value> {
        match &mut self.0 {
            Question::Redact(data) => Some(data),
            Question::Whole(_) => None,
        }
    }

    /// Answer whether `to_json` is the whole result, when that is the question (a stream of
    /// which only the first records were kept is not).
    #[inline]
    pub fn whole(&mut self, whole: bool) {
        if let Question::Whole(answer) = &mut self.0 {
            **answer = whole;
        }
    }
}

/// The runtime's calls on any result (sealed: crate-private, implemented for every
/// [`ToolOutput`] here and nowhere else).
pub(crate) trait Hooks {
    /// Whether [`to_json`](ToolOutput::to_json) is the whole result (what a store keeps);
    /// `false` for records of a stream of which only the first were kept
    /// ([`Rows`](crate::Rows)): such a result is never stored, and its text says so.
    fn is_whole(&self) -> bool;

    /// Replace the values this type marks `#[tool_output(redact)]` with `[redacted]` in
    /// `data`, this value's `serde::Serialize` form (the typed data an MCP client receives),
    /// at every depth. Derived types answer; the containers pass it to their items; a
    /// hand-written impl marks no secret of its own.
    fn redact_serialized(&self, data: &mut Value);
}

impl<T: ToolOutput + ?Sized> Hooks for T {
    #[inline]
    fn is_whole(&self) -> bool {
        let mut whole = true;
        self.__tof_hook(&mut Hook(Question::Whole(&mut whole)));
        whole
    }

    #[inline]
    fn redact_serialized(&self, data: &mut Value) {
        self.__tof_hook(&mut Hook(Question::Redact(data)));
    }
}

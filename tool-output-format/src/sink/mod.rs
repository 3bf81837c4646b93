//! Sinks: write a cut document as text. Each layout is one [`Sink`]; the wording of every
//! notice lives here too ([`notice`]), so adding a sink touches no source and no cap.

pub(crate) mod csv;
pub(crate) mod json;
pub(crate) mod markdown;
mod notice;

use crate::caps::Notice;
use crate::doc::Node;

/// A document ready to write: the cut notices, the title line, the body.
#[derive(Debug)]
pub(crate) struct Document<'d, 'a> {
    pub notices: &'d [Notice],
    pub title: Option<&'d str>,
    pub body: &'d Node<'a>,
}

/// Writes a document as text. The result never ends with a newline and has no trailing
/// spaces.
pub(crate) trait Sink: Sync {
    fn render(&self, doc: &Document<'_, '_>) -> String;
}

//! [`Reply`]: any result with next actions, links and resource references around it.

use crate::doc::agent::link::{Link, links_line};
use crate::doc::agent::next::NextAction;
use crate::doc::agent::resource::ResourceRef;

/// A result with what an agent can do next: suggested calls, links to the resource's page,
/// and references to large data instead of the data.
///
/// The result renders as it would alone, then the envelope lines (`Links:`, `Resource:`, `Next:`).
///
/// ```
/// use tool_output_format::{NextAction, Reply, ResourceRef, to_markdown};
///
/// let reply = Reply::new("order ORD-7 placed")
///     .next(NextAction::call("get_order").arg("order_id", "ORD-7"))
///     .link("view", "https://shop.example.com/orders/7")
///     .reference(ResourceRef::new("resource://files/abc").name("invoice.pdf"));
/// assert!(to_markdown(&reply).ends_with(concat!(
///     "\n\nLinks: [view](https://shop.example.com/orders/7)\n",
///     "Resource: invoice.pdf resource://files/abc\n",
///     r#"Next: call get_order(order_id="ORD-7")"#,
/// )));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[must_use]
pub struct Reply<T> {
    result: T,
    next: Vec<NextAction>,
    links: Vec<Link>,
    references: Vec<ResourceRef>,
}

impl<T> Reply<T> {
    /// Wrap `result`.
    ///
    /// ```
    /// use tool_output_format::Reply;
    /// assert_eq!(Reply::new(42).result(), &42);
    /// ```
    pub fn new(result: T) -> Self {
        Reply {
            result,
            next: Vec::new(),
            links: Vec::new(),
            references: Vec::new(),
        }
    }

    /// Suggest a follow-up call (call again for several; they render in order).
    ///
    /// ```
    /// use tool_output_format::{NextAction, Reply, to_markdown};
    /// let reply = Reply::new(()).next(NextAction::call("a")).next(NextAction::call("b"));
    /// assert!(to_markdown(&reply).ends_with("Next: call a()\nNext: call b()"));
    /// ```
    pub fn next(mut self, action: NextAction) -> Self {
        self.next.push(action);
        self
    }

    /// Add a link to the resource's page, labelled `label` (`view`, `edit`).
    ///
    /// ```
    /// use tool_output_format::{Reply, to_markdown};
    /// let reply = Reply::new(()).link("edit", "https://x.example/7/edit");
    /// assert!(to_markdown(&reply).ends_with("Links: [edit](https://x.example/7/edit)"));
    /// ```
    pub fn link(mut self, label: impl Into<String>, url: impl Into<String>) -> Self {
        self.links.push(Link::new(label, url));
        self
    }

    /// Add a reference to data another tool can resolve.
    ///
    /// ```
    /// use tool_output_format::{Reply, ResourceRef, to_markdown};
    /// let reply = Reply::new(()).reference(ResourceRef::new("resource://files/abc"));
    /// assert!(to_markdown(&reply).ends_with("Resource: resource://files/abc"));
    /// ```
    pub fn reference(mut self, reference: ResourceRef) -> Self {
        self.references.push(reference);
        self
    }

    /// The wrapped result.
    ///
    /// ```
    /// use tool_output_format::Reply;
    /// assert_eq!(Reply::new("done").result(), &"done");
    /// ```
    pub fn result(&self) -> &T {
        &self.result
    }

    /// The wrapped result, owned.
    #[cfg(test)]
    pub(crate) fn into_result(self) -> T {
        self.result
    }

    /// The suggested calls, in order.
    pub(crate) fn next_actions(&self) -> &[NextAction] {
        &self.next
    }

    /// The links, in order.
    pub(crate) fn links(&self) -> &[Link] {
        &self.links
    }

    /// The resource references, in order.
    pub(crate) fn references(&self) -> &[ResourceRef] {
        &self.references
    }

    /// The envelope lines that follow the result, in order: one `Links:` line with every
    /// link, one `Resource:` line per reference, one `Next:` line per suggested call (the
    /// action last, where the model looks for it). Empty when there is nothing to add.
    ///
    /// ```
    /// use tool_output_format::{NextAction, Reply};
    /// assert!(Reply::new(1).lines().is_empty());
    /// assert_eq!(Reply::new(1).next(NextAction::call("poll")).lines(), ["Next: call poll()"]);
    /// ```
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::with_capacity(1 + self.references.len() + self.next.len());
        lines.extend(links_line(&self.links));
        lines.extend(self.references.iter().map(ResourceRef::line));
        lines.extend(self.next.iter().map(NextAction::line));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_then_resources_then_the_next_call() {
        let reply = Reply::new("placed")
            .next(NextAction::call("get_order").arg("order_id", "ORD-7"))
            .link("view", "https://shop.example.com/orders/7")
            .reference(
                ResourceRef::new("resource://files/abc")
                    .name("report.pdf")
                    .content_type("application/pdf")
                    .size_bytes(48_213),
            );
        assert_eq!(
            reply.lines(),
            [
                "Links: [view](https://shop.example.com/orders/7)",
                "Resource: report.pdf (application/pdf, 48.2 kB) resource://files/abc",
                "Next: call get_order(order_id=\"ORD-7\")",
            ]
        );
    }

    #[test]
    fn several_of_each_in_order() {
        let reply = Reply::new(())
            .link("view", "https://x.example/7")
            .next(
                NextAction::call("check_job_status")
                    .arg("jobId", "job_9")
                    .after_secs(30),
            )
            .link("edit", "https://x.example/7/edit (beta)")
            .reference(ResourceRef::new("resource://a"))
            .reference(ResourceRef::new("resource://b").size_bytes(0))
            .next(NextAction::call("cancel_job").arg("jobId", "job_9"));
        assert_eq!(
            reply.lines(),
            [
                "Links: [view](https://x.example/7), [edit](https://x.example/7/edit%20%28beta%29)",
                "Resource: resource://a",
                "Resource: resource://b (0 B)",
                "Next: call check_job_status(jobId=\"job_9\") after 30 s",
                "Next: call cancel_job(jobId=\"job_9\")",
            ]
        );
        let () = reply.into_result();
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn links() {
        use crate::Reply;
        assert_eq!(
            Reply::new(()).link("view", "https://x.example").links()[0].label(),
            "view"
        );
    }

    #[test]
    fn into_result() {
        use crate::Reply;
        assert_eq!(Reply::new("done").into_result(), "done");
    }

    #[test]
    fn next_actions() {
        use crate::{NextAction, Reply};
        let reply = Reply::new(()).next(NextAction::call("get_order"));
        assert_eq!(reply.next_actions()[0].tool(), "get_order");
    }

    #[test]
    fn references() {
        use crate::{Reply, ResourceRef};
        let reply = Reply::new(()).reference(ResourceRef::new("resource://a"));
        assert_eq!(reply.references().len(), 1);
    }
}

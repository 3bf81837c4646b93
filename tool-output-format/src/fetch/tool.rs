//! [`Fetch`]: the fetch side of trim and reference (the rules are on the type).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::served::Served;
use super::{CURSOR_ARG, ResultStore, StoreError};
use crate::doc::agent::{ErrorKind, Page, ToToolError, ToolError};
use crate::formatter::Formatter;

/// Rows per page unless set ([`Fetch::page_size`]), when the pages have no budget.
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// A ready fetch handler for stored results: the fetch side of trim and reference. It serves
/// a stored result page by page, so the model reaches the last row of a result that was cut
/// to its first twenty.
///
/// A cut result ends with `Next: call get_stored_result(ref="r_...", cursor="20")`. Rendering the stored
/// value again through the same storing formatter would cut it to the same first rows and
/// store it once more, and the model would loop on the first page. `Fetch` instead:
///
/// - reads the stored value with [`ResultStore::get`] and serves it by what it is: the
///   **rows** of an array, of a stored [`Page`]'s items (its last page then ends with the
///   stored page's own next call, so the model goes on to the next page of the source), or of
///   a [`Reply`](crate::Reply)'s list; a **text** (a string) is served as text: from the
///   cursor (`"12"`: line 12, counted from 0; `"12:300"`: after its first 300 characters),
///   the most whole lines that fit the budget and the line cap, verbatim in one fenced block
///   under a line saying which lines it holds (`[Lines 13-40 of 900]`), or, when not even
///   one whole line fits, the first characters of that line that fit, cut on a grapheme
///   boundary; each page ends with the call for the next, resuming at the exact line and
///   character where it stopped, so the fenced contents joined are the text (every line
///   break written `\n`; a page that stops inside a line adds one before its closing
///   fence, and its cursor `"L:C"` says so). With a query, a text is served as its matching
///   sections, as rows: lines, but a log entry with its continuation lines (`Commit:` with
///   its `Author:` and `Message:` lines, an error with its indented trace), a paragraph, a
///   heading's section or a fenced block each whole, as a focus splits it. Any other value (a record, a
///   scalar) is served **whole**, with every field a folding shape left out shown (full
///   detail); when the budget still cuts it, its text ends with the call to the first part
///   it cut (`cursor="/items/20"`: a table from a row; `cursor="/body/0"`: a long text from a
///   character, served in pieces that fit the budget, each ending with the call for the
///   next piece), and the last page of each part calls for the next part. A record whose
///   page would leave **fields** out is served in runs of its leaves instead (a leaf: a
///   value that is not a non-empty object, in document order): each page shows the most
///   leaves from the cursor that fit with nothing cut (`cursor="@12"`: from the 13th leaf),
///   under their objects' keys, so following the Next lines reaches every field, nested ones
///   included; a list or text leaf that alone does not fit is served as a part, then the
///   next leaf;
/// - keeps only the rows that contain every word of the optional **query** (case-insensitive,
///   in the text of any value of the row);
/// - renders a page of them ([`Fetch::page_size`]; unset, as many as the budget holds) from
///   the **cursor** (the position of the next row, a decimal
///   number: the cut text's Next line gives where it stopped) as a [`Page`]: its footer says
///   `has_more`, the `next_cursor` and the next call,
///   `Next: call get_stored_result(ref="r_...", cursor="50")`;
/// - after the rows, serves **what the first text did not show of the rows it showed**:
///   when the first text of a table shortened values of the rows it showed (to fit its
///   budget, or by a cell cap), its Next line's cursor is `"K;K>C"`: the rows from `K` (the
///   first row it did not show, so no row is served twice), then the values of the rows
///   before `K` that shortening to `C` characters cut. The last page of rows goes on to them
///   (`cursor="v0;K>C"`): a table of `row` (its position, from 1), `column` and the `value`
///   whole, page by page (`"vI;K>C"`: from the `I`-th), and the last of those pages ends with
///   the stored page's own next call, if any. When the first text showed its rows without
///   some fields (columns a budget left out, fields the preset folded), the cursor is
///   `"K;K-a,b"`, naming the columns shown, or `"K;K+a,b"`, naming the fields left out,
///   whichever is shorter (`,` and `%` in a name percent-encoded; `"K;K-"`, every field,
///   when both are long): after the rows from `K`, one row per row before `K` with `row` and
///   its fields not shown (`"K;K>C-a,b"`: and the values shortening cut).
///   `"25"` alone: the rows from 25, nothing shortened or left out;
/// - renders with the formatter it was given **minus its store**, in full detail, without
///   a cell cap (the values a cell cap cut are the rest): caps and budgets still apply to
///   the page, and when they cut it the cursor resumes at the first row left out (each row
///   carries its own cursor), but the page is never stored again. A page never shows part of
///   a row: when the budget would shorten a value or a cap would cut a nested table, it keeps
///   fewer rows. A record row that alone is cut is served in runs of its leaves as a
///   record is (`cursor="/items/3@5"`: row `/items/3` from its 6th leaf), then the next row;
///   a leaf of it (or a row that is not a record) that alone is over the budget is shown
///   whole, and said so. A page's tables keep their rows from the first and every column
///   (the salience rules that keep the last row or leave columns out are for first texts),
///   so the next page resumes where it stopped.
///
/// The argument names default to `ref`, `cursor` and `query` ([`Fetch::arg_names`]).
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use serde_json::json;
/// use tool_output_format::{Formatter, store::{MemoryStore, ResultStore}};
/// use tool_output_format::store::Fetch;
///
/// let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(Duration::from_secs(600)));
/// let rows: Vec<_> = (1..=5).map(|id| json!({"id": id})).collect();
/// let reference = store.put(&json!(rows)).unwrap();
///
/// let fetch = Fetch::new(store, "get_stored_result").page_size(2);
/// let page = fetch.call(&reference, Some("2"), None);
/// assert!(page.contains("| 3  |"), "{page}");
/// assert!(page.contains("has_more: true"));
/// assert!(page.ends_with(&format!(
///     "Next: call get_stored_result(ref=\"{reference}\", cursor=\"4\")"
/// )));
/// ```
#[derive(Clone)]
pub struct Fetch {
    store: Source,
    pub(super) tool: String,
    pub(super) formatter: Formatter,
    pub(super) ref_arg: String,
    pub(super) cursor_arg: String,
    pub(super) query_arg: String,
    /// Rows per page when set (else see [`Fetch::rows_per_page`]).
    pub(super) page_size: Option<usize>,
}

/// Where the stored results are read.
#[derive(Clone)]
enum Source {
    Sync(Arc<dyn ResultStore>),
    #[cfg(feature = "async")]
    Async(Arc<dyn super::AsyncResultStore>),
}

impl std::fmt::Debug for Fetch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetch")
            .field("tool", &self.tool)
            .field("args", &(&self.ref_arg, &self.cursor_arg, &self.query_arg))
            .field("page_size", &self.page_size)
            .finish_non_exhaustive()
    }
}

impl Fetch {
    /// A handler serving the results of `store` as the tool `tool` (the `fetch_tool` given to
    /// [`Formatter::store`]), with a default formatter and pages of [`DEFAULT_PAGE_SIZE`] rows.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use tool_output_format::store::{MemoryStore, Fetch};
    /// let fetch = Fetch::new(Arc::new(MemoryStore::new(std::time::Duration::from_secs(60))), "get_stored_result");
    /// assert_eq!(fetch.tool(), "get_stored_result");
    /// ```
    pub fn new(store: Arc<dyn ResultStore>, tool: &str) -> Self {
        Fetch::with_source(Source::Sync(store), tool)
    }

    fn with_source(store: Source, tool: &str) -> Self {
        Fetch {
            store,
            tool: tool.to_owned(),
            formatter: Formatter::new(),
            ref_arg: "ref".to_owned(),
            cursor_arg: CURSOR_ARG.to_owned(),
            query_arg: "query".to_owned(),
            page_size: None,
        }
    }

    /// A handler reading an [`AsyncResultStore`](super::AsyncResultStore) (feature `async`),
    /// for async hosts: use [`Fetch::call_async`] / [`Fetch::page_async`] (the sync calls
    /// answer that the store is asynchronous).
    #[cfg(feature = "async")]
    pub fn new_async(store: Arc<dyn super::AsyncResultStore>, tool: &str) -> Self {
        Fetch::with_source(Source::Async(store), tool)
    }

    /// Renders pages with `formatter` (its caps, budgets, layout, secrets) in full detail
    /// ([`Detail::Full`](crate::Detail::Full): what a folding shape left out of the first
    /// text is shown), without its store: a page is never stored again. A stored result
    /// whose store kept the tool it came from ([`ResultStore::put_for`]) is served with that
    /// tool's options (its budget first of all), unless this tool has options of its own.
    /// Takes its reference argument name ([`Formatter::store_ref_arg`]) too.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use tool_output_format::{Formatter, store::{MemoryStore, ResultStore, Fetch}};
    /// let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(std::time::Duration::from_secs(60)));
    /// let fmt = Formatter::new().max_rows(1).store(store.clone(), "get_stored_result");
    /// let fetch = Fetch::new(store.clone(), "get_stored_result").formatter(&fmt);
    /// let r = store.put(&serde_json::json!([{"id": 1}, {"id": 2}, {"id": 3}])).unwrap();
    /// // Cut to one row by the cap: the cursor resumes at the second, no new reference.
    /// let page = fetch.call(&r, None, None);
    /// assert!(page.ends_with(&format!("Next: call get_stored_result(ref=\"{r}\", cursor=\"1\")")), "{page}");
    /// ```
    #[must_use]
    pub fn formatter(mut self, formatter: &Formatter) -> Self {
        formatter.ref_arg_name().clone_into(&mut self.ref_arg);
        self.formatter = formatter.without_store();
        self
    }

    /// Names the tool's arguments: the reference (default `ref`) and the cursor (default
    /// `cursor`).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use tool_output_format::store::{MemoryStore, Fetch};
    /// let fetch = Fetch::new(Arc::new(MemoryStore::new(std::time::Duration::from_secs(60))), "more")
    ///     .arg_names("id", "from");
    /// assert_eq!(fetch.get_arg_names(), ("id", "from", "query"));
    /// ```
    #[must_use]
    pub fn arg_names(mut self, reference: &str, cursor: &str) -> Self {
        reference.clone_into(&mut self.ref_arg);
        cursor.clone_into(&mut self.cursor_arg);
        self
    }

    /// Names the query argument (default `query`).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use tool_output_format::store::{MemoryStore, Fetch};
    /// let fetch = Fetch::new(Arc::new(MemoryStore::new(std::time::Duration::from_secs(60))), "more")
    ///     .query_arg("q");
    /// assert_eq!(fetch.get_arg_names().2, "q");
    /// ```
    #[must_use]
    pub fn query_arg(mut self, name: &str) -> Self {
        name.clone_into(&mut self.query_arg);
        self
    }

    /// Rows per page (at least 1). Unset, a page holds as many rows as its budget does (the
    /// formatter's, or the stored result's tool's), or [`DEFAULT_PAGE_SIZE`] when it has no
    /// budget: a budget the user set is the bound. A stored text's pages are bounded by the
    /// budget and the line cap instead ([`Fetch::call`]); its structured page
    /// ([`Fetch::page`]) holds this many lines.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use tool_output_format::store::{MemoryStore, Fetch};
    /// let fetch = Fetch::new(Arc::new(MemoryStore::new(std::time::Duration::from_secs(60))), "more")
    ///     .page_size(0);
    /// assert_eq!(fetch.get_page_size(), 1);
    /// ```
    #[must_use]
    pub fn page_size(mut self, rows: usize) -> Self {
        self.page_size = Some(rows.max(1));
        self
    }

    /// The tool's name.
    #[must_use]
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The argument names: reference, cursor, query.
    #[must_use]
    pub fn get_arg_names(&self) -> (&str, &str, &str) {
        (&self.ref_arg, &self.cursor_arg, &self.query_arg)
    }

    /// Rows per page as set, else [`DEFAULT_PAGE_SIZE`] (the size of a page without a
    /// budget; see [`Fetch::page_size`]).
    #[must_use]
    pub fn get_page_size(&self) -> usize {
        self.page_size.unwrap_or(DEFAULT_PAGE_SIZE)
    }

    /// Rows of one page of `tool`'s stored result (`origin`: the tool it came from): the
    /// size set, else as many as the page's budget can hold (a row costs at least one
    /// character and one token, so never more than the budget and one; the fit keeps those
    /// that fit and the Next line resumes at the first it left out), else
    /// [`DEFAULT_PAGE_SIZE`].
    pub(super) fn rows_per_page(&self, origin: Option<&str>) -> usize {
        self.page_size.unwrap_or_else(|| {
            self.formatter
                .page_budget(&self.tool, origin)
                .map_or(DEFAULT_PAGE_SIZE, |b| b.saturating_add(1))
        })
    }

    /// The page of the stored result `reference` that starts at `cursor` (`None`: the first),
    /// keeping only rows that match `query` when given.
    ///
    /// # Errors
    ///
    /// Fails when the store does (expired, unknown, unavailable) or the cursor is not a row
    /// position, or not a line (and character) of a stored text
    /// ([`StoreErrorKind::Unknown`](super::StoreErrorKind::Unknown), saying how to start
    /// over). A stored text's page holds its lines from the cursor
    /// (`page_size` of them, the first from the cursor's character on).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use serde_json::json;
    /// use tool_output_format::store::{MemoryStore, ResultStore, Fetch};
    /// let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(std::time::Duration::from_secs(60)));
    /// let r = store.put(&json!("one\ntwo\nthree")).unwrap();
    /// let page = Fetch::new(store, "more").page_size(2).page(&r, None, None).unwrap();
    /// assert_eq!(page.items(), [json!("one"), json!("two")]);
    /// assert!(page.get_has_more());
    /// assert_eq!(page.get_next_cursor(), Some("2"));
    /// assert_eq!(page.get_total(), Some(3));
    /// ```
    pub fn page(
        &self,
        reference: &str,
        cursor: Option<&str>,
        query: Option<&str>,
    ) -> Result<Page<Value>, StoreError> {
        Ok(self
            .served(reference, cursor, query)?
            .into_page(self.get_page_size()))
    }

    /// What the tool serves for these arguments (sync stores).
    fn served(
        &self,
        reference: &str,
        cursor: Option<&str>,
        query: Option<&str>,
    ) -> Result<Served, StoreError> {
        let at = self.cursor(cursor)?;
        let (value, origin) = match &self.store {
            Source::Sync(store) => (store.get(reference)?, store.origin(reference)),
            #[cfg(feature = "async")]
            Source::Async(_) => {
                return Err(StoreError::new(
                    super::StoreErrorKind::Config,
                    "the result store is asynchronous and this server read it on the sync \
                     path, a bug of the server's (it should use Fetch::call_async or \
                     mcp_call_async); the stored result cannot be read this way",
                ));
            }
        };
        self.serve(value, reference, at, query, origin)
    }

    /// What the tool serves for these arguments, awaiting an async store.
    #[cfg(feature = "async")]
    async fn served_async(
        &self,
        reference: &str,
        cursor: Option<&str>,
        query: Option<&str>,
    ) -> Result<Served, StoreError> {
        let at = self.cursor(cursor)?;
        let (value, origin) = match &self.store {
            Source::Sync(store) => (store.get(reference)?, store.origin(reference)),
            Source::Async(store) => (
                store.get_async(reference).await?,
                store.origin_async(reference).await,
            ),
        };
        self.serve(value, reference, at, query, origin)
    }

    /// [`Fetch::page`] without blocking: an async store is awaited (a sync one is read as
    /// [`Fetch::page`] reads it).
    ///
    /// # Errors
    ///
    /// As [`Fetch::page`]: the store's error, or a cursor that is not a row position.
    #[cfg(feature = "async")]
    pub async fn page_async(
        &self,
        reference: &str,
        cursor: Option<&str>,
        query: Option<&str>,
    ) -> Result<Page<Value>, StoreError> {
        Ok(self
            .served_async(reference, cursor, query)
            .await?
            .into_page(self.get_page_size()))
    }

    /// [`Fetch::call`] without blocking (see [`Fetch::page_async`]).
    #[cfg(feature = "async")]
    pub async fn call_async(
        &self,
        reference: &str,
        cursor: Option<&str>,
        query: Option<&str>,
    ) -> String {
        let served = self.served_async(reference, cursor, query).await;
        self.write(served.map_err(|e| e.to_tool_error()))
    }

    /// [`Fetch::call_args`] without blocking (see [`Fetch::page_async`]).
    #[cfg(feature = "async")]
    pub async fn call_args_async(&self, args: &Map<String, Value>) -> String {
        self.write(self.served_args_async(args).await)
    }

    /// What the tool serves for `args`, awaiting an async store.
    #[cfg(feature = "async")]
    pub(crate) async fn served_args_async(
        &self,
        args: &Map<String, Value>,
    ) -> Result<Served, ToolError> {
        let (reference, cursor, query) = self.args(args)?;
        self.served_async(&reference, cursor.as_deref(), query.as_deref())
            .await
            .map_err(|e| e.to_tool_error())
    }

    /// The page as the model reads it: rendered by the formatter (never stored), or the
    /// store's error as a tool error (`**get_stored_result failed**` and what to do).
    #[must_use]
    pub fn call(&self, reference: &str, cursor: Option<&str>, query: Option<&str>) -> String {
        let served = self.served(reference, cursor, query);
        self.write(served.map_err(|e| e.to_tool_error()))
    }

    /// [`Fetch::call`] with the tool call's arguments as sent (an object; the cursor may be a
    /// string or a number), read by the configured names.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use serde_json::json;
    /// use tool_output_format::store::{MemoryStore, ResultStore, Fetch};
    /// let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(std::time::Duration::from_secs(60)));
    /// let r = store.put(&json!([1, 2, 3])).unwrap();
    /// let fetch = Fetch::new(store, "more").arg_names("id", "from");
    /// let args = json!({"id": r, "from": 2});
    /// assert!(fetch.call_args(args.as_object().unwrap()).contains("has_more: false"));
    /// let missing = fetch.call_args(&serde_json::Map::new());
    /// assert!(missing.starts_with("**more failed**"), "{missing}");
    /// ```
    #[must_use]
    pub fn call_args(&self, args: &Map<String, Value>) -> String {
        self.write(self.served_args(args))
    }

    /// What the tool serves for `args` (sync stores).
    pub(crate) fn served_args(&self, args: &Map<String, Value>) -> Result<Served, ToolError> {
        let (reference, cursor, query) = self.args(args)?;
        self.served(&reference, cursor.as_deref(), query.as_deref())
            .map_err(|e| e.to_tool_error())
    }

    /// The reference, cursor and query of a call's arguments, read by the configured names
    /// (the cursor may be a string or a number).
    #[allow(clippy::type_complexity)]
    fn args(
        &self,
        args: &Map<String, Value>,
    ) -> Result<(String, Option<String>, Option<String>), ToolError> {
        let text = |name: &str| match args.get(name) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        let Some(reference) = text(&self.ref_arg) else {
            return Err(ToolError::new(
                ErrorKind::InvalidInput,
                format!(
                    "the argument \"{}\" is missing: pass the reference from the result's Next line",
                    self.ref_arg
                ),
            ));
        };
        Ok((reference, text(&self.cursor_arg), text(&self.query_arg)))
    }

    /// The result the tool returns for `args`: the page, or the error.
    ///
    /// # Errors
    ///
    /// An `invalid_input` [`ToolError`] when the reference argument is missing, and the
    /// errors of [`Fetch::result`].
    pub fn result_args(&self, args: &Map<String, Value>) -> Result<Page<Value>, ToolError> {
        self.served_args(args)
            .map(|s| s.into_page(self.get_page_size()))
    }

    /// The result the tool returns: the page, or the error.
    ///
    /// # Errors
    ///
    /// The [`StoreError`] of [`Fetch::page`] as a [`ToolError`] (`not_found` for an expired or
    /// unknown reference or a bad cursor, `unavailable` when the store is down, for example).
    pub fn result(
        &self,
        reference: &str,
        cursor: Option<&str>,
        query: Option<&str>,
    ) -> Result<Page<Value>, ToolError> {
        self.page(reference, cursor, query)
            .map_err(|e| e.to_tool_error())
    }

    /// The formatter pages are rendered with (it has no store).
    #[must_use]
    pub fn get_formatter(&self) -> &Formatter {
        &self.formatter
    }
}

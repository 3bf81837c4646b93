//! [`Fetch`]: the fetch side of trim and reference (the rules are on the type).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::parts::{Short, cut_parts, piece_end};
use super::{CURSOR_ARG, ResultStore, StoreError, StoreErrorKind};
use crate::agent::{ErrorKind, NextAction, Page, ToToolError, ToolError};
use crate::formatter::Formatter;

/// Rows per page unless set ([`Fetch::page_size`]).
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
///   lines, as rows. Any other value (a record, a
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
/// - renders `page_size` of them from the **cursor** (the position of the next row, a decimal
///   number: the cut text's Next line gives where it stopped) as a [`Page`]: its footer says
///   `has_more`, the `next_cursor` and the next call,
///   `Next: call get_stored_result(ref="r_...", cursor="50")`;
/// - after the rows, serves **the values the first text shortened**: when the first text of
///   a table shortened values of the rows it showed (to fit its budget, or by a cell cap),
///   its Next line's cursor is `"K;K>C"`: the rows from `K` (the first row it did not show,
///   so no row is served twice), then the values of the rows before `K` that shortening to
///   `C` characters cut. The last page of rows goes on to them (`cursor="v0;K>C"`): a table
///   of `row` (its position, from 1), `column` and the `value` whole, page by page
///   (`"vI;K>C"`: from the `I`-th), and the last of those pages ends with the stored page's
///   own next call, if any. `"25"` alone: the rows from 25, nothing shortened;
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
/// use tool_output_format::{Formatter, MemoryStore, ResultStore};
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
    tool: String,
    formatter: Formatter,
    ref_arg: String,
    cursor_arg: String,
    query_arg: String,
    page_size: usize,
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
    /// use tool_output_format::{MemoryStore, store::Fetch};
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
            page_size: DEFAULT_PAGE_SIZE,
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
    /// use tool_output_format::{Formatter, MemoryStore, ResultStore, store::Fetch};
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
    /// use tool_output_format::{MemoryStore, store::Fetch};
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
    /// use tool_output_format::{MemoryStore, store::Fetch};
    /// let fetch = Fetch::new(Arc::new(MemoryStore::new(std::time::Duration::from_secs(60))), "more")
    ///     .query_arg("q");
    /// assert_eq!(fetch.get_arg_names().2, "q");
    /// ```
    #[must_use]
    pub fn query_arg(mut self, name: &str) -> Self {
        name.clone_into(&mut self.query_arg);
        self
    }

    /// Rows per page (at least 1). A stored text's pages are bounded by the budget and the
    /// line cap instead ([`Fetch::call`]); its structured page ([`Fetch::page`]) holds this
    /// many lines.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use tool_output_format::{MemoryStore, store::Fetch};
    /// let fetch = Fetch::new(Arc::new(MemoryStore::new(std::time::Duration::from_secs(60))), "more")
    ///     .page_size(0);
    /// assert_eq!(fetch.get_page_size(), 1);
    /// ```
    #[must_use]
    pub fn page_size(mut self, rows: usize) -> Self {
        self.page_size = rows.max(1);
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

    /// Rows per page.
    #[must_use]
    pub fn get_page_size(&self) -> usize {
        self.page_size
    }

    /// The page of the stored result `reference` that starts at `cursor` (`None`: the first),
    /// keeping only rows that match `query` when given.
    ///
    /// # Errors
    ///
    /// Fails when the store does (expired, unknown, unavailable) or the cursor is not a row
    /// position, or not a line (and character) of a stored text ([`StoreErrorKind::Unknown`],
    /// saying how to start over). A stored text's page holds its lines from the cursor
    /// (`page_size` of them, the first from the cursor's character on).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use serde_json::json;
    /// use tool_output_format::{MemoryStore, ResultStore, store::Fetch};
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
            .into_page(self.page_size))
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
                    StoreErrorKind::Config,
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
            .into_page(self.page_size))
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

    /// The text the model reads for what is served: a page of rows, a whole record, or the
    /// error (`**get_stored_result failed**` and what to do).
    pub(crate) fn write(&self, served: Result<Served, ToolError>) -> String {
        match served {
            Ok(Served::Rows {
                page,
                last,
                origin,
                reference,
            }) => {
                let origin = origin.as_deref();
                // The last page ends with the stored page's own next call, unless a cap or
                // the budget cuts it: then the next call is this tool's, from the first row
                // left out.
                if let Some(last) = &last {
                    let out = self.render(origin, false, last);
                    if !rows_cut(&out.report) && !part_cut(&out.report) {
                        return out.text;
                    }
                }
                let out = self.render(origin, false, &page);
                if !omitted(&out.report) && !part_cut(&out.report) {
                    return out.text;
                }
                // The budget shortened values (or left out every row), or a row's nested
                // table was capped: the most rows from the cursor that show every value and
                // every nested row, and the next page resumes after them, so no part of a
                // row is only ever seen cut.
                if let Some(text) = self.whole_rows(origin, &page) {
                    return text;
                }
                // Not one row fits the budget whole: a record row of several fields is served
                // in runs of its leaves, then the next row.
                if let (Some(row), Some(label)) = (
                    page.items().first(),
                    page.get_item_cursors().and_then(|c| c.first().cloned()),
                ) && super::leaves::count(row) > 1
                    && (last.is_none() || page.len() > 1)
                {
                    return self.row_leaves(&page, row, &label, 0, &reference, origin);
                }
                // Else the row at the cursor alone, over the budget and said so, so the walk
                // moves on and no row is out of reach.
                let first = page.items().first().cloned();
                let Some(row) = first else { return out.text };
                // The last row of a stored page goes on with the page's own next call.
                let source = match &last {
                    Some(last) if page.len() == 1 => last,
                    _ => &page,
                };
                let alone = self.first_rows(source, vec![row]);
                let whole = self.render(origin, true, &alone).text;
                let over = if omitted(&out.report) || shortened(&out.report) {
                    "the budget"
                } else {
                    "the row caps"
                };
                shown_over(over, "this row alone needs", " whole", &whole)
            }
            Ok(Served::Whole(value, reference, origin)) => {
                let origin = origin.as_deref();
                match self.record_or_runs(&value, &reference, origin) {
                    Ok((text, _)) => text,
                    Err(()) => self.leaf_run(&value, 0, &reference, origin),
                }
            }
            Ok(Served::Leaves(value, k, reference, origin)) => {
                self.leaf_run(&value, k, &reference, origin.as_deref())
            }
            Ok(Served::RowLeaves {
                page,
                k,
                row,
                origin,
                reference,
            }) => match page.items().first() {
                Some(first) => {
                    self.row_leaves(&page, first, &row, k, &reference, origin.as_deref())
                }
                None => self.render(origin.as_deref(), false, &page).text,
            },
            Ok(Served::Text(part, reference, origin)) => {
                self.text_part(&part, &reference, origin.as_deref())
            }
            Ok(Served::Passage {
                text,
                start,
                reference,
                origin,
            }) => {
                let next = |cursor: &str| {
                    self.call_for(&reference, None)
                        .arg(&self.cursor_arg, cursor)
                        .line()
                };
                self.formatter
                    .format_text_page(&self.tool, origin.as_deref(), &text, start, &next)
            }
            Err(e) => self
                .formatter
                .format(&self.tool, &Err::<Value, ToolError>(e)),
        }
    }

    /// Where a cursor points (none: the first row).
    fn cursor(&self, cursor: Option<&str>) -> Result<Cursor, StoreError> {
        let Some(c) = cursor.map(str::trim).filter(|c| !c.is_empty()) else {
            return Ok(Cursor::Row(0));
        };
        // A row's leaf: `ROW@K`, where ROW is a cursor of a row (a JSON pointer's keys may
        // hold `@`, so K must be digits and ROW a cursor).
        // `ROW@K/I`: from the `I`-th item of that leaf (a list).
        if let Some((row, at)) = c.rsplit_once('@')
            && !row.is_empty()
            && let (k, item) = at.split_once('/').map_or((at, None), |(k, i)| (k, Some(i)))
            && let Ok(k) = k.parse::<usize>()
            && let Ok(item) = item.map(str::parse::<usize>).transpose()
            && let Ok(row) = self.cursor(Some(row))
            && !matches!(row, Cursor::Leaf(_))
        {
            return Ok(Cursor::RowLeaf(Box::new(row), k, item));
        }
        let parsed = if let Some((at, short)) = c.split_once(';') {
            let short = Short::parse(short);
            match at.strip_prefix('v') {
                Some(i) => i.parse().ok().zip(short).map(|(i, s)| Cursor::Values(i, s)),
                None => at.parse().ok().zip(short).map(|(r, s)| Cursor::Short(r, s)),
            }
        } else if let Some(k) = c.strip_prefix('@') {
            k.parse().ok().map(Cursor::Leaf)
        } else if c.starts_with('/') {
            c.rsplit_once('/')
                .and_then(|(at, row)| Some(Cursor::In(at.to_owned(), row.parse().ok()?)))
        } else if let Some((line, col)) = c.split_once(':') {
            line.parse()
                .ok()
                .zip(col.parse().ok())
                .map(|(l, c)| Cursor::Char(l, c))
        } else {
            c.parse().ok().map(Cursor::Row)
        };
        parsed.ok_or_else(|| self.bad_cursor(c))
    }

    /// The text of the most rows from the start of `page` (fewer than all) that fit the
    /// budget with no row left out and no value shortened, found by bisection; `None` when
    /// not even the first row does.
    fn whole_rows(&self, origin: Option<&str>, page: &Page<Value>) -> Option<String> {
        most_that_fit(page.len(), |k| {
            let head = self.first_rows(page, page.items()[..k].to_vec());
            let out = self.render(origin, false, &head);
            (!rows_cut(&out.report) && !part_cut(&out.report)).then_some(out.text)
        })
    }

    /// `page` cut to its first rows (`rows`), resuming at the next.
    fn first_rows(&self, page: &Page<Value>, rows: Vec<Value>) -> Page<Value> {
        let k = rows.len();
        let cursors = page.get_item_cursors().unwrap_or_default();
        let mut alone = Page::new(rows)
            .has_more(page.len() > k || page.get_has_more())
            .item_cursors(cursors.iter().take(k).cloned());
        if let Some(t) = page.get_total() {
            alone = alone.total(t);
        }
        let next = cursors
            .get(k)
            .map(String::as_str)
            .or(page.get_next_cursor());
        if let Some(c) = next {
            alone = alone.next_cursor(c);
        }
        if let Some((action, arg)) = page.get_next_call() {
            alone = alone.next_call_with(action.clone(), arg);
        }
        alone
    }

    /// What `value` is served as from the cursor `at` (see the type's docs).
    fn serve(
        &self,
        value: Value,
        reference: &str,
        at: Cursor,
        query: Option<&str>,
        origin: Option<String>,
    ) -> Result<Served, StoreError> {
        let query = query.map(str::trim).filter(|q| !q.is_empty());
        let at_values = match at {
            Cursor::Values(i, _) => Some(i),
            _ => None,
        };
        if let Cursor::RowLeaf(row, k, item) = at {
            let label = row.to_string();
            let bad =
                || self.bad_cursor(&Cursor::RowLeaf(Box::new(Cursor::Row(0)), k, item).to_string());
            return match (self.serve(value, reference, *row, query, origin)?, item) {
                (
                    Served::Rows {
                        page,
                        origin,
                        reference,
                        ..
                    },
                    Some(i),
                ) => self
                    .leaf_items(&page, k, i, &label, &reference, origin)
                    .ok_or_else(bad),
                (
                    Served::Rows {
                        page,
                        origin,
                        reference,
                        ..
                    },
                    None,
                ) => Ok(Served::RowLeaves {
                    page,
                    k,
                    row: label,
                    origin,
                    reference,
                }),
                _ => Err(bad()),
            };
        }
        match (rows_of(value), at) {
            // A text queried: its matching lines, as rows.
            (Stored::Text(text), Cursor::Row(start)) if query.is_some() => Ok(self.rows_page(
                crate::text::lines(&text)
                    .map(|l| Value::String(l.to_owned()))
                    .collect(),
                start,
                &|i| i.to_string(),
                Continue {
                    then: None,
                    after: None,
                },
                (reference, query, origin),
            )),
            // An empty text: served whole (an empty block).
            (Stored::Text(text), Cursor::Row(0)) if text.is_empty() => {
                Ok(Served::Whole(Value::String(text), reference.into(), origin))
            }
            // A text: from a line, or a character of a line, on.
            (Stored::Text(text), at @ (Cursor::Row(_) | Cursor::Char(..))) if query.is_none() => {
                let (line, col) = match at {
                    Cursor::Char(l, c) => (l, c),
                    Cursor::Row(l) => (l, 0),
                    _ => unreachable!("matched above"),
                };
                let passage = crate::cut::passage::Passage::new(&text);
                let Some(start) = passage.position(&format!("{line}:{col}")) else {
                    return Err(self.bad_text_cursor(line, col, passage.lines()));
                };
                Ok(Served::Passage {
                    text,
                    start,
                    reference: reference.into(),
                    origin,
                })
            }
            (Stored::Text(_), c) => Err(self.bad_cursor(&c.to_string())),
            // The rows from the cursor, then the values the first text shortened, then the
            // stored page's own next call.
            (Stored::Rows(rows, _), Cursor::Short(start, short)) if start < rows.len() => {
                let label = |i: usize| short.row_cursor(i);
                let more = Continue {
                    then: None,
                    after: Some(short.value_cursor(0)),
                };
                Ok(self.rows_page(rows, start, &label, more, (reference, query, origin)))
            }
            (Stored::Rows(rows, then), Cursor::Short(_, short) | Cursor::Values(_, short)) => {
                let start = at_values.unwrap_or(0);
                let values = short.values(&rows);
                let label = |i: usize| short.value_cursor(i);
                let more = Continue { then, after: None };
                Ok(self.rows_page(values, start, &label, more, (reference, None, origin)))
            }
            (Stored::Rows(rows, then), Cursor::Row(start)) => Ok(self.rows_page(
                rows,
                start,
                &|i| i.to_string(),
                Continue { then, after: None },
                (reference, query, origin),
            )),
            (Stored::Whole(value), Cursor::Row(_)) => {
                Ok(Served::Whole(value, reference.into(), origin))
            }
            (Stored::Whole(value), Cursor::Leaf(k)) if k < super::leaves::count(&value) => {
                Ok(Served::Leaves(value, k, reference.into(), origin))
            }
            // The rest of a table or a text the record's text cut, then the next part.
            (Stored::Whole(value), Cursor::In(at, start)) => {
                let inner = match value.pointer(&at) {
                    Some(Value::Array(rows)) => Ok(rows.clone()),
                    Some(Value::String(text)) => Err(text.clone()),
                    _ => return Err(self.bad_cursor(&format!("{at}/{start}"))),
                };
                let after = self.after_part(&value, &at, reference, origin.as_deref());
                match inner {
                    Ok(rows) => {
                        let label = |i: usize| format!("{at}/{i}");
                        let more = Continue { then: None, after };
                        Ok(self.rows_page(rows, start, &label, more, (reference, query, origin)))
                    }
                    Err(text) => Ok(Served::Text(
                        TextPart {
                            text,
                            at,
                            start,
                            after,
                        },
                        reference.into(),
                        origin,
                    )),
                }
            }
            (Stored::Rows(..) | Stored::Whole(_), c) => Err(self.bad_cursor(&c.to_string())),
        }
    }

    /// A page of `rows` from `start`, each row's cursor `label(i)`, `more` after the last;
    /// `call`: the stored result's reference, the query and the tool whose result it is.
    fn rows_page(
        &self,
        mut rows: Vec<Value>,
        start: usize,
        label: &dyn Fn(usize) -> String,
        more: Continue,
        call: (&str, Option<&str>, Option<String>),
    ) -> Served {
        let (reference, query, origin) = call;
        let query = query.map(str::trim).filter(|q| !q.is_empty());
        if let Some(q) = query {
            let words: Vec<String> = q.split_whitespace().map(str::to_lowercase).collect();
            rows.retain(|row| matches(row, &words));
        }
        let total = rows.len();
        let end = start.saturating_add(self.page_size).min(total);
        let items: Vec<Value> = rows
            .into_iter()
            .skip(start)
            .take(end.saturating_sub(start))
            .collect();
        let next = self.call_for(reference, query);
        let Continue { then, after } = more;
        // After the last row of a stored page comes its own next call: on the last page
        // when it fits (`last`), else one more fetch (cursor at the end) serves it alone.
        // After the last row of a record's table comes the next table the record cut.
        let at_end = if end < total {
            Some(label(end))
        } else {
            after.or_else(|| then.is_some().then(|| label(end)))
        };
        let last = then.filter(|_| end >= total).map(|then| {
            Page::new(items.clone())
                .has_more(true)
                .total(total as u64)
                .next_cursor(then.cursor)
                .next_call_with(then.action, then.arg)
        });
        let mut page = Page::new(items)
            .has_more(at_end.is_some())
            .total(total as u64)
            .item_cursors((start..end).map(label))
            .next_call_with(next, &self.cursor_arg);
        if let Some(c) = at_end {
            page = page.next_cursor(c);
        }
        Served::Rows {
            page,
            last,
            origin,
            reference: reference.to_owned(),
        }
    }

    /// `result` as this tool serves it (see [`Formatter::format_stored`]).
    fn render<T: crate::ToolOutput + ?Sized>(
        &self,
        origin: Option<&str>,
        unbounded: bool,
        result: &T,
    ) -> crate::Formatted {
        self.formatter
            .format_stored(&self.tool, origin, unbounded, result)
    }

    /// This tool's call for the stored result `reference` (and the query), without a cursor.
    fn call_for(&self, reference: &str, query: Option<&str>) -> NextAction {
        let mut next = NextAction::call(&self.tool).arg(&self.ref_arg, reference);
        if let Some(q) = query.map(str::trim).filter(|q| !q.is_empty()) {
            next = next.arg(&self.query_arg, q);
        }
        next
    }

    /// A stored record as the model reads it, whole (full detail), and the parts it cuts
    /// (see [`cut_parts`]). When it cuts one, the text ends with the call to the first
    /// part's rest (part of the document, inside the budget); the parts are then those of
    /// the text with that line.
    fn record_with_report(
        &self,
        value: &Value,
        reference: &str,
        origin: Option<&str>,
    ) -> (String, Vec<(String, usize)>, crate::Report) {
        let out = self.render(origin, false, value);
        let mut parts = cut_parts(value, &out.report);
        let Some(mut first) = parts.first().cloned() else {
            return (out.text, parts, out.report);
        };
        let mut last = out;
        // The Next line takes room: a table may show fewer rows with it; settle the cursor.
        for _ in 0..3 {
            let next = self
                .call_for(reference, None)
                .arg(&self.cursor_arg, format!("{}/{}", first.0, first.1));
            let reply = crate::agent::Reply::new(value.clone()).next(next);
            last = self.render(origin, false, &reply);
            parts = cut_parts(value, &last.report);
            match parts.first() {
                Some(p) if *p != first => first = p.clone(),
                _ => break,
            }
        }
        (last.text, parts, last.report)
    }

    /// [`Fetch::record_with_report`], or `Err` when its page leaves fields out of a record of more than
    /// one leaf: then the record is served in runs of its leaves ([`Fetch::leaf_run`]).
    fn record_or_runs(
        &self,
        value: &Value,
        reference: &str,
        origin: Option<&str>,
    ) -> Result<(String, Vec<(String, usize)>), ()> {
        let (text, parts, report) = self.record_with_report(value, reference, origin);
        if fields_cut(&report) && super::leaves::count(value) > 1 {
            return Err(());
        }
        Ok((text, parts))
    }

    /// The page of a stored record from its `k`-th leaf: the most leaves from there (at least
    /// one) whose fields fit the budget with nothing cut, found by bisection, and the call for
    /// the next leaf. A leaf that does not fit alone is served as a record of that one field,
    /// whose cut parts (a table's rows, a long text) the next calls serve before the next
    /// leaf.
    fn leaf_run(&self, value: &Value, k: usize, reference: &str, origin: Option<&str>) -> String {
        let run = Run {
            label: &|j| format!("@{j}"),
            after: None,
            in_row: None,
        };
        self.leaves_from(value, k, reference, origin, &run)
    }

    /// The page of `value` (a stored record, or a row of stored rows) from its `k`-th leaf
    /// (see [`Fetch::leaf_run`]): the next leaf's cursor is `run.label(j)`, and after the
    /// last leaf comes `run.after`.
    fn leaves_from(
        &self,
        value: &Value,
        k: usize,
        reference: &str,
        origin: Option<&str>,
        run: &Run<'_>,
    ) -> String {
        let n = super::leaves::count(value);
        let next_at = |end: usize| {
            let cursor = if end < n {
                Some((run.label)(end))
            } else {
                run.after.clone()
            };
            cursor.map(|c| self.call_for(reference, None).arg(&self.cursor_arg, c))
        };
        // The leaves `k..end` with the call for what comes after them (none after the last).
        let with_next = |end: usize, unbounded: bool| {
            let part = super::leaves::pruned(value, k..end);
            match next_at(end) {
                Some(next) => self.render(
                    origin,
                    unbounded,
                    &crate::agent::Reply::new(part).next(next),
                ),
                None => self.render(origin, unbounded, &part),
            }
        };
        let run_page = |end: usize| with_next(end, false);
        // Nothing cut: no notice (a field, a row, an item, a line left out, a value
        // shortened), no nested part capped.
        let whole =
            |out: &crate::Formatted| out.report.notices.is_empty() && !part_cut(&out.report);
        let all = run_page(n);
        if whole(&all) {
            return all.text;
        }
        if let Some(text) = most_that_fit(n - k, |j| {
            let out = run_page(k + j);
            whole(&out).then_some(out.text)
        }) {
            return text;
        }
        if let Some((page, label)) = run.in_row {
            // A row's list that alone does not fit: its items, page by page, then the next
            // leaf.
            if let Some(items) =
                self.leaf_items(page, k, 0, label, reference, origin.map(str::to_owned))
            {
                return self.write(Ok(items));
            }
            // Another leaf alone over the budget: shown whole and said so, and the walk goes
            // on with the next leaf.
            let whole = with_next(k + 1, true).text;
            return shown_over("the budget", "this field alone needs", " whole", &whole);
        }
        // One leaf alone is cut. A list or a text is served as the rest of a record's part
        // is (rows or pieces of text, from the first), then the next leaf.
        if let Some((at, Value::Array(_) | Value::String(_))) = super::leaves::nth(value, k) {
            let served = self.serve(
                value.clone(),
                reference,
                Cursor::In(at, 0),
                None,
                origin.map(str::to_owned),
            );
            return self.write(served.map_err(|e| e.to_tool_error()));
        }
        // Another value: its parts (if any) are served next, then the next leaf.
        let one = super::leaves::pruned(value, k..k + 1);
        let (text, parts, _) = self.record_with_report(&one, reference, origin);
        if parts.is_empty() && k + 1 < n {
            // Cut with no part to serve (its field over the budget whatever is done): the
            // walk goes on with the next leaf.
            return with_next(k + 1, false).text;
        }
        text
    }

    /// The first row of `page` (`row`, whose cursor is `label`) from its `k`-th leaf: its
    /// leaves' cursors are `LABEL@J`, and after its last leaf comes the cursor of the next
    /// row of the page (or the page's next cursor).
    fn row_leaves(
        &self,
        page: &Page<Value>,
        row: &Value,
        label: &str,
        k: usize,
        reference: &str,
        origin: Option<&str>,
    ) -> String {
        let after = row_after(page);
        let run = Run {
            label: &|j| format!("{label}@{j}"),
            after,
            in_row: Some((page, label)),
        };
        self.leaves_from(row, k, reference, origin, &run)
    }

    /// The items of the `k`-th leaf (a list) of the first row of `page` (whose cursor is
    /// `label`), from the `i`-th, as rows (`LABEL@K/I`); after the last, the row's next leaf
    /// or, after its last leaf, the row after it. `None` when that leaf is not a list.
    fn leaf_items(
        &self,
        page: &Page<Value>,
        k: usize,
        i: usize,
        label: &str,
        reference: &str,
        origin: Option<String>,
    ) -> Option<Served> {
        let row = page.items().first()?;
        let (_, Value::Array(items)) = super::leaves::nth(row, k)? else {
            return None;
        };
        let after = if k + 1 < super::leaves::count(row) {
            Some(format!("{label}@{}", k + 1))
        } else {
            row_after(page)
        };
        let more = Continue { then: None, after };
        let item_label = |j: usize| format!("{label}@{k}/{j}");
        Some(self.rows_page(
            items.clone(),
            i,
            &item_label,
            more,
            (reference, None, origin),
        ))
    }

    /// The cursor after a stored record's part at `at`: the next part its page cut, or,
    /// for a record served in runs of its leaves, the next part of the leaf's own page, then
    /// the next leaf.
    fn after_part(
        &self,
        value: &Value,
        at: &str,
        reference: &str,
        origin: Option<&str>,
    ) -> Option<String> {
        let next_of = |cuts: &[(String, usize)]| {
            cuts.iter()
                .skip_while(|(p, _)| *p != at)
                .nth(1)
                .map(|(p, k)| format!("{p}/{k}"))
        };
        if let Ok((_, cuts)) = self.record_or_runs(value, reference, origin) {
            return next_of(&cuts);
        }
        let leaf = super::leaves::holding(value, at)?;
        let one = super::leaves::pruned(value, leaf..leaf + 1);
        let (_, cuts, _) = self.record_with_report(&one, reference, origin);
        next_of(&cuts)
            .or_else(|| (leaf + 1 < super::leaves::count(value)).then(|| format!("@{}", leaf + 1)))
    }

    /// The characters of a stored record's text from `start` that fit the budget, with the
    /// call for the next ones (or for the next part the record cut, `after`): the most that
    /// fit, found by bisection; when not even a few fit, a few, over the budget and said so.
    fn text_part(&self, part: &TextPart, reference: &str, origin: Option<&str>) -> String {
        let total = part.text.chars().count();
        let render = |chars: usize| {
            let end = piece_end(&part.text, part.start, chars);
            let piece: String = part
                .text
                .chars()
                .skip(part.start)
                .take(end - part.start)
                .collect();
            let value = serde_json::json!({
                "part": part.at,
                "characters": format!("{} to {end} of {total}", part.start + 1),
                "text": piece,
            });
            let next = if end < total {
                Some(format!("{}/{end}", part.at))
            } else {
                part.after.clone()
            };
            let mut reply = crate::agent::Reply::new(value);
            if let Some(c) = next {
                reply = reply.next(self.call_for(reference, None).arg(&self.cursor_arg, c));
            }
            self.render(origin, false, &reply)
        };
        let rest = total.saturating_sub(part.start);
        let whole = render(rest);
        if !whole.report.truncated() || rest <= 1 {
            return whole.text;
        }
        most_that_fit(rest, |k| {
            let out = render(k);
            (!out.report.truncated()).then_some(out.text)
        })
        .unwrap_or_else(|| {
            let few = render(crate::cut::fit::MIN_VALUE_CHARS.min(rest));
            shown_over("the budget", "these characters alone need", "", &few.text)
        })
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
    /// use tool_output_format::{MemoryStore, ResultStore, store::Fetch};
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
        self.served_args(args).map(|s| s.into_page(self.page_size))
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

    fn bad_text_cursor(&self, line: usize, col: usize, lines: usize) -> StoreError {
        StoreError::new(
            StoreErrorKind::Unknown,
            format!(
                "cursor \"{line}:{col}\" is not a position in this text of {lines} lines: pass \
                 the cursor of the previous page's Next line (\"L\" for line L from 0, \"L:C\" \
                 for its character C), or leave \"{}\" out to start from the first line",
                self.cursor_arg
            ),
        )
    }

    fn bad_cursor(&self, cursor: &str) -> StoreError {
        let mut shown = String::new();
        crate::text::escape_inline(
            &cursor.chars().take(40).collect::<String>(),
            false,
            &mut shown,
        );
        StoreError::new(
            StoreErrorKind::Unknown,
            format!(
                "cursor \"{shown}\" is unknown: pass the next_cursor of the previous page, or \
                 leave \"{}\" out to start from the first row",
                self.cursor_arg
            ),
        )
    }
}

/// `text` served past a bound, and said so: `[Over OVER: ALONE N characters; shown[ whole]
/// so the rest stays reachable]` above it (`N`: its length).
fn shown_over(over: &str, alone: &str, whole: &str, text: &str) -> String {
    let needed = text.chars().count();
    format!(
        "[Over {over}: {alone} {needed} characters; shown{whole} so the rest stays \
         reachable]\n\n{text}"
    )
}

/// The cursor after the first row of `page`: the next row's, or the page's next cursor.
fn row_after(page: &Page<Value>) -> Option<String> {
    page.get_item_cursors()
        .and_then(|c| c.get(1).cloned())
        .or_else(|| page.get_next_cursor().map(str::to_owned))
}

/// Whether a cap or the budget left rows out (or everything).
fn rows_cut(report: &crate::Report) -> bool {
    report.notices.iter().any(|n| {
        matches!(
            n,
            crate::doc::notice::Notice::Rows { .. }
                | crate::doc::notice::Notice::Items { .. }
                | crate::doc::notice::Notice::Omitted { .. }
        )
    })
}

/// The text of the largest `k` in `1..fails` whose `try_k` fits (`Some`), by bisection,
/// assuming what fits grows with `k`; `None` when not even `k = 1` does.
fn most_that_fit(mut fails: usize, try_k: impl Fn(usize) -> Option<String>) -> Option<String> {
    let (mut fits, mut text) = (0, None);
    while fails - fits > 1 {
        let k = fits + (fails - fits) / 2;
        match try_k(k) {
            Some(t) => {
                fits = k;
                text = Some(t);
            }
            None => fails = k,
        }
    }
    text
}

/// Whether part of a row is cut: a value shortened by the budget, or a nested table capped.
fn part_cut(report: &crate::Report) -> bool {
    shortened(report) || report.nested_cut
}

/// Whether the budget shortened values (each then ends with `…[+N chars]`).
fn shortened(report: &crate::Report) -> bool {
    report
        .notices
        .iter()
        .any(|n| matches!(n, crate::doc::notice::Notice::Shortened { .. }))
}

/// Whether the budget left fields of a record out (or everything).
fn fields_cut(report: &crate::Report) -> bool {
    report.notices.iter().any(|n| {
        matches!(
            n,
            crate::doc::notice::Notice::Fields { .. } | crate::doc::notice::Notice::Omitted { .. }
        )
    })
}

/// Whether nothing of the result fit the budget.
fn omitted(report: &crate::Report) -> bool {
    report
        .notices
        .iter()
        .any(|n| matches!(n, crate::doc::notice::Notice::Omitted { .. }))
}

/// What a stored value is served as (made once per call and consumed at once).
#[allow(clippy::large_enum_variant)]
pub(crate) enum Served {
    /// A page of rows; `last`: the same page ending with the stored page's own next call
    /// (when this is the last page of a stored page's items).
    Rows {
        page: Page<Value>,
        last: Option<Page<Value>>,
        origin: Option<String>,
        /// The stored result's reference.
        reference: String,
    },
    /// The first row of a page of rows, from its `k`-th leaf (a row wider than the budget is
    /// served as a record in runs of its leaves); the cursor of that row; the reference.
    RowLeaves {
        page: Page<Value>,
        k: usize,
        row: String,
        origin: Option<String>,
        reference: String,
    },
    /// A record or a scalar, whole; the reference it is stored under; the tool whose result
    /// it is.
    Whole(Value, String, Option<String>),
    /// A stored record from a leaf on (a record whose page left fields out is served in
    /// runs of its leaves); the reference; the tool.
    Leaves(Value, usize, String, Option<String>),
    /// A text of a stored record, from a character on; the reference; the tool.
    Text(TextPart, String, Option<String>),
    /// A stored text served as text from byte `start` (see [`crate::cut::passage`]).
    Passage {
        text: String,
        start: usize,
        reference: String,
        origin: Option<String>,
    },
}

/// A text of a stored record served from a character on.
pub(crate) struct TextPart {
    /// The whole text.
    text: String,
    /// Its JSON pointer in the record.
    at: String,
    /// The first character to serve.
    start: usize,
    /// The cursor of the next part the record cut, after the last character.
    after: Option<String>,
}

/// Where a cursor points: a row of the stored rows, or a row of the array at a JSON pointer
/// inside a stored record (`/results/20`).
enum Cursor {
    Row(usize),
    In(String, usize),
    /// A character of a line of a stored text (`"12:300"`).
    Char(usize, usize),
    /// A row, then the values the first text shortened (`"25;25>34"`).
    Short(usize, Short),
    /// The `i`-th value the first text shortened (`"v3;25>34"`).
    Values(usize, Short),
    /// A stored record from its `k`-th leaf on (`"@12"`; see [`super::leaves`]).
    Leaf(usize),
    /// A row (at the cursor before the `@`) from its `k`-th leaf on (`"3@5"`, `"/items/3@5"`).
    /// With `Some(i)`: that leaf (a list) from its `i`-th item (`"/items/3@5/20"`).
    RowLeaf(Box<Cursor>, usize, Option<usize>),
}

impl std::fmt::Display for Cursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cursor::Row(r) => write!(f, "{r}"),
            Cursor::In(at, r) => write!(f, "{at}/{r}"),
            Cursor::Char(l, c) => write!(f, "{l}:{c}"),
            Cursor::Short(r, s) => f.write_str(&s.row_cursor(*r)),
            Cursor::Values(i, s) => f.write_str(&s.value_cursor(*i)),
            Cursor::Leaf(k) => write!(f, "@{k}"),
            Cursor::RowLeaf(row, k, None) => write!(f, "{row}@{k}"),
            Cursor::RowLeaf(row, k, Some(i)) => write!(f, "{row}@{k}/{i}"),
        }
    }
}

/// How a run of leaves names its cursors: the `j`-th leaf's (`label`), and the one after the
/// last leaf (`after`, none: the walk ends).
struct Run<'l> {
    label: &'l dyn Fn(usize) -> String,
    after: Option<String>,
    /// The leaves are those of the first row of this page, whose cursor is this (not the
    /// stored record's own, whose parts have cursors of their own).
    in_row: Option<(&'l Page<Value>, &'l str)>,
}

/// What follows the last row of a page of rows: a stored page's own next call (`then`), or
/// this tool's cursor into the next table a record cut (`after`).
struct Continue {
    then: Option<Then>,
    after: Option<String>,
}

impl Served {
    /// As a page ([`Fetch::page`]): a whole value is a page of one item, a text the lines
    /// from the cursor (`page_size` of them).
    fn into_page(self, page_size: usize) -> Page<Value> {
        match self {
            Served::Rows { page, .. } | Served::RowLeaves { page, .. } => page,
            Served::Whole(value, ..) => Page::new(vec![value]).total(1),
            Served::Leaves(value, k, ..) => {
                let n = super::leaves::count(&value);
                Page::new(vec![super::leaves::pruned(&value, k..n)]).total(1)
            }
            Served::Text(part, ..) => {
                let rest: String = part.text.chars().skip(part.start).collect();
                Page::new(vec![Value::String(rest)]).total(1)
            }
            Served::Passage { text, start, .. } => {
                crate::cut::passage::Passage::new(&text).lines_page(start, page_size)
            }
        }
    }
}

/// A stored value split for serving: rows (and the call that continues after the last), or
/// a value served whole.
enum Stored {
    Rows(Vec<Value>, Option<Then>),
    Text(String),
    Whole(Value),
}

/// The call after the last stored row: a stored page's own next call.
struct Then {
    cursor: String,
    action: NextAction,
    arg: String,
}

/// The rows of a stored value: see the type documentation.
fn rows_of(value: Value) -> Stored {
    match value {
        Value::Array(items) => Stored::Rows(items, None),
        Value::String(s) => Stored::Text(s),
        Value::Object(mut map) => {
            // A stored page (the JSON form `Page` writes): its items, then its next call.
            if matches!(map.get("has_more"), Some(Value::Bool(_)))
                && let Some(Value::Array(_)) = map.get("items")
            {
                let then = then_of(&map);
                let Some(Value::Array(items)) = map.remove("items") else {
                    unreachable!("checked above")
                };
                return Stored::Rows(items, then);
            }
            // A stored reply around a list: the list.
            let reply_keys = ["result", "links", "references", "next"];
            if map.keys().all(|k| reply_keys.contains(&k.as_str()))
                && let Some(Value::Array(_)) = map.get("result")
            {
                let Some(Value::Array(items)) = map.remove("result") else {
                    unreachable!("checked above")
                };
                return Stored::Rows(items, None);
            }
            Stored::Whole(Value::Object(map))
        }
        other => Stored::Whole(other),
    }
}

/// A stored page's next call (`has_more` with a cursor and a call that passes it).
fn then_of(page: &Map<String, Value>) -> Option<Then> {
    if page.get("has_more") != Some(&Value::Bool(true)) {
        return None;
    }
    let cursor = page.get("next_cursor")?.as_str()?;
    let next = page.get("next")?.as_object()?;
    let tool = next.get("tool")?.as_str()?;
    let args = next.get("args")?.as_object()?;
    // The cursor's argument is the one that passes the page's cursor.
    let arg = args.iter().find(|(_, v)| v.as_str() == Some(cursor))?.0;
    let mut action = NextAction::call(tool);
    for (k, v) in args.iter().filter(|(k, _)| *k != arg) {
        action = action.arg(k, v.clone());
    }
    Some(Then {
        cursor: cursor.to_owned(),
        action,
        arg: arg.clone(),
    })
}

/// Whether every word occurs in the text of some value of `row` (case-insensitive).
fn matches(row: &Value, words: &[String]) -> bool {
    let mut text = String::new();
    scalars(row, &mut text);
    let text = text.to_lowercase();
    words.iter().all(|w| text.contains(w.as_str()))
}

fn scalars(v: &Value, out: &mut String) {
    match v {
        Value::Null => {}
        Value::Bool(b) => out.push_str(if *b { "true " } else { "false " }),
        Value::Number(n) => {
            out.push_str(&n.to_string());
            out.push(' ');
        }
        Value::String(s) => {
            out.push_str(s);
            out.push(' ');
        }
        Value::Array(items) => items.iter().for_each(|i| scalars(i, out)),
        Value::Object(map) => map.values().for_each(|i| scalars(i, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rows(v: Value) -> Vec<Value> {
        match rows_of(v) {
            Stored::Rows(rows, _) => rows,
            Stored::Whole(v) => panic!("served whole: {v}"),
            Stored::Text(t) => panic!("served as text: {t}"),
        }
    }

    fn whole(v: Value) -> Value {
        match rows_of(v) {
            Stored::Whole(v) => v,
            Stored::Rows(rows, _) => panic!("served as rows: {rows:?}"),
            Stored::Text(t) => panic!("served as text: {t}"),
        }
    }

    #[test]
    fn rows_of_each_kind_of_value() {
        assert_eq!(rows(json!([1, 2])), [json!(1), json!(2)]);
        assert!(matches!(rows_of(json!("a\nb")), Stored::Text(t) if t == "a\nb"));
        // A record is served whole, its arrays included (not its largest array alone).
        let record = json!({"total": 3, "a": [1], "b": [1, 2], "c": [3, 4]});
        assert_eq!(whole(record.clone()), record);
        assert_eq!(whole(json!({"x": 1})), json!({"x": 1}));
        assert_eq!(whole(json!(7)), json!(7));
        // A stored page: its items, then its own next call.
        let page = json!({"items": [1, 2], "has_more": true, "next_cursor": "c2",
                          "next": {"tool": "list", "args": {"status": "open", "cursor": "c2"}}});
        let Stored::Rows(items, Some(then)) = rows_of(page) else {
            panic!("a page with a next call")
        };
        assert_eq!(items, [json!(1), json!(2)]);
        assert_eq!((then.cursor.as_str(), then.arg.as_str()), ("c2", "cursor"));
        assert_eq!(
            then.action.arg(&then.arg, then.cursor.as_str()).line(),
            "Next: call list(status=\"open\", cursor=\"c2\")"
        );
        // A reply around a list: the list.
        assert_eq!(
            rows(json!({"result": [3, 4], "links": []})),
            [json!(3), json!(4)]
        );
    }

    #[test]
    fn query_words_all_match_values_not_keys() {
        let row = json!({"status": "Shipped", "city": "Oslo", "n": 12});
        let w = |q: &str| {
            q.split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        };
        assert!(matches(&row, &w("shipped oslo")));
        assert!(matches(&row, &w("12")));
        assert!(!matches(&row, &w("status")));
        assert!(!matches(&row, &w("shipped bergen")));
    }
}

//! [`Fetch`]: the fetch side of trim and reference (the rules are on the type).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{ResultStore, StoreError, StoreErrorKind};
use crate::agent::{ErrorKind, NextAction, Page, ToToolError, ToolError};
use crate::formatter::Formatter;

/// Rows per page unless set ([`Fetch::page_size`]).
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// A ready fetch handler for stored results: the fetch side of trim and reference. It serves
/// a stored result page by page, so the model reaches the last row of a result that was cut
/// to its first twenty.
///
/// A cut result ends with `Next: call get_stored_result(ref="r_...")`. Rendering the stored
/// value again through the same storing formatter would cut it to the same first rows and
/// store it once more, and the model would loop on the first page. `Fetch` instead:
///
/// - reads the stored value with [`ResultStore::get`] and splits it into **rows**: the items
///   of an array, the rows of the largest array field of an object (its other fields are left
///   out of the pages), or the lines of a string; anything else is one row;
/// - keeps only the rows that contain every word of the optional **query** (case-insensitive,
///   in the text of any value of the row);
/// - renders `page_size` of them from the **cursor** (the position of the next row, a decimal
///   number this tool wrote) as a [`Page`]: its footer says `has_more`, the `next_cursor` and
///   the next call, `Next: call get_stored_result(ref="r_...", cursor="50")`;
/// - renders with the formatter it was given **minus its store**: caps and budgets still apply
///   to the page, and when they cut it the cursor resumes at the first row left out (each row
///   carries its own cursor), but the page is never stored again.
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
            cursor_arg: "cursor".to_owned(),
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

    /// Renders pages with `formatter` (its caps, budgets, layout, secrets), without its store:
    /// a page is never stored again. Takes its reference argument name
    /// ([`Formatter::store_ref_arg`]) too.
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

    /// Rows per page (at least 1).
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
    /// position ([`StoreErrorKind::Unknown`], saying how to start over).
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
        let start = self.start(cursor)?;
        let value = match &self.store {
            Source::Sync(store) => store.get(reference)?,
            #[cfg(feature = "async")]
            Source::Async(_) => {
                return Err(StoreError::new(
                    StoreErrorKind::Config,
                    "this fetch tool reads an asynchronous store: call page_async or call_async",
                ));
            }
        };
        Ok(self.page_of(value, reference, start, query))
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
        let start = self.start(cursor)?;
        let value = match &self.store {
            Source::Sync(store) => store.get(reference)?,
            Source::Async(store) => store.get_async(reference).await?,
        };
        Ok(self.page_of(value, reference, start, query))
    }

    /// [`Fetch::call`] without blocking (see [`Fetch::page_async`]).
    #[cfg(feature = "async")]
    pub async fn call_async(
        &self,
        reference: &str,
        cursor: Option<&str>,
        query: Option<&str>,
    ) -> String {
        let result = self
            .page_async(reference, cursor, query)
            .await
            .map_err(|e| e.to_tool_error());
        self.formatter.format(&self.tool, &result)
    }

    /// The row a cursor points at (none: the first).
    fn start(&self, cursor: Option<&str>) -> Result<usize, StoreError> {
        match cursor.map(str::trim).filter(|c| !c.is_empty()) {
            None => Ok(0),
            Some(c) => c.parse::<usize>().map_err(|_| self.bad_cursor(c)),
        }
    }

    /// The page of `value` from row `start`.
    fn page_of(
        &self,
        value: Value,
        reference: &str,
        start: usize,
        query: Option<&str>,
    ) -> Page<Value> {
        let query = query.map(str::trim).filter(|q| !q.is_empty());
        let mut rows = rows_of(value);
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
        let mut next = NextAction::call(&self.tool).arg(&self.ref_arg, reference);
        if let Some(q) = query {
            next = next.arg(&self.query_arg, q);
        }
        let mut page = Page::new(items)
            .has_more(end < total)
            .total(total as u64)
            .item_cursors((start..end).map(|i| i.to_string()))
            .next_call_with(next, &self.cursor_arg);
        if end < total {
            page = page.next_cursor(end.to_string());
        }
        page
    }

    /// The page as the model reads it: rendered by the formatter (never stored), or the
    /// store's error as a tool error (`**get_stored_result failed**` and what to do).
    #[must_use]
    pub fn call(&self, reference: &str, cursor: Option<&str>, query: Option<&str>) -> String {
        self.formatter
            .format(&self.tool, &self.result(reference, cursor, query))
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
        self.formatter.format(&self.tool, &self.result_args(args))
    }

    /// The result the tool returns for `args`: the page, or the error.
    ///
    /// # Errors
    ///
    /// An `invalid_input` [`ToolError`] when the reference argument is missing, and the
    /// errors of [`Fetch::result`].
    pub fn result_args(&self, args: &Map<String, Value>) -> Result<Page<Value>, ToolError> {
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
        let cursor = text(&self.cursor_arg);
        let query = text(&self.query_arg);
        self.result(&reference, cursor.as_deref(), query.as_deref())
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

/// The rows of a stored value: see the module documentation.
fn rows_of(value: Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items,
        Value::String(s) => s.lines().map(|l| Value::String(l.to_owned())).collect(),
        Value::Object(mut map) => {
            let longest = map
                .iter()
                .filter_map(|(k, v)| v.as_array().map(|a| (a.len(), k)))
                // The first of the longest, in the object's order.
                .fold(None::<(usize, &String)>, |best, (n, k)| match best {
                    Some((m, _)) if m >= n => best,
                    _ => Some((n, k)),
                })
                .map(|(_, k)| k.clone());
            match longest.and_then(|k| map.remove(&k)) {
                Some(Value::Array(items)) => items,
                _ => vec![Value::Object(map)],
            }
        }
        other => vec![other],
    }
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

    #[test]
    fn rows_of_each_kind_of_value() {
        assert_eq!(rows_of(json!([1, 2])), [json!(1), json!(2)]);
        assert_eq!(rows_of(json!("a\nb")), [json!("a"), json!("b")]);
        assert_eq!(
            rows_of(json!({"total": 3, "a": [1], "b": [1, 2], "c": [3, 4]})),
            [json!(1), json!(2)]
        );
        assert_eq!(rows_of(json!({"x": 1})), [json!({"x": 1})]);
        assert_eq!(rows_of(json!(7)), [json!(7)]);
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

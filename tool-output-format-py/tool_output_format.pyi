"""Render LLM agent tool results as markdown a model reads reliably and cheaply.

The Python face of the Rust crate `tool-output-format`: the same text, byte for byte, for the
same input and options.

    >>> from tool_output_format import Formatter
    >>> print(Formatter(layout="compact").format("list_orders", [{"id": 1}, {"id": 2}]))
    |id|
    |-|
    |1|
    |2|

A result is any JSON-like value (dict, list, tuple, str, int, float, bool, None), a dataclass
instance or a pydantic model (through its dict form), a `datetime`/`date`/`time` (its ISO
text), an `Enum` member (its value), an agent shape (`Page`, `ToolError`, `Batch`, `Reply`),
or an exception (rendered as the `ToolError` of `ToolError.from_exception`).
"""

from os import PathLike
from typing import (
    Any,
    Callable,
    Iterable,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    TypedDict,
    Union,
    final,
)

from typing_extensions import Unpack

__version__: str

Layout = Literal["aligned", "compact", "csv"]
Strategy = Literal["head", "tail", "head_tail"]
Detail = Literal["summary", "full"]
ErrorKind = Literal[
    "invalid_input",
    "not_found",
    "permission_denied",
    "conflict",
    "rate_limited",
    "timeout",
    "unavailable",
    "cancelled",
    "internal",
]

class ShapeError(ValueError):
    """A mistake in a shape or a shape file; the message names where it is
    (`shape keep[1]: malformed path ...`)."""

class StoreError(Exception):
    """A result store that cannot keep or return a result: an expired or unknown reference,
    a result too large to store, a Redis that is down. The message says which."""

# The options, written once. They exist for type checkers only (this stub): at run time they
# are the keyword-only parameters of `Formatter`, `Formatter.for_agents` and `Formatter.tool`,
# which `inspect.signature` lists (tests/test_stub.py checks that the two agree).

class _ToolOptions(TypedDict, total=False):
    """The options of one tool (`Formatter.tool(name, ...)`), and the global ones of
    `Formatter(...)` and `Formatter.for_agents(...)`. All keyword-only and optional; `None`
    leaves one unset (its default or, per tool, the global value)."""

    max_lines: Optional[int]
    """Cap on string lines, and on table rows unless `max_rows` is set (default 100 when no
    budget is set; under `max_chars`, `max_tokens` or the agent preset the budget is the bound)."""
    max_rows: Optional[int]
    """Cap on table rows."""
    max_cell_chars: Optional[int]
    """Cap on one cell or record value (`…[+N chars]`)."""
    max_chars: Optional[int]
    """Budget for the whole output, in characters."""
    max_tokens: Optional[int]
    """Budget for the whole output, in o200k tokens."""
    layout: Optional[Layout]
    """`"aligned"` (default), `"compact"` or `"csv"`."""
    strategy: Optional[Strategy]
    """Which lines of a long string to keep: `"head"` (default), `"tail"`, `"head_tail"`."""
    redact_keys: Optional[Sequence[str]]
    """Keys whose values render as `[redacted]` (case-insensitive, nested too); per tool,
    added to the global ones."""
    shape: Union[Shape, Mapping[str, Any], None]
    """A `Shape` (or a shape file's dict) applied to every result; per tool, it replaces the
    global shape."""
    summarize: Optional[bool]
    """Add a summary over all rows when a table is cut."""
    sum: Optional[Sequence[str]]
    """Columns the summary sums."""
    detail: Optional[Detail]
    """`"summary"` (default) or `"full"`: with `for_agents()`, `"full"` shows the fields the
    preset folds out (serve a tool's `detail="full"` argument with it)."""
    salience: Optional[bool]
    """Keep what an agent needs under a budget: fields and columns ranked by their name and
    value, the least needed left out first (on in `for_agents()`)."""

class _FormatterOptions(_ToolOptions, total=False):
    """The options of `Formatter(...)` and `Formatter.for_agents(...)`: one tool's, and the
    store (one serves every tool)."""

    store: Union[MemoryStore, RedisStore, None]
    """Keeps the full result of a cut output; the output then ends with
    `Next: call FETCH_TOOL(ref="r_...")`."""
    fetch_tool: Optional[str]
    """The name of your fetch tool (default `"get_stored_result"`); needs `store`."""

@final
class Formatter:
    """Renders tool results as markdown a model reads well: the same text, byte for byte, as
    the Rust `Formatter` with the same options (`_FormatterOptions`). Immutable: `.tool()`
    and `.register()` return a new formatter. A bad value raises `ValueError` (`TypeError`
    for a wrong type or an unknown keyword)."""

    def __init__(self, **options: Unpack[_FormatterOptions]) -> None: ...
    @staticmethod
    def for_agents(**options: Unpack[_FormatterOptions]) -> Formatter:
        """The agent preset: compact layout; machine-only fields (API URLs and URL
        templates, node ids) and null or empty fields folded out of the view and named in
        one left-out line that says how to get them (`Call TOOL(detail="full")`, or the
        stored full result when `store` is set); a budget of 40,000 characters. Then these
        options on top."""
    def tool(self, name: str, **options: Unpack[_ToolOptions]) -> Formatter:
        """A new formatter with options for one tool; unset ones inherit the global options
        (`redact_keys` adds to them, `shape` replaces the global shape). Calling it again for
        the same tool replaces that tool's options (a registered renderer stays)."""
    def register(self, name: str, render: Callable[[Any], str]) -> Formatter:
        """A new formatter whose text for the tool `name` is written by `render(result)`: it
        receives the result's JSON form as Python data (redacted, shaped by the tool's
        options) and returns markdown, which then goes through the tool's line cap and
        budgets; when they cut it and a store is set, its whole text is stored and the Next
        line resumes it where the text stopped. An exception it raises is raised by the call
        that formats. `format_json` does not use it."""
    def format(self, tool: str, result: Any) -> str:
        """The result as markdown. An empty `tool` leaves out a record's title line."""
    def format_rows(self, tool: str, rows: Iterable[Any]) -> str:
        """Records from an iterable as one table, the same text as `format` of the whole
        list: only the rows the tool's row cap shows are kept (every row with a store), the
        rest counted, so the notice gives the true total."""
    def format_with_report(self, tool: str, result: Any) -> Formatted:
        """The markdown and what was produced and cut."""
    def format_json(self, tool: str, result: Any) -> Any:
        """The same shaped, capped result as data, for MCP structured content:
        `{"result": ..., "notices": [{"kind", "path", ..., "text"}]}`."""
    def focus(self, query: str, *, row_order: Literal["data", "ranked"] = "data") -> Focus:
        """A view that trims around `query`: long strings keep their most relevant sections,
        tables their most relevant rows (in the data's order, or best first)."""

@final
class Focus:
    """`Formatter.focus(query)`: the formatter's entry points, trimming around the query."""

    @property
    def query(self) -> str:
        """The query as notices show it (one line, at most 80 characters)."""
    def format(self, tool: str, result: Any) -> str:
        """The result as markdown, trimmed around the query."""
    def format_with_report(self, tool: str, result: Any) -> Formatted:
        """The trimmed markdown and its report (`report["focus"]`: the focus line and counts)."""
    def format_json(self, tool: str, result: Any) -> Any:
        """The structured form of the focused result; the focus line is the first notice."""

@final
class Formatted:
    """A rendered text with its report."""

    @property
    def text(self) -> str: ...
    @property
    def is_error(self) -> bool:
        """True for a failure (a `ToolError`, an exception), rendered as `**{tool} failed**`."""
    @property
    def report(self) -> dict[str, Any]:
        """`chars`, `bytes`, `tokens`, `rows` and `lines` (`{"kept", "total"}` or None),
        `values_shortened`, `notices` (their lines), `truncated`, `conversions_failed`,
        `shape_errors`, `reference` and `store_error` (the store), `focus`."""

@final
class Convert:
    """How one field's value is rewritten. A value a converter cannot read is kept and
    counted (`report["conversions_failed"]`)."""

    @staticmethod
    def epoch_seconds() -> Convert:
        """Unix seconds to RFC 3339 UTC: `1703203200` -> `"2023-12-22T00:00:00Z"`."""
    @staticmethod
    def epoch_millis() -> Convert:
        """Unix milliseconds to RFC 3339 UTC."""
    @staticmethod
    def timestamp() -> Convert:
        """A date-time with an offset (RFC 3339, ISO 8601, `YYYY-MM-DD HH:MM:SS+HH:MM`) to UTC."""
    @staticmethod
    def cents() -> Convert:
        """Integer cents to an exact decimal string: `4999` -> `"49.99"`."""
    @staticmethod
    def fixed(decimals: int) -> Convert:
        """A number or numeric string to exactly `decimals` decimals: `50.1` -> `"50.10"`."""
    @staticmethod
    def map(pairs: Mapping[Any, Any]) -> Convert:
        """Value to value; keys match by their text, so `"3"` matches `3`."""
    @staticmethod
    def prefix(prefix: str) -> Convert:
        """A string or number as a string starting with `prefix` (added only when missing)."""
    def apply(self, value: Any) -> Any:
        """The converted value; `ValueError` when this converter cannot read it."""

@final
class Shape:
    """What to keep, drop, rename and convert in each record (each row of a table, or the one
    record). Paths are dot-separated keys of the input (`user.login`); arrays are transparent
    (`labels.name`). `drop` patterns use `*` within one key; an undotted pattern matches at
    every depth. `essential` and `minor` mark fields: when a budget must leave fields out,
    essential ones are kept before unmarked ones and minor ones go first. A mistake raises
    `ShapeError`."""

    def __init__(
        self,
        *,
        keep: Optional[Sequence[str]] = None,
        drop: Optional[Sequence[str]] = None,
        rename: Optional[Mapping[str, str]] = None,
        convert: Optional[
            Mapping[str, Union[Convert, Literal["epoch_seconds", "epoch_millis", "timestamp", "cents"]]]
        ] = None,
        drop_empty: bool = False,
        flatten: bool = False,
        essential: Optional[Sequence[str]] = None,
        minor: Optional[Sequence[str]] = None,
    ) -> None: ...
    @staticmethod
    def from_json(text: str) -> Shape:
        """A shape file's JSON text."""
    @staticmethod
    def from_toml(text: str) -> Shape:
        """A shape file's TOML text (a dotted path is a quoted key: `"user.login" = "author"`)."""
    @staticmethod
    def from_dict(value: Mapping[str, Any]) -> Shape:
        """A shape file already parsed."""
    @staticmethod
    def from_file(path: Union[str, PathLike[str]]) -> Shape:
        """A shape file: TOML when the name ends in `.toml`, JSON otherwise. Keys: `keep`,
        `drop`, `rename`, `convert` (path -> `"epoch_seconds"`, `"epoch_millis"`,
        `"timestamp"`, `"cents"`, `{"fixed": N}`, `{"map": {...}}`, `{"prefix": "..."}`),
        `drop_empty`, `flatten`, `essential`, `minor`."""
    def apply(self, value: Any) -> Any:
        """The value shaped (a record, or a list of records)."""

@final
class ToolError:
    """What failed and why, rendered under `**{tool} failed**` with whether a retry can help."""

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        hint: Optional[str] = None,
        retryable: Optional[bool] = None,
        retry_after_secs: Optional[int] = None,
    ) -> None: ...
    @staticmethod
    def from_exception(exc: BaseException) -> ToolError:
        """`FileExistsError` -> `conflict`; `FileNotFoundError`, `LookupError` -> `not_found`;
        `PermissionError` -> `permission_denied`; `TimeoutError` -> `timeout`;
        `ConnectionError` -> `unavailable`; `ValueError`, `TypeError` -> `invalid_input`;
        others -> `internal`. The message is `str(exc)` (the class name when empty)."""
    @property
    def kind(self) -> ErrorKind: ...
    @property
    def message(self) -> str: ...
    @property
    def hint(self) -> Optional[str]: ...
    @property
    def retryable(self) -> bool:
        """As given, else the kind's default (true for rate_limited, timeout, unavailable)."""
    @property
    def retry_after_secs(self) -> Optional[int]: ...

@final
class NextAction:
    """A call the model can make next: `Next: call TOOL(arg="value") after N s -- reason`."""

    def __init__(
        self,
        tool: str,
        args: Optional[Mapping[str, Any]] = None,
        *,
        after_secs: Optional[int] = None,
        reason: Optional[str] = None,
    ) -> None: ...
    @property
    def tool(self) -> str: ...
    @property
    def args(self) -> dict[str, Any]: ...
    def line(self) -> str: ...

@final
class Page:
    """One page of a listing: the items, then `has_more` and the call that fetches the next
    page. `next_call` is `(tool, cursor_arg)`, the tool a name or a `NextAction`."""

    def __init__(
        self,
        items: Sequence[Any],
        *,
        has_more: bool = False,
        next_cursor: Optional[str] = None,
        total: Optional[int] = None,
        item_cursors: Optional[Sequence[str]] = None,
        next_call: Optional[Tuple[Union[str, NextAction], str]] = None,
    ) -> None: ...
    @property
    def items(self) -> list[Any]: ...
    @property
    def has_more(self) -> bool: ...
    @property
    def next_cursor(self) -> Optional[str]: ...
    @property
    def total(self) -> Optional[int]: ...
    def __len__(self) -> int: ...

@final
class Batch:
    """Per-item outcomes of a bulk call: counts, the failures, and a retry of exactly the
    retryable failures. Each method returns a new batch."""

    def __init__(self) -> None: ...
    def ok(self, id: Any) -> Batch: ...
    def ok_with(self, id: Any, value: Any) -> Batch:
        """An item that succeeded, with its value (listed under `results`)."""
    def failed(self, id: Any, error: Union[ToolError, BaseException, str]) -> Batch:
        """An item that failed (a message alone is an `internal` error)."""
    def retry_call(self, tool: Union[str, NextAction], ids_arg: str) -> Batch: ...
    @property
    def total(self) -> int: ...
    @property
    def succeeded(self) -> int: ...
    @property
    def failed_count(self) -> int: ...
    def __len__(self) -> int: ...

@final
class ResourceRef:
    """A resource the model can read: `Resource: NAME (TYPE, SIZE) URI`."""

    def __init__(
        self,
        uri: str,
        *,
        name: Optional[str] = None,
        content_type: Optional[str] = None,
        size_bytes: Optional[int] = None,
    ) -> None: ...
    @property
    def uri(self) -> str: ...
    def line(self) -> str: ...

@final
class Reply:
    """Any result with its follow-up calls, links and resource references."""

    def __init__(
        self,
        result: Any,
        *,
        next: Union[NextAction, Sequence[NextAction], None] = None,
        links: Union[Mapping[str, str], Sequence[Tuple[str, str]], None] = None,
        references: Union[ResourceRef, Sequence[ResourceRef], None] = None,
    ) -> None: ...

@final
class MemoryStore:
    """An in-process store of full results, each kept `ttl_secs` seconds."""

    def __init__(self, ttl_secs: float, *, max_bytes: Optional[int] = None) -> None: ...
    def put(self, value: Any) -> str:
        """Keep `value`; returns its reference."""
    def get(self, reference: str) -> Any:
        """The stored value; `StoreError` when it expired or is unknown."""
    def fetch(self, reference: str) -> Union[Any, ToolError]:
        """The stored value, or the `ToolError` to return instead (`not_found`)."""
    @property
    def ttl_secs(self) -> float: ...
    @property
    def stored_bytes(self) -> int: ...
    def __len__(self) -> int: ...

@final
class RedisStore:
    """Full results kept in Redis (`redis://[:password@]host[:port][/db]`), each `ttl_secs`
    seconds, so an agent on one machine can fetch what a tool on another stored. Connects on
    first use; a bad URL raises `ValueError`, a Redis that is down `StoreError` (and `fetch`
    returns an `unavailable`, retryable `ToolError`)."""

    def __init__(
        self,
        url: str,
        ttl_secs: float,
        *,
        prefix: Optional[str] = None,
        timeout_secs: Optional[float] = None,
    ) -> None: ...
    def put(self, value: Any) -> str: ...
    def get(self, reference: str) -> Any: ...
    def fetch(self, reference: str) -> Union[Any, ToolError]: ...
    @property
    def ttl_secs(self) -> float: ...

@final
class Fetch:
    """The fetch tool: the rest of a cut result, page by page. A cut text ends with one line
    `Next: call get_stored_result(ref="r_...", cursor="25")`; `call` with that reference and
    cursor serves the next rows (within the formatter's options, in full detail, never stored
    again), each page ending with the next such line until the last. A stored page's last
    page ends with the page's own next call; a stored record is served whole. A table whose
    first text shortened values resumes at `cursor="25;25>34"`: the rows from 25, then those
    values whole (`cursor="v0;25>34"`), so no row is served twice. A stored text is served as
    text: fenced pages that fill the budget, from a line (`"40"`) or a line's character
    (`"0:1850"`), joined back to the text."""

    def __init__(
        self,
        store: Union[MemoryStore, RedisStore],
        tool: str = "get_stored_result",
        formatter: Optional[Formatter] = None,
        *,
        page_size: Optional[int] = None,
    ) -> None: ...
    def call(self, ref: str, cursor: Union[str, int, None] = None, query: Optional[str] = None) -> str:
        """The page of the stored result `ref` from `cursor` (`None`: the first row), only
        rows with every word of `query` when given; the tool's error text (`**TOOL
        failed**`) for an unknown or expired reference."""
    @property
    def tool(self) -> str: ...

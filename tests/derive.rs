//! `#[derive(ToolOutput)]`: the SPEC seed table and record from typed structs and from JSON,
//! byte for byte (the seed log is in `seed.rs`), and one table-driven case per attribute and
//! per supported field type.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::json;
use tof_support::data;
use tool_output_format::{Formatter, Layout, ToolOutput, to_markdown};

// ---------------------------------------------------------------- the seed examples

#[derive(ToolOutput, Serialize, Deserialize)]
struct Member {
    name: String,
    role: String,
    team: String,
}

#[derive(ToolOutput, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Status {
    Delivered,
    Pending,
}

#[derive(ToolOutput, Serialize, Deserialize)]
struct Message {
    id: String,
    status: Status,
    latency_ms: u64,
}

#[test]
fn seed_team_table() {
    let team: Vec<Member> = serde_json::from_str(data::TEAM).unwrap();
    let fmt = Formatter::new();
    let expected = "\
| name  | role     | team    |
|-------|----------|---------|
| Alice | engineer | infra   |
| Bob   | PM       | product |
| Carol | designer | product |";
    assert_eq!(fmt.format("list_team", &team), expected);
    assert_eq!(fmt.format("list_team", &team[..]), expected);
    assert_eq!(fmt.format("list_team", &data::parse(data::TEAM)), expected);
}

#[test]
fn seed_message_record() {
    let msg: Message = serde_json::from_str(data::MESSAGE).unwrap();
    let expected =
        "**get_message result**\n\n- id: msg_001\n- status: delivered\n- latency_ms: 142";
    let fmt = Formatter::new();
    assert_eq!(fmt.format("get_message", &msg), expected);
    assert_eq!(
        fmt.format("get_message", &data::parse(data::MESSAGE)),
        expected
    );
}

// ---------------------------------------------------------------- one case per attribute

/// `case!(value => "expected")` renders with no tool name and default options.
macro_rules! case {
    ($value:expr => $expected:expr) => {
        assert_eq!(to_markdown(&$value), $expected, "{}", stringify!($value))
    };
}

#[derive(ToolOutput)]
struct Renamed {
    #[tool_output(rename = "customer_id")]
    id: u32,
    #[tool_output(skip)]
    #[allow(dead_code)]
    secret: String,
    r#type: &'static str,
}

#[derive(ToolOutput)]
struct Cut {
    #[tool_output(max_chars = 5)]
    text: String,
    #[tool_output(max_chars = 3)]
    n: u64,
}

fn cents(c: &u64) -> String {
    format!("{}.{:02}", c / 100, c % 100)
}

mod normalise {
    pub fn upper(s: &str) -> String {
        s.to_uppercase()
    }
}

#[derive(ToolOutput)]
struct With {
    // `self::`: a bare `"cents"` names the converter (the same text here).
    #[tool_output(with = "self::cents")]
    price: u64,
    #[tool_output(with = "normalise::upper")]
    code: &'static str,
}

#[derive(ToolOutput, Serialize)]
struct Address {
    city: &'static str,
    zip: &'static str,
}

#[derive(ToolOutput, Serialize)]
struct Person {
    name: &'static str,
    #[tool_output(flatten)]
    address: Address,
    age: u8,
}

#[derive(ToolOutput)]
#[tool_output(rename_all = "SCREAMING-KEBAB-CASE")]
struct Shouty {
    user_id: u8,
    #[tool_output(rename = "kept")]
    other_field: u8,
}

#[derive(ToolOutput)]
#[tool_output(title = "Open tickets", max_rows = 2)]
struct Ticket {
    id: u8,
}

mod reexport {
    pub use tool_output_format as tof;
}

#[derive(ToolOutput)]
#[tool_output(crate = "reexport::tof")]
struct ViaReexport {
    ok: bool,
}

const fn is_snake(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_lowercase() || b[i].is_ascii_digit() || b[i] == b'_') {
            return false;
        }
        i += 1;
    }
    !b.is_empty()
}

#[derive(ToolOutput)]
#[tool_output(canonical = "is_snake")]
struct Canonical {
    customer_id: u8,
    #[tool_output(rename = "order_id")]
    order: u8,
}

#[derive(ToolOutput, Serialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct SerdeNames {
    user_id: u8,
    #[serde(rename = "ID")]
    id: u8,
    #[serde(rename(serialize = "outName", deserialize = "inName"))]
    both: u8,
    #[serde(skip)]
    hidden: u8,
    #[serde(skip_serializing)]
    also_hidden: u8,
    #[serde(flatten)]
    address: Address,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "ignored")]
    ignored_keys: Option<u8>,
}

mod ignored {
    pub fn serialize<S: serde::Serializer>(v: &Option<u8>, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(v, s)
    }
}

#[derive(ToolOutput, Serialize)]
#[serde(rename_all(serialize = "PascalCase"))]
#[tool_output(rename_all = "kebab-case")]
struct Precedence {
    #[tool_output(rename = "ours")]
    #[serde(rename = "serdes")]
    a_b: u8,
    #[serde(rename = "serde_wins")]
    c_d: u8,
    e_f: u8,
}

#[derive(ToolOutput, Serialize)]
struct Empty {}

#[derive(ToolOutput, Serialize, Clone, Copy)]
#[tool_output(rename_all = "snake_case")]
enum Priority {
    NiceToHave,
    #[tool_output(rename = "P1")]
    High,
    #[serde(rename = "urgent!")]
    Urgent,
}

#[derive(ToolOutput)]
struct Generic<T, U: Clone> {
    value: T,
    list: Vec<U>,
}

#[test]
fn attribute_cases() {
    let renamed = Renamed {
        id: 7,
        secret: "hunter2".into(),
        r#type: "a",
    };
    case!(renamed => "- customer_id: 7\n- type: a");
    case!(vec![Renamed { id: 7, secret: "x".into(), r#type: "a" }]
        => "| customer_id | type |\n|-------------|------|\n| 7           | a    |");

    let cut = Cut {
        text: "héllo wörld, and then some more".into(),
        n: 123456,
    };
    // Numbers are never cut, whatever the field's `max_chars` (a shortened number is a wrong number).
    case!(cut => "- text: héllo…[+26 chars]\n- n: 123456");
    // A value is cut only when the cut form, marker included, is shorter.
    case!(Cut { text: "héllo wörld".into(), n: 1 } => "- text: héllo wörld\n- n: 1");
    case!(vec![Cut { text: "👍🏽".repeat(12), n: 12 }]
        => "| text             | n  |\n|------------------|----|\n| 👍🏽👍🏽…[+20 chars] | 12 |");

    case!(With { price: 4999, code: "ab" } => "- price: 49.99\n- code: AB");
    case!(vec![With { price: 5, code: "x" }] => "| price | code |\n|-------|------|\n| 0.05  | X    |");
    assert_eq!(
        With {
            price: 4999,
            code: "ab"
        }
        .to_json(),
        json!({"price": "49.99", "code": "AB"})
    );

    let person = Person {
        name: "Ada",
        address: Address {
            city: "London",
            zip: "N1",
        },
        age: 36,
    };
    case!(person => "- name: Ada\n- city: London\n- zip: N1\n- age: 36");
    assert_eq!(
        person.to_json(),
        json!({"name": "Ada", "city": "London", "zip": "N1", "age": 36})
    );
    case!(vec![person] => "| name | city   | zip | age |\n|------|--------|-----|-----|\n| Ada  | London | N1  | 36  |");

    case!(Shouty { user_id: 1, other_field: 2 } => "- USER-ID: 1\n- kept: 2");

    let tickets = vec![Ticket { id: 1 }, Ticket { id: 2 }, Ticket { id: 3 }];
    assert_eq!(
        Formatter::new().format("t", &tickets),
        "[Truncated to 2 rows of 3 total]\n\n**Open tickets**\n\n| id |\n|----|\n| 1  |\n| 2  |"
    );
    assert_eq!(
        Formatter::new().format("t", &Ticket { id: 1 }),
        "**Open tickets**\n\n- id: 1"
    );

    case!(ViaReexport { ok: true } => "- ok: true");
    case!(Canonical { customer_id: 1, order: 2 } => "- customer_id: 1\n- order_id: 2");

    let s = SerdeNames {
        user_id: 1,
        id: 2,
        both: 3,
        hidden: 4,
        also_hidden: 5,
        address: Address {
            city: "Oslo",
            zip: "0150",
        },
        ignored_keys: Some(6),
    };
    case!(s => "- userId: 1\n- ID: 2\n- outName: 3\n- city: Oslo\n- zip: 0150\n- ignoredKeys: 6");
    assert_eq!(s.to_json(), serde_json::to_value(&s).unwrap());

    let p = Precedence {
        a_b: 1,
        c_d: 2,
        e_f: 3,
    };
    case!(p => "- ours: 1\n- serde_wins: 2\n- e-f: 3");

    case!(Empty {} => "*(empty)*");
    case!(vec![Empty {}, Empty {}] => "- {}\n- {}");
    assert_eq!(
        to_markdown(&vec![Empty {}, Empty {}]),
        to_markdown(&json!([{}, {}]))
    );
    case!(Vec::<Member>::new() => "*(empty)*");

    case!(Priority::NiceToHave => "```\nnice_to_have\n```");
    case!(vec![Priority::High, Priority::Urgent] => "- P1\n- urgent!");
    assert_eq!(Priority::High.to_json(), json!("P1"));

    case!(Generic { value: 1.5, list: vec!['a', 'b'] } => "- value: 1.5\n- list: a, b");
}

// ---------------------------------------------------------------- field types

#[derive(ToolOutput)]
struct Types<'a> {
    s: String,
    st: &'a str,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    i128: i128,
    isize: isize,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    u128: u128,
    usize: usize,
    f32: f32,
    f64: f64,
    nan: f64,
    b: bool,
    c: char,
    none: Option<u8>,
    some: Option<&'a str>,
    v: Vec<u8>,
    slice: &'a [&'a str],
    arr: [bool; 2],
    dq: VecDeque<i8>,
    bmap: BTreeMap<String, u8>,
    hmap: HashMap<&'a str, u8>,
    boxed: Box<str>,
    rc: Rc<u8>,
    arc: Arc<String>,
    r: &'a u8,
    cow: Cow<'a, str>,
    prio: Vec<Priority>,
    nested: Address,
    nested_list: Vec<Address>,
}

#[test]
fn field_types_record_and_cells() {
    let t = Types {
        s: "s".into(),
        st: "st",
        i8: -8,
        i16: -16,
        i32: -32,
        i64: i64::MIN,
        i128: -(1 << 100),
        isize: -1,
        u8: 8,
        u16: 16,
        u32: 32,
        u64: u64::MAX,
        u128: 1 << 100,
        usize: 1,
        f32: 0.1,
        f64: 1e20,
        nan: f64::NAN,
        b: true,
        c: 'é',
        none: None,
        some: Some("x"),
        v: vec![1, 2],
        slice: &["a", "b"],
        arr: [true, false],
        dq: VecDeque::from([1, -1]),
        bmap: BTreeMap::from([("k".to_string(), 1)]),
        hmap: HashMap::from([("h", 2)]),
        boxed: "bx".into(),
        rc: Rc::new(3),
        arc: Arc::new("arc".into()),
        r: &4,
        cow: Cow::Borrowed("cow"),
        prio: vec![Priority::NiceToHave, Priority::High],
        nested: Address {
            city: "Rome",
            zip: "00100",
        },
        nested_list: vec![Address {
            city: "Bern",
            zip: "3000",
        }],
    };
    let expected = "\
- s: s
- st: st
- i8: -8
- i16: -16
- i32: -32
- i64: -9223372036854775808
- i128: -1267650600228229401496703205376
- isize: -1
- u8: 8
- u16: 16
- u32: 32
- u64: 18446744073709551615
- u128: 1267650600228229401496703205376
- usize: 1
- f32: 0.10000000149011612
- f64: 1e+20
- nan:
- b: true
- c: é
- none:
- some: x
- v: 1, 2
- slice: a, b
- arr: true, false
- dq: 1, -1
- bmap:
  - k: 1
- hmap:
  - h: 2
- boxed: bx
- rc: 3
- arc: arc
- r: 4
- cow: cow
- prio: nice_to_have, P1
- nested:
  - city: Rome
  - zip: 00100
- nested_list:

  | city | zip  |
  |------|------|
  | Bern | 3000 |";
    assert_eq!(to_markdown(&t), expected);

    let md = Formatter::new()
        .layout(Layout::Compact)
        .format("", &vec![t]);
    let mut lines = md.lines();
    assert_eq!(
        lines.nth(2).unwrap(),
        "|s|st|-8|-16|-32|-9223372036854775808|-1267650600228229401496703205376\
         |-1|8|16|32|18446744073709551615|1267650600228229401496703205376|1\
         |0.10000000149011612|1e+20||true|é||x|1, 2|a, b|true, false\
         |1, -1|{\"k\":1}|{\"h\":2}|bx|3|arc|4|cow|nice_to_have, P1\
         |{\"city\":\"Rome\",\"zip\":\"00100\"}|[{\"city\":\"Bern\",\"zip\":\"3000\"}]|"
    );
}

// ---------------------------------------------------------------- sequences and generics

#[derive(ToolOutput)]
struct Wrap<T> {
    id: u8,
    #[tool_output(flatten)]
    inner: T,
}

#[test]
fn every_sequence_of_records_is_a_table() {
    let table = "| city | zip  |\n|------|------|\n| Oslo | 0150 |";
    let one = || Address {
        city: "Oslo",
        zip: "0150",
    };
    assert_eq!(to_markdown(&vec![one()]), table);
    assert_eq!(to_markdown(&[one()]), table);
    assert_eq!(to_markdown(&vec![one()].into_boxed_slice()), table);
    assert_eq!(to_markdown(&VecDeque::from([one()])), table);
    assert_eq!(to_markdown(&&[one()][..]), table);
}

#[test]
fn generic_flatten() {
    let w = vec![Wrap {
        id: 1,
        inner: Address {
            city: "Oslo",
            zip: "0150",
        },
    }];
    assert_eq!(
        to_markdown(&w),
        "| id | city | zip  |\n|----|------|------|\n| 1  | Oslo | 0150 |"
    );
}

// ------------------------------------- field types without an impl of ours, newtypes, converters

/// Implements `Serialize` only: rendered through its JSON form.
#[derive(Serialize)]
struct Geo {
    lat: f64,
    lon: f64,
}

/// Serialize-only, serialized as a string (as `uuid::Uuid` or `rust_decimal::Decimal` are).
#[derive(Serialize)]
struct OrderId(u32);

/// A newtype renders as its inner value (as serde serializes it).
#[derive(ToolOutput)]
struct Money(u64);

#[derive(ToolOutput)]
struct Dollars(#[tool_output(with = "cents")] u64);

#[derive(ToolOutput)]
struct Pair(
    &'static str,
    #[tool_output(skip)]
    #[allow(dead_code)]
    u8,
    Money,
);

#[derive(ToolOutput)]
struct Order {
    id: OrderId,
    total: Money,
    price: Dollars,
    at: std::time::SystemTime,
    took: std::time::Duration,
    #[tool_output(with = "epoch_seconds")]
    created: i64,
    #[tool_output(with = "epoch_millis")]
    updated: Option<i64>,
    #[tool_output(with = "timestamp")]
    shipped: &'static str,
    #[tool_output(with = "cents")]
    refunds: Vec<u64>,
    #[tool_output(with = "fixed(2)")]
    rate: f64,
    // A value the converter cannot read is kept as it is (as in a shape).
    #[tool_output(with = "epoch_seconds")]
    unreadable: &'static str,
    geo: Geo,
    tags: Vec<Geo>,
    pair: Pair,
}

fn order() -> Order {
    Order {
        id: OrderId(7),
        total: Money(4999),
        price: Dollars(4999),
        at: std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_703_203_200),
        took: std::time::Duration::from_millis(1500),
        created: 1_703_203_200,
        updated: None,
        shipped: "2023-12-22T02:00:00+02:00",
        refunds: vec![5, 100],
        rate: 2.675,
        unreadable: "soon",
        geo: Geo {
            lat: 59.9,
            lon: 10.7,
        },
        tags: vec![Geo { lat: 1.5, lon: 2.0 }],
        pair: Pair("a", 9, Money(1)),
    }
}

#[test]
fn serialize_fields_newtypes_and_converters() {
    case!(Money(4999) => "4999");
    case!(Dollars(4999) => to_markdown("49.99")); // a top-level string, as the inner value would be
    assert_eq!(Money(4999).to_json(), json!(4999));
    assert_eq!(Dollars(5).to_json(), json!("0.05"));
    assert_eq!(Pair("a", 9, Money(1)).to_json(), json!(["a", 1]));
    case!(vec![Money(1), Money(2)] => "- 1\n- 2");

    let record = "\
- id: 7
- total: 4999
- price: 49.99
- at: 2023-12-22T00:00:00Z
- took: 1s 500ms
- created: 2023-12-22T00:00:00Z
- updated:
- shipped: 2023-12-22T00:00:00Z
- refunds: 0.05, 1.00
- rate: 2.68
- unreadable: soon
- geo:
  - lat: 59.9
  - lon: 10.7
- tags:

  | lat | lon |
  |-----|-----|
  | 1.5 | 2.0 |
- pair: a, 1";
    case!(order() => record);
    assert_eq!(
        order().to_json(),
        json!({
            "id": 7, "total": 4999, "price": "49.99", "at": "2023-12-22T00:00:00Z",
            "took": "1s 500ms", "created": "2023-12-22T00:00:00Z", "updated": null,
            "shipped": "2023-12-22T00:00:00Z", "refunds": ["0.05", "1.00"], "rate": "2.68",
            "unreadable": "soon",
            "geo": {"lat": 59.9, "lon": 10.7}, "tags": [{"lat": 1.5, "lon": 2.0}], "pair": ["a", 1],
        })
    );
    // Typed output equals the output of its JSON form, as a record and in table cells.
    assert_eq!(to_markdown(&order()), to_markdown(&order().to_json()));
    let table = to_markdown(&vec![order()]);
    assert_eq!(table, to_markdown(&json!([order().to_json()])));
    assert!(table.contains("| 0.05, 1.00 |"), "{table}");
}

thread_local! {
    static CALLS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

fn counted(v: &u8) -> u8 {
    CALLS.with(|c| c.set(c.get() + 1));
    *v
}

#[derive(ToolOutput)]
struct Counted {
    #[tool_output(with = "counted")]
    v: u8,
}

#[test]
fn a_with_function_runs_once_per_use() {
    let value = Counted { v: 3 };
    for (run, want) in [
        (&(|| drop(value.to_json())) as &dyn Fn(), 1),
        (&|| drop(to_markdown(&value)), 1),
        (&|| drop(to_markdown(std::slice::from_ref(&value))), 1),
    ] {
        CALLS.with(|c| c.set(0));
        run();
        assert_eq!(CALLS.with(std::cell::Cell::get), want);
    }
}

#[derive(Serialize)]
struct Login {
    user: &'static str,
    password: &'static str,
}

#[derive(ToolOutput)]
struct Session {
    id: u8,
    login: Login,
}

#[test]
fn redacted_keys_inside_a_serialize_only_field() {
    let fmt = Formatter::new().redact_keys(["password"]);
    let s = || Session {
        id: 1,
        login: Login {
            user: "ada",
            password: "hunter2",
        },
    };
    let record = fmt.format("t", &s());
    let table = fmt.format("t", &vec![s()]);
    for out in [&record, &table] {
        assert!(!out.contains("hunter2"), "{out}");
        assert!(out.contains("[redacted]"), "{out}");
    }
    // As the same value's JSON form renders.
    assert_eq!(record, fmt.format("t", &s().to_json()));
    assert_eq!(table, fmt.format("t", &json!([s().to_json()])));
}

// ---------------------------------------------------------------- marks (SPEC section 22)

#[derive(ToolOutput, Serialize)]
struct Marked {
    #[tool_output(key)]
    id: u32,
    #[tool_output(essential)]
    title: &'static str,
    body: &'static str,
    #[tool_output(minor)]
    etag: &'static str,
    // A mark on a skipped field is ignored.
    #[tool_output(skip, key)]
    #[allow(dead_code)]
    cache: u8,
}

fn marked() -> Marked {
    Marked {
        id: 7,
        title: "Crash",
        body: "...",
        etag: "W/1",
        cache: 0,
    }
}

#[derive(ToolOutput, Serialize)]
struct MarkedOuter {
    #[tool_output(rename = "name", minor)]
    n: &'static str,
    #[tool_output(flatten)]
    inner: Marked,
}

use tool_output_format::{
    Context,
    doc::{Mark, Node},
};

fn marks_of(node: &Node<'_>) -> Vec<(String, Mark)> {
    match node {
        Node::Record(r) => r
            .fields
            .iter()
            .map(|f| (f.name.to_string(), f.mark))
            .collect(),
        Node::Table(t) => (0..t.columns().len())
            .map(|c| (t.columns()[c].to_string(), t.mark(c)))
            .collect(),
        other => panic!("not a record or a table: {other:?}"),
    }
}

fn named(marks: &[(&str, Mark)]) -> Vec<(String, Mark)> {
    marks.iter().map(|(n, m)| ((*n).to_owned(), *m)).collect()
}

#[test]
fn a_key_mark_reaches_the_record_field() {
    let value = marked();
    let node = value.to_node(&Context::new());
    assert_eq!(
        marks_of(&node),
        named(&[
            ("id", Mark::Key),
            ("title", Mark::Essential),
            ("body", Mark::None),
            ("etag", Mark::Minor),
        ])
    );
}

#[test]
fn the_marks_of_a_vec_reach_its_table_columns() {
    let rows = vec![marked(), marked()];
    let node = rows.to_node(&Context::new());
    assert!(matches!(node, Node::Table(_)), "{node:?}");
    assert_eq!(
        marks_of(&node),
        named(&[
            ("id", Mark::Key),
            ("title", Mark::Essential),
            ("body", Mark::None),
            ("etag", Mark::Minor),
        ])
    );
}

#[test]
fn the_marks_of_a_flattened_struct_land_with_its_fields() {
    let outer = || MarkedOuter {
        n: "x",
        inner: marked(),
    };
    let want = named(&[
        ("name", Mark::Minor),
        ("id", Mark::Key),
        ("title", Mark::Essential),
        ("body", Mark::None),
        ("etag", Mark::Minor),
    ]);
    let (one, rows) = (outer(), vec![outer(), outer()]);
    assert_eq!(marks_of(&one.to_node(&Context::new())), want);
    assert_eq!(marks_of(&rows.to_node(&Context::new())), want);
}

#[test]
fn marks_do_not_change_the_text() {
    // Without a budget a mark changes nothing that is written: the typed text is the text
    // of its JSON form.
    assert_eq!(to_markdown(&marked()), to_markdown(&marked().to_json()));
    assert_eq!(
        to_markdown(&vec![marked()]),
        to_markdown(&json!([marked().to_json()]))
    );
}

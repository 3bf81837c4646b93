//! Bytes -> option set and wrapper (first four bytes: `compose::Options::from_bytes`) -> the
//! rest as JSON rows -> every entry point -> every composition promise
//! (`tof_support::compose::check`, the same checks as the matrix test).
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};
use tof_support::compose::{self, Options};

fuzz_target!(|data: &[u8]| {
    let (opts, wrapper, used) = Options::from_bytes(data);
    let Ok(value) = serde_json::from_slice::<Value>(&data[used..]) else {
        return;
    };
    // Each object of an array is a row's fields; anything else is one row's `x`.
    let rows: Vec<Value> = match value {
        Value::Array(items) => items
            .into_iter()
            .take(500)
            .enumerate()
            .map(|(i, v)| match v {
                Value::Object(m) => compose::row_with(i, &m),
                other => compose::row_with(i, &Map::from_iter([("x".to_owned(), other)])),
            })
            .collect(),
        other => vec![compose::row_with(0, &Map::from_iter([("x".to_owned(), other)]))],
    };
    let out = compose::render(wrapper, &opts, &rows);
    let fails = compose::check(wrapper, &opts, rows.len(), false, &out);
    if let Some((_, detail)) = fails.first() {
        panic!("composition promise broken:\n{detail}");
    }
});

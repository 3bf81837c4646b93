//! Bytes -> options (first two bytes) -> `serde_json::from_slice` -> format -> every property
//! of the contract (`tof_support::check`, the same checker the tests use).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tof_support::check::{self, Opts};

fuzz_target!(|data: &[u8]| {
    let (opts, used) = Opts::from_bytes(data);
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&data[used..]) else {
        return;
    };
    if let Err(e) = check::render_and_check(&value, &opts) {
        panic!("property violated with {opts:?}:\n{e}");
    }
});

//! The `ResultStore` contract, written once and run against every store: `MemoryStore`
//! (`tests/memory_store.rs`, every `cargo test`) and `RedisStore` (`tests/redis_store.rs`,
//! feature `redis`, against a real server). What only one store can show (a clock moved by
//! hand, Redis's own expiry, eviction by size) stays beside that store.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::json;
use tool_output_format::store::ResultStore;
use tool_output_format::store::StoreErrorKind;

/// A value comes back exactly: the largest `u64`, a float, text that markdown and JSON escape,
/// `null`, key order (`preserve_order`); a reference is `r_` and 26 characters, read many times.
pub fn round_trip_keeps_the_value_exactly(s: &dyn ResultStore) {
    let v = json!([{"b": 1, "a": 18446744073709551615u64, "f": 0.1, "s": "é|\n"}, null]);
    let r = s.put(&v).unwrap();
    assert!(r.starts_with("r_") && r.len() == 28, "{r}");
    assert_eq!(s.get(&r).unwrap(), v);
    assert_eq!(s.get(&r).unwrap().to_string(), v.to_string()); // key order kept
    assert_eq!(s.get(&r).unwrap(), v);
}

/// A well-formed reference the store never issued is unknown, in the one wording; so is every
/// malformed one (never a panic, never another store's key).
pub fn unknown_and_malformed_references(s: &dyn ResultStore) {
    s.put(&json!(1)).unwrap();
    let never = "r_0123456789abcdefghjkmnpqrs";
    let e = s.get(never).unwrap_err();
    assert_eq!(e.kind(), StoreErrorKind::Unknown);
    assert_eq!(
        e.to_string(),
        "reference \"r_0123456789abcdefghjkmnpqrs\" is unknown: this store never issued it, or \
         it expired long ago; check that it was copied exactly, or call the original tool again"
    );
    for bad in [
        "",
        "*",
        "r_",
        "r_0",
        "r_1",
        "ref_1",
        "r_ 0123456789abcdefghjkmnpqrs",
        "r_0123456789abcdefghjkmnpqrs:expires",
        "\u{202e}",
    ] {
        let e = s.get(bad).unwrap_err();
        assert_eq!(e.kind(), StoreErrorKind::Unknown, "{bad:?}");
        assert!(e.to_string().contains("unknown"), "{bad:?}: {e}");
    }
}

/// Four threads put and read back 100 values each through one shared store; every reference
/// differs.
pub fn shared_between_threads(store: Arc<dyn ResultStore>) {
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let store = store.clone();
            std::thread::spawn(move || {
                (0..100)
                    .map(|i| {
                        let v = json!({"t": t, "i": i});
                        let r = store.put(&v).unwrap();
                        assert_eq!(store.get(&r).unwrap(), v);
                        r
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let refs: HashSet<String> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    assert_eq!(refs.len(), 400);
}

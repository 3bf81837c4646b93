//! `MemoryStore` through the store contract every store meets (`store_suite`); its clock,
//! eviction and tombstone tests are unit tests beside it (`src/store/memory.rs`).

use std::sync::Arc;
use std::time::Duration;

use tool_output_format::store::MemoryStore;

mod store_suite;

fn store() -> MemoryStore {
    MemoryStore::new(Duration::from_secs(60))
}

#[test]
fn round_trip_keeps_the_value_exactly() {
    store_suite::round_trip_keeps_the_value_exactly(&store());
}

#[test]
fn unknown_and_malformed_references() {
    store_suite::unknown_and_malformed_references(&store());
}

#[test]
fn shared_between_threads() {
    store_suite::shared_between_threads(Arc::new(store()));
}

//! `RedisStore` against a real `redis-server` (`.ci/redis.sh` starts one on 127.0.0.1:6379).
//!
//! Address from `TOF_REDIS_URL` (default `redis://127.0.0.1:6379`). Every test uses its own
//! random key prefix, so runs and parallel tests never see each other's keys.
#![cfg(feature = "redis")]

use std::net::TcpListener;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tool_output_format::store::StoreErrorKind;
use tool_output_format::store::{RedisStore, ResultStore};

mod store_suite;

fn url() -> String {
    std::env::var("TOF_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
}

/// A key prefix no other test or run uses.
fn prefix() -> String {
    let store = tool_output_format::store::MemoryStore::new(Duration::from_secs(1));
    format!("tof-test:{}:", store.put(&json!(0)).unwrap())
}

fn store(ttl: Duration) -> (RedisStore, String) {
    let p = prefix();
    (RedisStore::open(&url(), ttl).unwrap().prefix(p.clone()), p)
}

/// A direct connection, to look at and tamper with the keys.
fn redis() -> redis::Connection {
    redis::Client::open(url())
        .unwrap()
        .get_connection()
        .unwrap_or_else(|e| panic!("no redis-server at {} ({e}): run .ci/redis.sh first", url()))
}

fn ttl_of(con: &mut redis::Connection, key: &str) -> i64 {
    redis::cmd("TTL").arg(key).query(con).unwrap()
}

#[test]
fn round_trip_keeps_the_value_exactly() {
    store_suite::round_trip_keeps_the_value_exactly(&store(Duration::from_secs(60)).0);
}

#[test]
fn shared_between_threads() {
    store_suite::shared_between_threads(Arc::new(store(Duration::from_secs(60)).0));
}

#[test]
fn redis_enforces_the_ttl_and_keeps_a_longer_tombstone() {
    let (s, p) = store(Duration::from_secs(3600));
    let v = json!([{"id": 1, "big": 18446744073709551615u64, "x": 0.1, "s": "é|\n"}, null]);
    let r = s.put(&v).unwrap();
    assert_eq!(s.get(&r).unwrap(), v);

    let mut con = redis();
    let data_ttl = ttl_of(&mut con, &format!("{p}{r}"));
    let tomb_ttl = ttl_of(&mut con, &format!("{p}{r}:expires"));
    assert!((3595..=3600).contains(&data_ttl), "{data_ttl}");
    assert!(
        (3600 + 86_395..=3600 + 86_400).contains(&tomb_ttl),
        "{tomb_ttl}"
    );
    let raw: String = redis::cmd("GET")
        .arg(format!("{p}{r}"))
        .query(&mut con)
        .unwrap();
    assert_eq!(raw, v.to_string());
}

#[test]
fn another_machine_reads_what_one_stored() {
    let p = prefix();
    let a = RedisStore::open(&url(), Duration::from_secs(60))
        .unwrap()
        .prefix(p.clone());
    let b = RedisStore::open(&url(), Duration::from_secs(60))
        .unwrap()
        .prefix(p);
    let r = a.put(&json!({"orders": 5000})).unwrap();
    assert_eq!(b.get(&r).unwrap(), json!({"orders": 5000}));
}

#[test]
fn unknown_and_malformed_references() {
    store_suite::unknown_and_malformed_references(&store(Duration::from_secs(60)).0);
}

/// Redis itself expires the key (EX 1): this test waits for it, polling (at most 5 s).
#[test]
fn redis_expires_the_result_and_get_says_expired() {
    let (s, _) = store(Duration::from_secs(1));
    let r = s.put(&json!([1, 2, 3])).unwrap();
    assert_eq!(s.get(&r).unwrap(), json!([1, 2, 3]));
    let start = Instant::now();
    let e = loop {
        match s.get(&r) {
            Ok(_) if start.elapsed() < Duration::from_secs(5) => {
                std::thread::sleep(Duration::from_millis(100))
            }
            Ok(_) => panic!("Redis kept a 1-second result for 5 seconds"),
            Err(e) => break e,
        }
    };
    assert_eq!(e.kind(), StoreErrorKind::Expired);
    let msg = e.to_string();
    assert!(
        msg.starts_with(&format!("reference \"{r}\" expired ")),
        "{msg}"
    );
    assert!(
        msg.ends_with(
            " ago (results are kept for 1 second): the stored result is gone; call the \
             original tool again to get it"
        ),
        "{msg}"
    );
}

#[test]
fn a_result_dropped_before_its_time_is_expired_early() {
    let (s, p) = store(Duration::from_secs(600));
    let r = s.put(&json!("x")).unwrap();
    let _: () = redis::cmd("DEL")
        .arg(format!("{p}{r}"))
        .query(&mut redis())
        .unwrap();
    let e = s.get(&r).unwrap_err();
    assert_eq!(e.kind(), StoreErrorKind::Expired);
    assert_eq!(
        e.to_string(),
        format!(
            "reference \"{r}\" expired early: Redis dropped it before its time (memory pressure \
             or a deletion): the stored result is gone; call the original tool again to get it"
        )
    );
}

#[test]
fn a_value_another_program_wrote_is_corrupt_not_a_panic() {
    let (s, p) = store(Duration::from_secs(60));
    let r = s.put(&json!(1)).unwrap();
    let _: () = redis::cmd("SET")
        .arg(format!("{p}{r}"))
        .arg("not json")
        .query(&mut redis())
        .unwrap();
    assert_eq!(s.get(&r).unwrap_err().kind(), StoreErrorKind::Corrupt);
}

#[test]
fn a_redis_that_is_down_is_a_clear_error() {
    // A port nobody listens on: bind one, then let it go.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("redis://:secret@127.0.0.1:{port}");
    let s = RedisStore::open(&url, Duration::from_secs(60))
        .unwrap()
        .timeout(Duration::from_millis(500));
    let e = s.put(&json!([1])).unwrap_err();
    assert_eq!(e.kind(), StoreErrorKind::Unavailable);
    assert!(e.is_retryable());
    // A failed put is the short line the text ends with (`[Full result not stored: ...]`),
    // the same words as the async path's: no "not stored" twice, no advice to retry.
    let msg = e.to_string();
    assert_eq!(
        msg,
        format!("Redis unavailable at 127.0.0.1:{port} (connection refused)")
    );
    assert!(!msg.contains("secret"));
    let e = s.get("r_0123456789abcdefghjkmnpqrs").unwrap_err();
    assert_eq!(e.kind(), StoreErrorKind::Unavailable);
    assert!(
        e.to_string()
            .contains("the stored result cannot be fetched now"),
        "{e}"
    );
}

/// The store's connection is killed by the server (as when Redis restarts or drops an idle
/// client); the next `put` opens a new one and stores the result. The store uses database 9
/// so that the kill reaches only its connection, not those of tests running alongside.
#[test]
fn a_broken_connection_is_reopened_without_losing_the_put() {
    let base = url();
    let base = match base.rsplit_once('/') {
        Some((head, db)) if !db.is_empty() && db.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => base.trim_end_matches('/'),
    };
    let s = RedisStore::open(&format!("{base}/9"), Duration::from_secs(60))
        .unwrap()
        .prefix(prefix());
    let r1 = s.put(&json!(1)).unwrap(); // opens the connection
    let mut con = redis();
    let clients: String = redis::cmd("CLIENT").arg("LIST").query(&mut con).unwrap();
    let ids: Vec<&str> = clients
        .lines()
        .filter(|l| l.split(' ').any(|f| f == "db=9"))
        .filter_map(|l| l.split(' ').find_map(|f| f.strip_prefix("id=")))
        .collect();
    assert_eq!(ids.len(), 1, "{clients}");
    let _: () = redis::cmd("CLIENT")
        .arg("KILL")
        .arg("ID")
        .arg(ids[0])
        .query(&mut con)
        .unwrap();
    let r2 = s.put(&json!(2)).unwrap(); // the old connection is dead: reopened, and stored
    assert_eq!(s.get(&r1).unwrap(), json!(1));
    assert_eq!(s.get(&r2).unwrap(), json!(2));
}

#[test]
fn a_formatter_stores_cut_results_on_redis() {
    let (s, _) = store(Duration::from_secs(60));
    let s: Arc<dyn ResultStore> = Arc::new(s);
    let fmt = tool_output_format::Formatter::new()
        .max_rows(1)
        .store(s.clone(), "get_stored_result");
    let v = json!([{"id": 1}, {"id": 2}]);
    let out = fmt.format_with_report("list", &v);
    let r = out.report.reference.unwrap();
    assert_eq!(
        out.text,
        format!(
            "[Truncated to 1 rows of 2 total]\n\n| id |\n|----|\n| 1  |\n\n\
             Next: call get_stored_result(ref=\"{r}\", cursor=\"1\")"
        )
    );
    assert_eq!(s.get(&r).unwrap(), v);
    // The tool it came from, for the fetch tool's options.
    assert_eq!(s.origin(&r).as_deref(), Some("list"));
    assert_eq!(s.origin("r_zzzzzzzzzzzzzzzzzzzzzzzzzz"), None);
}

/// The async path on a real server: `format_async` stores under the reference its text
/// names, `get_async` and the sync `get` both read it back, and the fetch handler pages it.
#[tokio::test(flavor = "current_thread")]
async fn the_async_path_stores_and_reads_back_on_redis() {
    use tool_output_format::Formatter;
    use tool_output_format::store::{AsyncResultStore, Fetch};
    let (s, _) = store(Duration::from_secs(600));
    let s = Arc::new(s);
    let rows: Vec<_> = (1..=500).map(|id| json!({"id": id})).collect();
    let fmt = Formatter::new().max_rows(5).store_async(
        s.clone(),
        "get_stored_result",
        Duration::from_secs(2),
    );
    let out = fmt.format_async("list", &rows).await;
    let r = out.report.reference.clone().expect(&out.text);
    assert!(
        out.text.ends_with(&format!("(ref=\"{r}\", cursor=\"5\")")),
        "{}",
        out.text
    );
    assert_eq!(s.get_async(&r).await.unwrap(), json!(rows));
    assert_eq!(s.origin_async(&r).await.as_deref(), Some("list"));
    assert_eq!(ResultStore::get(&*s, &r).unwrap(), json!(rows));
    let unknown = s
        .get_async("r_zzzzzzzzzzzzzzzzzzzzzzzzzz")
        .await
        .unwrap_err();
    assert_eq!(unknown.kind(), StoreErrorKind::Unknown);
    let page = Fetch::new(s.clone(), "get_stored_result")
        .page_size(100)
        .page(&r, Some("400"), None)
        .unwrap();
    assert_eq!(page.len(), 100);
    assert!(!page.get_has_more());
    // Many calls at once share the one multiplexed connection.
    let puts = (0..64).map(|i| {
        let s = s.clone();
        async move {
            let fresh = tool_output_format::store::MemoryStore::new(Duration::from_secs(1))
                .put(&json!(0))
                .unwrap();
            s.put_at(&fresh, &json!({"i": i})).await.unwrap();
            (fresh, i)
        }
    });
    let done: Vec<_> = futures_join(puts).await;
    for (r, i) in done {
        assert_eq!(s.get_async(&r).await.unwrap(), json!({"i": i}));
    }
}

/// Awaits every future concurrently on the current task (no extra crate).
async fn futures_join<F>(fs: impl IntoIterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = fs.into_iter().map(tokio::spawn).collect();
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

#[test]
fn a_result_over_the_size_limit_is_not_stored() {
    let (s, _) = store(Duration::from_secs(60));
    let s = s.max_bytes(100);
    let e = s.put(&json!("x".repeat(200))).unwrap_err();
    assert_eq!(e.kind(), StoreErrorKind::TooLarge);
    assert!(s.put(&json!("small")).is_ok());
}

/// A Redis that accepts the connection and never answers (SPEC 19): the sync store's timeout
/// bounds the whole call, connecting and retrying included, and the failure is one short
/// line with the address and the cause, the same words as the async path's.
#[test]
fn a_frozen_redis_is_bounded_by_the_timeout() {
    use tool_output_format::Formatter;
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    // Accepts every connection, reads nothing, writes nothing, keeps it open.
    std::thread::spawn(move || {
        let mut held = Vec::new();
        while let Ok((sock, _)) = silent.accept() {
            held.push(sock);
        }
    });
    let store = RedisStore::open(
        &format!("redis://127.0.0.1:{port}"),
        Duration::from_secs(60),
    )
    .unwrap()
    .timeout(Duration::from_millis(500));
    let fmt = Formatter::new()
        .max_rows(2)
        .store(Arc::new(store), "get_stored_result");
    let rows: Vec<_> = (1..=10).map(|id| json!({"id": id})).collect();
    for call in 0..2 {
        let start = Instant::now();
        let out = fmt.format_with_report("list_users", &rows);
        let took = start.elapsed();
        eprintln!("frozen Redis, timeout 500 ms: call {call} returned in {took:?}");
        // The bound, not a speed: 500 ms and what one round of I/O setup takes, far below the
        // 3.1 s (then 1.06 s) a call took when each step had its own timeout.
        assert!(took < Duration::from_millis(1000), "call {call}: {took:?}");
        assert!(
            out.text.ends_with(&format!(
                "[Full result not stored: Redis unavailable at 127.0.0.1:{port} (no answer within 500 ms)]"
            )),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Next:"), "{}", out.text);
    }
}

//! The async path (feature `async`): the put is awaited after rendering, bounded by its
//! timeout; a failure is told in the text and no reference is promised.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tool_output_format::store::{AsyncResultStore, StoreErrorKind, StoreFuture};
use tool_output_format::{
    Formatter,
    store::{MemoryStore, ResultStore, StoreError},
};

fn rows(n: u64) -> Vec<Value> {
    (1..=n)
        .map(|id| json!({"id": id, "name": format!("user {id}")}))
        .collect()
}

/// A store whose puts fail, or never answer.
struct Broken {
    answer: bool,
}

impl AsyncResultStore for Broken {
    fn put_at<'a>(&'a self, _: &'a str, _: &'a Value) -> StoreFuture<'a, ()> {
        if self.answer {
            Box::pin(async {
                Err(StoreError::new(
                    StoreErrorKind::Unavailable,
                    "Redis unavailable at 127.0.0.1:1 (connection refused)",
                ))
            })
        } else {
            Box::pin(std::future::pending())
        }
    }

    fn get_async<'a>(&'a self, r: &'a str) -> StoreFuture<'a, Value> {
        let e = StoreError::new(StoreErrorKind::Unknown, format!("{r} is unknown"));
        Box::pin(async move { Err(e) })
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_cut_result_is_stored_under_the_reference_its_text_names() {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let fmt = Formatter::new().max_rows(3).store_async(
        store.clone(),
        "get_stored_result",
        Duration::from_secs(1),
    );
    let out = fmt.format_async("list_users", &rows(100)).await;
    let r = out.report.reference.clone().expect("a reference");
    assert!(
        out.text.ends_with(&format!(
            "Next: call get_stored_result(ref=\"{r}\", cursor=\"3\")"
        )),
        "{}",
        out.text
    );
    assert_eq!(store.get(&r).unwrap(), json!(rows(100)));
    assert_eq!(store.len(), 1);
    // Not cut: nothing stored, no Next line.
    let out = fmt.format_async("list_users", &rows(2)).await;
    assert!(!out.text.contains("Next:"), "{}", out.text);
    assert_eq!(store.len(), 1);
}

#[tokio::test(flavor = "current_thread")]
async fn a_failed_put_is_told_and_no_reference_is_promised_within_the_budget() {
    let fmt = Formatter::new().max_rows(3).max_chars(400).store_async(
        Arc::new(Broken { answer: true }),
        "get_stored_result",
        Duration::from_secs(1),
    );
    let out = fmt.format_async("list_users", &rows(100)).await;
    assert!(
        out.text.ends_with(
            "[Full result not stored: Redis unavailable at 127.0.0.1:1 (connection refused)]"
        ),
        "{}",
        out.text
    );
    assert!(!out.text.contains("Next:"), "{}", out.text);
    assert!(out.text.chars().count() <= 400, "{}", out.text);
    assert_eq!(out.report.reference, None);
    assert!(
        out.report
            .store_error
            .unwrap()
            .contains("connection refused")
    );
}

/// One worker thread: another task keeps running while the put waits on a store that never
/// answers, and the call returns at its timeout with the failure line.
#[test]
fn a_silent_store_does_not_block_a_one_thread_runtime() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let ticks = Arc::new(AtomicUsize::new(0));
        let ticker = tokio::spawn({
            let ticks = ticks.clone();
            async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    ticks.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        let fmt = Formatter::new().max_rows(3).store_async(
            Arc::new(Broken { answer: false }),
            "get_stored_result",
            Duration::from_millis(300),
        );
        let start = Instant::now();
        let out = fmt.format_async("list_users", &rows(100)).await;
        let took = start.elapsed();
        ticker.abort();
        assert!(
            out.text
                .ends_with("[Full result not stored: the store did not answer within 300 ms]"),
            "{}",
            out.text
        );
        assert!(took >= Duration::from_millis(300), "{took:?}");
        assert!(took < Duration::from_secs(3), "{took:?}");
        // About 30 ticks in 300 ms; a blocked thread would give none.
        assert!(ticks.load(Ordering::Relaxed) >= 10, "{ticks:?}");
    });
}

/// `RedisStore` on a server that accepts the connection and never answers: a one-thread
/// runtime keeps serving another task, and the call returns at its timeout with the line.
#[cfg(feature = "redis")]
#[test]
fn a_redis_that_never_answers_does_not_block_a_one_thread_runtime() {
    use tool_output_format::store::RedisStore;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = silent.local_addr().unwrap().port();
        // Accepts every connection, reads nothing, writes nothing, keeps it open.
        let server = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((sock, _)) = silent.accept().await {
                held.push(sock);
            }
        });
        let ticks = Arc::new(AtomicUsize::new(0));
        let ticker = tokio::spawn({
            let ticks = ticks.clone();
            async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    ticks.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        let store = RedisStore::open(
            &format!("redis://127.0.0.1:{port}"),
            Duration::from_secs(60),
        )
        .unwrap()
        .timeout(Duration::from_secs(5));
        let fmt = Formatter::new().max_rows(3).store_async(
            Arc::new(store),
            "get_stored_result",
            Duration::from_millis(400),
        );
        let start = Instant::now();
        let out = fmt.format_async("list_users", &rows(100)).await;
        let took = start.elapsed();
        ticker.abort();
        server.abort();
        assert!(
            out.text
                .ends_with("[Full result not stored: the store did not answer within 400 ms]"),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Next:"), "{}", out.text);
        assert!(took < Duration::from_secs(2), "{took:?}");
        assert!(ticks.load(Ordering::Relaxed) >= 15, "{ticks:?}");
    });
}

/// Nothing listens on the port: the line names the address and the cause.
#[cfg(feature = "redis")]
#[tokio::test(flavor = "current_thread")]
async fn a_redis_that_is_down_is_told_in_one_line() {
    use tool_output_format::store::RedisStore;
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let store = RedisStore::open(
        &format!("redis://127.0.0.1:{port}"),
        Duration::from_secs(60),
    )
    .unwrap();
    let fmt = Formatter::new().max_rows(3).store_async(
        Arc::new(store),
        "get_stored_result",
        Duration::from_secs(3),
    );
    let out = fmt.format_async("list_users", &rows(100)).await;
    assert!(
        out.text.ends_with(&format!(
            "[Full result not stored: Redis unavailable at 127.0.0.1:{port} (connection refused)]"
        )),
        "{}",
        out.text
    );
    assert_eq!(out.report.reference, None);
}

/// The fetch tool on an async store: walked to the end, every row once, nothing stored again.
#[tokio::test(flavor = "current_thread")]
async fn the_fetch_tool_pages_an_async_store_to_the_end() {
    use tool_output_format::store::Fetch;
    let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let fmt = Formatter::new().max_rows(30).store_async(
        store.clone(),
        "get_stored_result",
        Duration::from_secs(1),
    );
    let out = fmt.format_async("list_users", &rows(1000)).await;
    let reference = out.report.reference.unwrap();
    let fetch = Fetch::new_async(store.clone(), "get_stored_result").formatter(&fmt);
    let (mut cursor, mut seen) = (None::<String>, Vec::new());
    loop {
        let page = fetch.call_async(&reference, cursor.as_deref(), None).await;
        seen.extend(page.lines().filter_map(|l| {
            l.strip_prefix("| ")?
                .split('|')
                .next()?
                .trim()
                .parse::<u64>()
                .ok()
        }));
        match page.lines().find_map(|l| l.strip_prefix("next_cursor: ")) {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, (1..=1000).collect::<Vec<_>>());
    assert_eq!(store.len(), 1);
    // The sync call fails, told as the server's bug (not advice the model could follow).
    let sync = fetch.call(&reference, None, None);
    assert!(sync.starts_with("**get_stored_result failed**"), "{sync}");
    assert!(
        sync.contains("a bug of the server's (it should use Fetch::call_async"),
        "{sync}"
    );
}

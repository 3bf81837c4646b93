//! Newline-delimited JSON-RPC (the stdio transport of MCP) read and written by the proxy
//! itself, so that what it passes on is the JSON that came, not rmcp's typed model of it.
//!
//! rmcp's typed structs keep the fields of the protocol version rmcp knows and drop the
//! others (a tool's `execution`, say). So on the two stdio links (the upstream it starts,
//! the host on standard input/output) every message is read as JSON first:
//!
//! - a request or notification the proxy forwards is handed to rmcp as its `Custom` variant
//!   (method and params as they came); only the ones rmcp or the proxy act on are typed
//!   ([`Side::TYPED`]: `initialize`, `ping`, `notifications/initialized`, progress and
//!   cancellation);
//! - a response is parsed as rmcp's type too (rmcp's own requests need it), and its raw
//!   `result` is kept in [`RawResults`] under its request id: the forwarding code takes it
//!   from there ([`super::upstream::forward`]) and passes that on.
//!
//! On the host link the proxy's answer to `initialize` is replaced by upstream's raw answer
//! ([`Lines::answer_initialize`]). Over streamable HTTP the same rules read each message as
//! JSON: each request's body under `--listen` ([`super::listen`]), each answer of the upstream
//! under `--upstream-url` ([`super::upstream_http`]).

use std::collections::{HashMap, VecDeque};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rmcp::model::{
    ClientNotification, ClientRequest, CustomNotification, CustomRequest, JsonRpcMessage,
    JsonRpcNotification, JsonRpcRequest, JsonRpcVersion2_0, ProgressToken, RequestId,
    ServerNotification, ServerRequest, ServerResult,
};
use rmcp::service::{RoleClient, RoleServer, RxJsonRpcMessage, ServiceRole, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// Raw `result`s of responses, by request id, until the forwarding code takes them, and the
/// raw answer to `initialize`.
#[derive(Debug, Default)]
pub struct RawResults {
    results: Mutex<HashMap<RequestId, Value>>,
    initialize: Mutex<Option<Value>>,
    /// Upstream's requests as they came, by id, read where rmcp reads the message typed
    /// itself (an event stream of `--upstream-url`, [`super::upstream_http`]).
    requests: Mutex<HashMap<RequestId, CustomRequest>>,
    /// Upstream's notifications as they came, in order, read there too.
    notifications: Mutex<VecDeque<CustomNotification>>,
    /// Progress notifications read and not yet passed on, by progress token: rmcp hands each
    /// notification to the proxy on a task of its own, so the answer read after one may
    /// otherwise overtake it ([`RawResults::progress_settled`]).
    progress: Mutex<HashMap<ProgressToken, usize>>,
    /// Woken when a progress notification has been passed on.
    passed: tokio::sync::Notify,
}

/// More entries than this means results nobody takes (answers that came after their
/// request timed out): they are dropped.
const MAX_WAITING: usize = 1024;

impl RawResults {
    fn put(&self, id: RequestId, result: Value) {
        let mut map = self.results.lock().unwrap_or_else(PoisonError::into_inner);
        if map.len() >= MAX_WAITING {
            map.clear();
        }
        map.insert(id, result);
    }

    /// The raw result of the response to request `id`, if one came on a raw link.
    pub fn take(&self, id: &RequestId) -> Option<Value> {
        self.results
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id)
    }

    /// The raw answer to `initialize` read on this link, if any.
    pub fn initialize(&self) -> Option<Value> {
        self.initialize
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Count a progress notification read (`message`), until it is passed on.
    fn progress_read(&self, message: &Value) {
        if message.get("method").and_then(Value::as_str) == Some("notifications/progress")
            && let Some(token) = message.pointer("/params/progressToken")
            && let Ok(token) = serde_json::from_value::<ProgressToken>(token.clone())
        {
            *lock(&self.progress).entry(token).or_default() += 1;
        }
    }

    /// A progress notification with `token` (the token as it was read) has been passed on,
    /// or dropped.
    pub fn progress_passed(&self, token: &ProgressToken) {
        let mut map = lock(&self.progress);
        if let Some(n) = map.get_mut(token) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(token);
            }
        }
        drop(map);
        self.passed.notify_waiters();
    }

    /// Wait, at most `bound`, until every progress notification read with `token` has been
    /// passed on: the answer to a request goes on after the progress that came before it.
    pub async fn progress_settled(&self, token: &ProgressToken, bound: Duration) {
        let deadline = tokio::time::Instant::now() + bound;
        loop {
            let passed = self.passed.notified();
            tokio::pin!(passed);
            passed.as_mut().enable();
            if !lock(&self.progress).contains_key(token) {
                return;
            }
            if tokio::time::timeout_at(deadline, passed).await.is_err() {
                return;
            }
        }
    }

    /// Keep what a message read as JSON holds for the forwarding code, when rmcp reads the
    /// same message typed itself (an event of a stream): a response's raw result, a request
    /// or notification as it came (the ones the proxy forwards, [`Side::TYPED`]).
    pub fn keep(&self, message: Value) {
        match incoming::<RoleClient>(message, self) {
            Ok(JsonRpcMessage::Request(r)) => {
                if let ServerRequest::CustomRequest(c) = r.request {
                    let mut map = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
                    if map.len() >= MAX_WAITING {
                        map.clear();
                    }
                    map.insert(r.id, c);
                }
            }
            Ok(JsonRpcMessage::Notification(n)) => {
                if let ServerNotification::CustomNotification(c) = n.notification {
                    let mut queue = self
                        .notifications
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner);
                    if queue.len() >= MAX_WAITING {
                        queue.pop_front();
                    }
                    queue.push_back(c);
                }
            }
            _ => {}
        }
    }

    /// Upstream's request `id` as it came, if [`RawResults::keep`] kept it.
    pub fn take_request(&self, id: &RequestId) -> Option<CustomRequest> {
        self.requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id)
    }

    /// Upstream's notification `typed` (as rmcp read it) as it came, if
    /// [`RawResults::keep`] kept it: the first one kept of its method whose fields hold every
    /// field of the typed one (notifications are handled concurrently, so not always in the
    /// order they came). Kept ones of its method that do not match are left.
    pub fn take_notification(&self, typed: &ServerNotification) -> Option<CustomNotification> {
        let typed = serde_json::to_value(typed).ok()?;
        let method = typed.get("method")?.as_str()?;
        let mut queue = self
            .notifications
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let at = queue.iter().position(|raw| {
            raw.method == method
                && holds(
                    raw.params.as_ref().unwrap_or(&Value::Null),
                    typed.get("params").unwrap_or(&Value::Null),
                )
        })?;
        queue.remove(at)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether `raw` holds `typed`: every field of `typed` is in `raw` with a value that holds it
/// (rmcp's typed model of a message has its known fields, the raw one those and more).
fn holds(raw: &Value, typed: &Value) -> bool {
    match (raw, typed) {
        (Value::Object(raw), Value::Object(typed)) => typed
            .iter()
            .all(|(k, v)| raw.get(k).map_or(v.is_null(), |r| holds(r, v))),
        (Value::Array(raw), Value::Array(typed)) => {
            raw.len() == typed.len() && raw.iter().zip(typed).all(|(r, t)| holds(r, t))
        }
        (_, Value::Null) => true,
        (raw, typed) => raw == typed,
    }
}

/// The side of a link the proxy is on: which incoming methods it reads typed, and how the
/// others are wrapped.
pub trait Side: ServiceRole {
    /// Incoming methods read as rmcp's types; every other request and notification is
    /// passed as it came.
    const TYPED: &'static [&'static str];
    /// An incoming request as it came.
    fn custom_request(r: CustomRequest) -> Self::PeerReq;
    /// An incoming notification as it came.
    fn custom_notification(n: CustomNotification) -> Self::PeerNot;
}

impl Side for RoleClient {
    const TYPED: &'static [&'static str] =
        &["ping", "notifications/progress", "notifications/cancelled"];
    fn custom_request(r: CustomRequest) -> ServerRequest {
        ServerRequest::CustomRequest(r)
    }
    fn custom_notification(n: CustomNotification) -> ServerNotification {
        ServerNotification::CustomNotification(n)
    }
}

impl Side for RoleServer {
    const TYPED: &'static [&'static str] = &[
        "initialize",
        "ping",
        "notifications/initialized",
        "notifications/progress",
        "notifications/cancelled",
    ];
    fn custom_request(r: CustomRequest) -> ClientRequest {
        ClientRequest::CustomRequest(r)
    }
    fn custom_notification(n: CustomNotification) -> ClientNotification {
        ClientNotification::CustomNotification(n)
    }
}

/// One incoming JSON-RPC message: forwarded methods as they came, responses typed with
/// their raw result kept in `raw`. The stdio links read each line with it, and `--listen`
/// each HTTP request's body ([`super::listen`]).
///
/// # Errors
///
/// The JSON is not a JSON-RPC message.
pub fn incoming<R: Side>(
    v: Value,
    raw: &RawResults,
) -> Result<RxJsonRpcMessage<R>, serde_json::Error> {
    raw.progress_read(&v);
    let method = v.get("method").and_then(Value::as_str);
    match (method, v.get("id")) {
        (Some(m), Some(id)) if !R::TYPED.contains(&m) => {
            let id: RequestId = serde_json::from_value(id.clone())?;
            let request: CustomRequest = serde_json::from_value(v)?;
            Ok(JsonRpcMessage::Request(JsonRpcRequest::new(
                id,
                R::custom_request(request),
            )))
        }
        (Some(m), None) if !R::TYPED.contains(&m) => {
            let n: CustomNotification = serde_json::from_value(v)?;
            Ok(JsonRpcMessage::Notification(JsonRpcNotification {
                jsonrpc: JsonRpcVersion2_0,
                notification: R::custom_notification(n),
            }))
        }
        (None, Some(id)) => {
            let Some(result) = v.get("result").cloned() else {
                return serde_json::from_value(v);
            };
            let id: RequestId = serde_json::from_value(id.clone())?;
            let m: RxJsonRpcMessage<R> = serde_json::from_value(v)?;
            if let JsonRpcMessage::Response(r) = &m
                && is_initialize_result(&r.result)
            {
                *raw.initialize
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = Some(result);
            } else {
                raw.put(id, result);
            }
            Ok(m)
        }
        _ => serde_json::from_value(v),
    }
}

/// An error of a raw link.
#[derive(Debug)]
pub struct LinkError(std::io::Error);

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for LinkError {}

/// Newline-delimited JSON-RPC over a reader and a writer, the proxy being `R`.
pub struct Lines<R, I, O> {
    read: BufReader<I>,
    /// The part of a line read before a `receive` was dropped.
    pending: Vec<u8>,
    write: Arc<tokio::sync::Mutex<Option<O>>>,
    raw: Arc<RawResults>,
    /// Upstream's raw answer to `initialize`, given to the host as the proxy's.
    initialize: Option<Value>,
    /// The host's raw `initialize` params: its capabilities and client info go to upstream
    /// in the proxy's own `initialize`.
    hello: Option<Value>,
    /// A message read ahead ([`Lines::first_message`]), handed out first.
    replay: Option<Value>,
    /// The child process at the other end, if the proxy started it.
    child: Option<tokio::process::Child>,
    role: PhantomData<fn() -> R>,
}

impl<R, I, O> Lines<R, I, O> {
    /// A link reading `read` and writing `write`; the raw results of responses go in `raw`.
    pub fn new(read: I, write: O, raw: Arc<RawResults>) -> Self
    where
        I: AsyncRead,
    {
        Lines {
            read: BufReader::new(read),
            pending: Vec::new(),
            write: Arc::new(tokio::sync::Mutex::new(Some(write))),
            raw,
            initialize: None,
            hello: None,
            replay: None,
            child: None,
            role: PhantomData,
        }
    }

    /// Read the first message ahead (the host's `initialize`), to be handed out again by
    /// the first `receive`; `None` when the other side closed or sent no JSON first.
    pub async fn first_message(&mut self) -> Option<Value>
    where
        I: AsyncRead + Unpin,
    {
        loop {
            self.pending.clear();
            match self.read.read_until(b'\n', &mut self.pending).await {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let line = std::mem::take(&mut self.pending);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let v = serde_json::from_slice::<Value>(&line).ok()?;
            self.replay = Some(v.clone());
            return Some(v);
        }
    }

    /// Keep the raw results of responses in `raw` (the link's, once it exists).
    #[must_use]
    pub fn share_results(mut self, raw: Arc<RawResults>) -> Self {
        self.raw = raw;
        self
    }

    /// Send upstream the host's capabilities and client info (`params` of the host's
    /// `initialize`) in the proxy's `initialize`, as the host sent them.
    #[must_use]
    pub fn introduce(mut self, params: Option<Value>) -> Self {
        self.hello = params;
        self
    }

    /// Answer the host's `initialize` with `result` (upstream's raw answer) in place of
    /// rmcp's typed one.
    #[must_use]
    pub fn answer_initialize(mut self, result: Value) -> Self {
        self.initialize = Some(result);
        self
    }
}

/// A link to `command`, started with its standard input and output piped (its standard
/// error goes to the proxy's). The child is killed when the link is closed or dropped.
///
/// # Errors
///
/// The command could not be started.
pub fn child(
    command: &str,
    args: &[String],
    raw: Arc<RawResults>,
    hello: Option<Value>,
) -> std::io::Result<Lines<RoleClient, tokio::process::ChildStdout, tokio::process::ChildStdin>> {
    let mut child = tokio::process::Command::new(command)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .kill_on_drop(true)
        .spawn()?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(std::io::Error::other("the child's pipes were not set up"));
    };
    let mut link = Lines::new(stdout, stdin, raw).introduce(hello);
    link.child = Some(child);
    Ok(link)
}

impl<R, I, O> Lines<R, I, O>
where
    R: ServiceRole,
{
    /// The bytes of one outgoing message (a line), with the host's `initialize` answer
    /// replaced by upstream's raw one.
    fn line(&self, item: &TxJsonRpcMessage<R>) -> Result<Vec<u8>, serde_json::Error> {
        let mut v = serde_json::to_value(item)?;
        if let Some(hello) = &self.hello {
            introduce(&mut v, hello);
        }
        if let Some(init) = &self.initialize
            && let JsonRpcMessage::Response(r) = item
            && is_initialize_result(&r.result)
            && let Some(result) = v.get_mut("result")
        {
            *result = init.clone();
        }
        let mut bytes = serde_json::to_vec(&v)?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}

/// The proxy's `initialize` request `message` (JSON) with the host's capabilities and client
/// info (`hello`: the params of the host's `initialize`) as the host sent them; any other
/// message unchanged.
pub fn introduce(message: &mut Value, hello: &Value) {
    if message.get("method").and_then(Value::as_str) == Some("initialize")
        && let Some(params) = message.get_mut("params").and_then(Value::as_object_mut)
    {
        for key in ["capabilities", "clientInfo"] {
            if let Some(value) = hello.get(key) {
                params.insert(key.to_owned(), value.clone());
            }
        }
    }
}

/// Whether a result is an answer to `initialize` (a server's result).
fn is_initialize_result<T: 'static>(result: &T) -> bool {
    (result as &dyn std::any::Any)
        .downcast_ref::<ServerResult>()
        .is_some_and(|r| matches!(r, ServerResult::InitializeResult(_)))
}

impl<R, I, O> Transport<R> for Lines<R, I, O>
where
    R: Side,
    RxJsonRpcMessage<R>: serde::de::DeserializeOwned,
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    type Error = LinkError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<R>,
    ) -> impl Future<Output = Result<(), LinkError>> + Send + 'static {
        let line = self.line(&item);
        let write = self.write.clone();
        async move {
            let line = line.map_err(|e| LinkError(std::io::Error::other(e)))?;
            let mut guard = write.lock().await;
            let Some(w) = guard.as_mut() else {
                return Err(LinkError(std::io::ErrorKind::BrokenPipe.into()));
            };
            w.write_all(&line).await.map_err(LinkError)?;
            w.flush().await.map_err(LinkError)
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<R>> {
        if let Some(v) = self.replay.take()
            && let Ok(message) = incoming::<R>(v, &self.raw)
        {
            return Some(message);
        }
        loop {
            // rmcp drops this future when another event comes first: the bytes read so far
            // stay in `self.pending` (`read_until` appends to it), so a long line read across
            // several calls is not lost.
            match self.read.read_until(b'\n', &mut self.pending).await {
                Ok(0) if self.pending.is_empty() => return None,
                Ok(_) => {}
                Err(_) => return None,
            }
            let line = std::mem::take(&mut self.pending);
            // A blank line, or one that is not a JSON-RPC message (a server's stray print),
            // is skipped, as rmcp's own stdio transport does.
            let Ok(v) = serde_json::from_slice::<Value>(&line) else {
                continue;
            };
            if let Ok(message) = incoming::<R>(v, &self.raw) {
                return Some(message);
            }
        }
    }

    async fn close(&mut self) -> Result<(), LinkError> {
        // Closing the child's standard input asks it to exit; it is killed if it has not
        // within a second.
        drop(self.write.lock().await.take());
        if let Some(mut child) = self.child.take()
            && tokio::time::timeout(std::time::Duration::from_secs(1), child.wait())
                .await
                .is_err()
        {
            let _ = child.kill().await;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn forwarded_requests_and_notifications_keep_every_field() {
        let raw = RawResults::default();
        let v = json!({"jsonrpc": "2.0", "id": 3, "method": "roots/list",
                       "params": {"x-unknown": [1], "_meta": {"k": "v"}}});
        let m = incoming::<RoleClient>(v, &raw).unwrap();
        let JsonRpcMessage::Request(r) = &m else {
            panic!("{m:?}")
        };
        let ServerRequest::CustomRequest(c) = &r.request else {
            panic!("{m:?}")
        };
        assert_eq!(c.method, "roots/list");
        let out = serde_json::to_value(&m).unwrap();
        assert_eq!(out["params"]["x-unknown"], json!([1]));
        assert_eq!(out["params"]["_meta"]["k"], "v");
        let n = json!({"jsonrpc": "2.0", "method": "notifications/message",
                       "params": {"level": "info", "data": "d", "extra": true}});
        let out = serde_json::to_value(incoming::<RoleClient>(n.clone(), &raw).unwrap()).unwrap();
        assert_eq!(out, n);
    }

    #[test]
    fn a_response_s_raw_result_is_kept_by_its_id() {
        let raw = RawResults::default();
        let tool = json!({"name": "t", "inputSchema": {"type": "object"},
                          "execution": {"taskSupport": "optional"}});
        let v = json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": [tool]}});
        let m = incoming::<RoleClient>(v, &raw).unwrap();
        assert!(matches!(m, JsonRpcMessage::Response(_)));
        let kept = raw.take(&RequestId::Number(7)).unwrap();
        assert_eq!(kept["tools"][0]["execution"]["taskSupport"], "optional");
        assert!(raw.take(&RequestId::Number(7)).is_none());
    }

    #[tokio::test]
    async fn a_line_read_across_a_dropped_receive_is_not_lost() {
        use tokio::io::AsyncWriteExt;
        let (mut upstream, ours) = tokio::io::duplex(64);
        let (read, write) = tokio::io::split(ours);
        let raw = Arc::new(RawResults::default());
        let mut link: Lines<RoleClient, _, _> = Lines::new(read, write, raw.clone());
        let text = "x".repeat(10_000);
        let line = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [
            {"type": "text", "text": text}]}})
        .to_string();
        let (head, tail) = line.split_at(5_000);
        let writer = tokio::spawn({
            let (head, tail) = (head.to_owned(), format!("{tail}\n"));
            async move {
                upstream.write_all(head.as_bytes()).await.unwrap();
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                upstream.write_all(tail.as_bytes()).await.unwrap();
                upstream
            }
        });
        // rmcp drops `receive` when another event comes first: here, a timeout.
        let early = tokio::time::timeout(std::time::Duration::from_millis(50), link.receive());
        assert!(early.await.is_err(), "the line is not complete yet");
        let whole = tokio::time::timeout(std::time::Duration::from_secs(5), link.receive());
        let message = whole.await.expect("in time").expect("the whole line");
        assert!(matches!(message, JsonRpcMessage::Response(_)));
        let kept = raw.take(&RequestId::Number(1)).unwrap();
        assert_eq!(kept["content"][0]["text"], text);
        drop(writer.await.unwrap());
    }

    #[test]
    fn an_event_s_request_and_notification_are_kept_as_they_came() {
        let raw = RawResults::default();
        raw.keep(
            json!({"jsonrpc": "2.0", "id": 4, "method": "sampling/createMessage",
                        "params": {"messages": [], "maxTokens": 5, "x-unknown": 1}}),
        );
        let kept = raw.take_request(&RequestId::Number(4)).unwrap();
        assert_eq!(kept.method, "sampling/createMessage");
        assert_eq!(kept.params.unwrap()["x-unknown"], 1);
        assert!(raw.take_request(&RequestId::Number(4)).is_none());
        // Two of one method: each typed one takes the raw one that holds its fields.
        for (data, extra) in [("a", 1), ("b", 2)] {
            raw.keep(json!({"jsonrpc": "2.0", "method": "notifications/message",
                            "params": {"level": "info", "data": data, "x-unknown": extra}}));
        }
        let typed = |data: &str| -> ServerNotification {
            serde_json::from_value(json!({"method": "notifications/message",
                                          "params": {"level": "info", "data": data}}))
            .unwrap()
        };
        let b = raw.take_notification(&typed("b")).unwrap();
        assert_eq!(b.params.unwrap()["x-unknown"], 2);
        let a = raw.take_notification(&typed("a")).unwrap();
        assert_eq!(a.params.unwrap()["x-unknown"], 1);
        assert!(raw.take_notification(&typed("a")).is_none());
        // A response's raw result, by its id.
        raw.keep(json!({"jsonrpc": "2.0", "id": 9, "result": {"tools": [], "x": 1}}));
        assert_eq!(raw.take(&RequestId::Number(9)).unwrap()["x"], 1);
    }

    #[tokio::test]
    async fn an_answer_waits_for_the_progress_read_before_it() {
        use std::time::Instant;
        let raw = Arc::new(RawResults::default());
        let token: ProgressToken = serde_json::from_value(json!("p")).unwrap();
        let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                              "params": {"progressToken": "p", "progress": 1}});
        // Nothing read: at once.
        let t = Instant::now();
        raw.progress_settled(&token, Duration::from_secs(5)).await;
        assert!(t.elapsed() < Duration::from_secs(1));
        // Read, passed on 100 ms later: the wait ends then.
        incoming::<RoleClient>(progress.clone(), &raw).unwrap();
        let passer = tokio::spawn({
            let (raw, token) = (raw.clone(), token.clone());
            async move {
                tokio::time::sleep(Duration::from_millis(100)).await;
                raw.progress_passed(&token);
            }
        });
        let t = Instant::now();
        raw.progress_settled(&token, Duration::from_secs(5)).await;
        let waited = t.elapsed();
        assert!(waited >= Duration::from_millis(90) && waited < Duration::from_secs(4));
        passer.await.unwrap();
        // Read and never passed on: the bound.
        incoming::<RoleClient>(progress, &raw).unwrap();
        let t = Instant::now();
        raw.progress_settled(&token, Duration::from_millis(200))
            .await;
        assert!(t.elapsed() >= Duration::from_millis(190));
    }

    #[test]
    fn the_host_s_initialize_and_ping_are_typed() {
        let raw = RawResults::default();
        let v = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let m = incoming::<RoleServer>(v, &raw).unwrap();
        let JsonRpcMessage::Request(r) = m else {
            panic!()
        };
        assert!(matches!(r.request, ClientRequest::PingRequest(_)));
        let v = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                       "params": {"name": "t", "arguments": {}, "task": {"ttl": 5}}});
        let m = incoming::<RoleServer>(v, &raw).unwrap();
        let JsonRpcMessage::Request(r) = m else {
            panic!()
        };
        let ClientRequest::CustomRequest(c) = r.request else {
            panic!()
        };
        assert_eq!(c.params.unwrap()["task"]["ttl"], 5);
    }
}

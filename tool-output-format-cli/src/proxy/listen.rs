//! `tof proxy --listen HOST:PORT`: the host side served as streamable HTTP at
//! `http://HOST:PORT/mcp`, for any number of MCP clients, over the one upstream the process
//! started.
//!
//! Each client that sends `initialize` gets a session of its own (rmcp's session mode, an
//! `Mcp-Session-Id`): rmcp builds a [`Hosted`] per session, a handle on the one
//! [`ServerSide`] (upstream's peer, formatter, fetch, config), and hands it the client's
//! notifications (cancelled, progress, roots list changed) as on standard input/output.
//! Upstream's requests to a client (sampling, elicitation, roots) go to the client whose
//! request is in flight, on that request's event stream, and its notifications that belong
//! to no request to every session ([`Link::shared`]).
//!
//! What passes through keeps every field, as on standard input/output ([`super::raw`]): each
//! POST's body is read as JSON first and a request the proxy forwards is handed on as it came
//! (its method and params, read by [`raw::incoming`]) beside the typed request rmcp's HTTP
//! service reads; the answer's `result` in rmcp's response is then replaced by the raw one the
//! proxy produced ([`Raw`]), and `initialize` is answered with upstream's own answer.
//!
//! The `Host` header: bound to a loopback address the proxy takes only loopback hosts
//! (`localhost`, `127.0.0.1`, `::1`: rmcp's guard against DNS rebinding); bound to any
//! other address (`0.0.0.0`, a LAN address) it takes any `Host`, so that it is reachable
//! by the names a load balancer or a network gives it. Access control is then the network's.
//!
//! [`Link::shared`]: super::upstream::Link::shared

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use hyper::body::{Bytes, Incoming};
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::ServerHandler;
#[allow(deprecated)] // logging/setLevel passes through as it came.
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientNotification, ClientRequest,
    CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest, CustomResult,
    ErrorData, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams, GetSkillResult,
    GetTaskParams, GetTaskResult, InitializeRequestParams, InitializeResult, JsonRpcMessage,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, Notification, PaginatedRequestParams, ProgressNotificationParam,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, Request as McpRequest, RequestOptionalParam, ServerResult,
    SubscribeRequestParams, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::handler::ServerSide;
use super::raw::{self, RawResults};
use crate::error::Error;

/// The path the MCP endpoint is served at.
pub const PATH: &str = "/mcp";

/// The largest request body read (rmcp's own bound on it).
const MAX_BODY: usize = 4 * 1024 * 1024;

/// Bind `addr` (`HOST:PORT`), before the upstream is started: a bad address or a port in
/// use is an error at once.
///
/// # Errors
///
/// One sentence naming the address and how to fix it.
pub async fn bind(addr: &str) -> Result<TcpListener, Error> {
    let resolved: Vec<SocketAddr> = match tokio::net::lookup_host(addr).await {
        Ok(found) => found.collect(),
        Err(e) => {
            return Err(Error::Proxy(format!(
                "tof proxy: --listen {addr}: not an address to listen on ({e}); give HOST:PORT, \
                 e.g. --listen 127.0.0.1:8000"
            )));
        }
    };
    let mut last = None;
    for a in &resolved {
        match TcpListener::bind(a).await {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(Error::Proxy(match last {
        Some(e) if e.kind() == std::io::ErrorKind::AddrInUse => format!(
            "tof proxy: --listen {addr}: the port is in use ({e}); pick another port, or stop \
             what listens there"
        ),
        Some(e) => format!(
            "tof proxy: --listen {addr}: can not listen there ({e}); give an address of this \
             machine, e.g. --listen 127.0.0.1:8000"
        ),
        None => format!(
            "tof proxy: --listen {addr}: the name resolves to no address; give HOST:PORT, e.g. \
             --listen 127.0.0.1:8000"
        ),
    }))
}

/// Serve `server` as streamable HTTP at [`PATH`] on `listener` until SIGTERM or Ctrl-C.
/// Prints `tof proxy: listening on http://ADDR/mcp` on standard error once it accepts.
///
/// # Errors
///
/// The listener's address can not be read.
pub async fn serve(listener: TcpListener, server: ServerSide) -> Result<(), Error> {
    let local = listener.local_addr().map_err(|error| Error::Io {
        context: "reading the address tof proxy listens on".into(),
        error,
    })?;
    let stop = CancellationToken::new();
    // Sessions: a client's notifications reach the proxy and upstream's requests reach a
    // client (a stateless request has no way back). A client of the protocol without
    // `initialize` (2026-07-28) is still answered statelessly, as JSON.
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_json_response(true)
        .with_cancellation_token(stop.clone());
    if !local.ip().is_loopback() {
        config = config.disable_allowed_hosts();
    }
    let server = Arc::new(server);
    let mcp = StreamableHttpService::new(
        move || Ok(Hosted(server.clone())),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    eprintln!("tof proxy: listening on http://{local}{PATH}");
    let signal = stopped();
    tokio::pin!(signal);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // A connection that failed before it was accepted: the next one.
                Err(_) => continue,
            },
            () = &mut signal => break,
        };
        let mcp = mcp.clone();
        let route = hyper::service::service_fn(move |request: Request<Incoming>| {
            let mcp = mcp.clone();
            async move {
                if request.uri().path() == PATH {
                    Ok::<_, Infallible>(answer(&mcp, request).await)
                } else {
                    Ok(not_found())
                }
            }
        });
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), route)
                .await;
        });
    }
    stop.cancel();
    Ok(())
}

/// One HTTP request to [`PATH`] answered by rmcp's service, a POST's message passed through
/// as it came ([`Raw`]).
async fn answer(
    mcp: &StreamableHttpService<Hosted, LocalSessionManager>,
    request: Request<Incoming>,
) -> Response<BoxBody<Bytes, Infallible>> {
    if request.method() == Method::DELETE {
        // A session ended: rmcp answers 202, which clients (the Python SDK) log as a failed
        // termination; 204 says it ended.
        let mut response = mcp.handle(request).await;
        if response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::NO_CONTENT;
        }
        return response;
    }
    if request.method() != Method::POST {
        return mcp.handle(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let bytes = match http_body_util::Limited::new(body, MAX_BODY).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            let (status, why) = if e.is::<http_body_util::LengthLimitError>() {
                (
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "the request body is too large",
                )
            } else {
                (
                    StatusCode::BAD_REQUEST,
                    "the request body could not be read",
                )
            };
            return plain(status, format!("tof proxy: {why}\n"));
        }
    };
    let raw = serde_json::from_slice::<Value>(&bytes).ok().map(Raw::new);
    if let Some(raw) = &raw {
        parts.extensions.insert(raw.clone());
    }
    let response = mcp
        .handle(Request::from_parts(parts, http_body_util::Full::new(bytes)))
        .await;
    match raw {
        Some(raw) => raw.into_response(response).await,
        None => response,
    }
}

/// One POST's message as it came: the request as the proxy forwards it (method and params as
/// they came, [`raw::incoming`]), and the raw result the proxy answers it with, which replaces
/// the `result` rmcp's service wrote from its typed model.
#[derive(Clone)]
pub struct Raw {
    request: Option<CustomRequest>,
    answer: Arc<Mutex<Option<Value>>>,
}

impl Raw {
    fn new(message: Value) -> Self {
        let request = match raw::incoming::<RoleServer>(message, &RawResults::default()) {
            Ok(JsonRpcMessage::Request(r)) => match r.request {
                ClientRequest::CustomRequest(c) => Some(c),
                _ => None,
            },
            _ => None,
        };
        Raw {
            request,
            answer: Arc::default(),
        }
    }

    /// The raw message of the HTTP request `ctx` serves, if it was read.
    fn of(ctx: &RequestContext<RoleServer>) -> Option<&Raw> {
        ctx.extensions
            .get::<hyper::http::request::Parts>()?
            .extensions
            .get::<Raw>()
    }

    fn set_answer(&self, result: Value) {
        *self.answer.lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
    }

    fn answer(&self) -> Option<Value> {
        self.answer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// `response` (rmcp's) with the raw result in place of its response's `result`: a JSON
    /// body at once, an event stream event by event (the answer comes after the progress
    /// notifications that made it a stream).
    async fn into_response(
        self,
        response: Response<BoxBody<Bytes, Infallible>>,
    ) -> Response<BoxBody<Bytes, Infallible>> {
        let kind = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let (mut parts, body) = response.into_parts();
        if kind.starts_with("application/json") {
            let Some(result) = self.answer() else {
                return Response::from_parts(parts, body);
            };
            let Ok(collected) = body.collect().await;
            let bytes = with_result(&collected.to_bytes(), result);
            parts.headers.remove(CONTENT_LENGTH);
            Response::from_parts(parts, http_body_util::Full::new(bytes).boxed())
        } else if kind.starts_with("text/event-stream") {
            let body = body.map_frame(move |frame| {
                frame.map_data(|data| match self.answer() {
                    Some(result) => event_with_result(&data, result),
                    None => data,
                })
            });
            Response::from_parts(parts, body.boxed())
        } else {
            Response::from_parts(parts, body)
        }
    }
}

/// A JSON-RPC message's bytes with `result` in place of its response's result; unchanged
/// when it is not a response with a result (an error, a request, a notification).
fn with_result(bytes: &[u8], result: Value) -> Bytes {
    let Ok(mut message) = serde_json::from_slice::<Value>(bytes) else {
        return Bytes::copy_from_slice(bytes);
    };
    let is_response = message.get("method").is_none();
    match message.get_mut("result") {
        Some(slot) if is_response => *slot = result,
        _ => return Bytes::copy_from_slice(bytes),
    }
    serde_json::to_vec(&message).map_or_else(|_| Bytes::copy_from_slice(bytes), Bytes::from)
}

/// One server-sent event's bytes with `result` in place of the result of the response its
/// `data:` line holds (one line: rmcp writes each message as one line of JSON).
fn event_with_result(event: &Bytes, result: Value) -> Bytes {
    let Ok(text) = std::str::from_utf8(event) else {
        return event.clone();
    };
    if !text.lines().any(|l| l.starts_with("data:")) {
        return event.clone();
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match line.strip_prefix("data:") {
            Some(data) if !data.trim().is_empty() => {
                let end = &data[data.trim_end().len()..];
                let json = with_result(data.trim().as_bytes(), result.clone());
                out.push_str("data: ");
                out.push_str(&String::from_utf8_lossy(&json));
                out.push_str(end);
            }
            _ => out.push_str(line),
        }
    }
    Bytes::from(out)
}

/// A plain-text answer with `status`.
fn plain(status: StatusCode, body: String) -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(http_body_util::Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    response
}

/// A path other than [`PATH`].
fn not_found() -> Response<BoxBody<Bytes, Infallible>> {
    plain(
        StatusCode::NOT_FOUND,
        format!("tof proxy serves MCP at {PATH} only\n"),
    )
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// One HTTP request's handle on the shared [`ServerSide`]: rmcp's HTTP service takes a
/// [`ServerHandler`], whose methods are one per request kind; each one is given back to
/// [`ServerSide::dispatch`] as the request it came as, so the proxy's rules are written once.
#[derive(Clone)]
pub struct Hosted(pub Arc<ServerSide>);

/// A [`ServerResult`] as the result type a [`ServerHandler`] method returns; `None` for a
/// result of another kind.
trait Answer: Sized {
    /// Whether a raw answer is read as one of rmcp's types first.
    const TYPED: bool = true;
    fn take(result: ServerResult) -> Option<Self>;
}

/// Results that are one [`ServerResult`] variant of the same name.
macro_rules! one_variant {
    ($($t:ident),* $(,)?) => {$(
        impl Answer for $t {
            fn take(result: ServerResult) -> Option<Self> {
                match result {
                    ServerResult::$t(r) => Some(r),
                    _ => None,
                }
            }
        }
    )*};
}

one_variant!(
    CompleteResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    GetTaskResult,
    ListSkillsResult,
    GetSkillResult,
);

impl Answer for CustomResult {
    const TYPED: bool = false;
    fn take(result: ServerResult) -> Option<Self> {
        match result {
            ServerResult::CustomResult(r) => Some(r),
            other => serde_json::to_value(other).ok().map(CustomResult),
        }
    }
}

impl Answer for () {
    const TYPED: bool = false;
    fn take(result: ServerResult) -> Option<Self> {
        matches!(
            result,
            ServerResult::EmptyResult(_)
                | ServerResult::TaskAckResult(_)
                | ServerResult::CustomResult(_)
        )
        .then_some(())
    }
}

impl Answer for CallToolResponse {
    fn take(result: ServerResult) -> Option<Self> {
        match result {
            ServerResult::CallToolResult(r) => Some(r.into()),
            ServerResult::InputRequiredResult(r) => Some(r.into()),
            ServerResult::CreateTaskResult(r) => Some(r.into()),
            _ => None,
        }
    }
}

impl Answer for GetPromptResponse {
    fn take(result: ServerResult) -> Option<Self> {
        match result {
            ServerResult::GetPromptResult(r) => Some(r.into()),
            ServerResult::InputRequiredResult(r) => Some(r.into()),
            _ => None,
        }
    }
}

impl Answer for ReadResourceResponse {
    fn take(result: ServerResult) -> Option<Self> {
        match result {
            ServerResult::ReadResourceResult(r) => Some(r.into()),
            ServerResult::InputRequiredResult(r) => Some(r.into()),
            _ => None,
        }
    }
}

/// A request whose params are optional.
fn optional<M: Default, P>(params: Option<P>) -> RequestOptionalParam<M, P> {
    RequestOptionalParam {
        method: M::default(),
        params,
        extensions: Default::default(),
    }
}

impl Hosted {
    /// `request` through [`ServerSide::dispatch`], its result as the method's type.
    async fn ask<T: Answer>(
        &self,
        request: ClientRequest,
        ctx: RequestContext<RoleServer>,
    ) -> Result<T, ErrorData> {
        let method = request.method().to_owned();
        // The request as it came, when its HTTP body was read; its raw answer replaces the
        // typed one in the HTTP response.
        let raw = Raw::of(&ctx).cloned();
        let request = match raw.as_ref().and_then(|r| r.request.clone()) {
            Some(custom) => ClientRequest::CustomRequest(custom),
            None => request,
        };
        let result = self.0.dispatch(request, ctx).await?;
        if let (Some(raw), ServerResult::CustomResult(CustomResult(v))) = (&raw, &result) {
            raw.set_answer(v.clone());
        }
        // The proxy's answers are JSON as upstream sent it (a `CustomResult`): read back as
        // the type the method returns.
        let result = match result {
            ServerResult::CustomResult(CustomResult(v)) if T::TYPED => serde_json::from_value(v)
                .map_err(|e| {
                    ErrorData::internal_error(
                        format!("tof proxy: the upstream's answer to {method}: {e}"),
                        None,
                    )
                })?,
            other => other,
        };
        T::take(result).ok_or_else(|| {
            ErrorData::internal_error(
                format!("tof proxy: the upstream answered {method} with a result of another kind"),
                None,
            )
        })
    }

    async fn notify(&self, n: ClientNotification, ctx: NotificationContext<RoleServer>) {
        let _ = self.0.notify(n, ctx).await;
    }
}

/// Each method: its params back into the [`ClientRequest`] variant they came in.
macro_rules! forwarded {
    ($($name:ident($params:ty) -> $out:ty = $variant:ident($build:expr);)*) => {$(
        async fn $name(
            &self,
            params: $params,
            ctx: RequestContext<RoleServer>,
        ) -> Result<$out, ErrorData> {
            self.ask(ClientRequest::$variant(($build)(params)), ctx).await
        }
    )*};
}

#[allow(deprecated)] // resources/subscribe and logging/setLevel pass through as they came.
impl ServerHandler for Hosted {
    forwarded! {
        complete(CompleteRequestParams) -> CompleteResult = CompleteRequest(McpRequest::new);
        set_level(SetLevelRequestParams) -> () = SetLevelRequest(McpRequest::new);
        get_prompt(GetPromptRequestParams) -> GetPromptResponse = GetPromptRequest(McpRequest::new);
        list_prompts(Option<PaginatedRequestParams>) -> ListPromptsResult = ListPromptsRequest(optional);
        list_resources(Option<PaginatedRequestParams>) -> ListResourcesResult = ListResourcesRequest(optional);
        list_resource_templates(Option<PaginatedRequestParams>) -> ListResourceTemplatesResult = ListResourceTemplatesRequest(optional);
        read_resource(ReadResourceRequestParams) -> ReadResourceResponse = ReadResourceRequest(McpRequest::new);
        subscribe(SubscribeRequestParams) -> () = SubscribeRequest(McpRequest::new);
        unsubscribe(UnsubscribeRequestParams) -> () = UnsubscribeRequest(McpRequest::new);
        call_tool(CallToolRequestParams) -> CallToolResponse = CallToolRequest(McpRequest::new);
        list_tools(Option<PaginatedRequestParams>) -> ListToolsResult = ListToolsRequest(optional);
        get_task(GetTaskParams) -> GetTaskResult = GetTaskRequest(McpRequest::new);
        update_task(UpdateTaskParams) -> () = UpdateTaskRequest(McpRequest::new);
        cancel_task(CancelTaskParams) -> () = CancelTaskRequest(McpRequest::new);
        list_skills(Option<PaginatedRequestParams>) -> ListSkillsResult = ListSkillsRequest(optional);
        get_skill(GetSkillRequestParams) -> GetSkillResult = GetSkillRequest(McpRequest::new);
        read_resource_directory(ReadResourceDirectoryRequestParams) -> ReadResourceDirectoryResult = ReadResourceDirectoryRequest(McpRequest::new);
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.ask(ClientRequest::CustomRequest(request), ctx).await
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        ctx: NotificationContext<RoleServer>,
    ) {
        let n = ClientNotification::ProgressNotification(Notification::new(params));
        self.notify(n, ctx).await;
    }

    async fn on_roots_list_changed(&self, ctx: NotificationContext<RoleServer>) {
        let n = ClientNotification::RootsListChangedNotification(Default::default());
        self.notify(n, ctx).await;
    }

    async fn on_custom_notification(
        &self,
        n: CustomNotification,
        ctx: NotificationContext<RoleServer>,
    ) {
        self.notify(ClientNotification::CustomNotification(n), ctx)
            .await;
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        // Upstream's own answer, every field of it, when the proxy has it.
        if let (Some(raw), Some(init)) = (Raw::of(&ctx), &self.0.init_raw) {
            raw.set_answer(init.clone());
        }
        ctx.peer.set_peer_info(request.clone());
        self.0.link.add_session(&ctx.peer);
        self.negotiate_initialize(&request)
    }

    fn get_info(&self) -> InitializeResult {
        self.0.init.clone()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_response_s_result_is_replaced_and_anything_else_kept() {
        let raw = json!({"tools": [{"name": "t", "execution": {"taskSupport": "optional"}}]});
        let typed = json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "t"}]}});
        let out = with_result(&serde_json::to_vec(&typed).unwrap(), raw.clone());
        let out: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(out, json!({"jsonrpc": "2.0", "id": 3, "result": raw}));
        let error = json!({"jsonrpc": "2.0", "id": 3, "error": {"code": 1, "message": "m"}});
        let bytes = serde_json::to_vec(&error).unwrap();
        assert_eq!(with_result(&bytes, raw.clone()), bytes);
    }

    #[test]
    fn an_event_s_response_is_replaced_and_its_other_lines_kept() {
        let raw = json!({"content": [], "x-unknown": 1});
        let progress = "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\
                        \"params\":{\"progressToken\":\"p\",\"progress\":1}}\nid: 0\n\n";
        let event = Bytes::from(progress);
        assert_eq!(event_with_result(&event, raw.clone()), event);
        let response = Bytes::from("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\nid: 1\n\n");
        let out = event_with_result(&response, raw.clone());
        let text = std::str::from_utf8(&out).unwrap();
        assert!(text.ends_with("\nid: 1\n\n"), "{text}");
        let data = text.lines().next().unwrap().strip_prefix("data: ").unwrap();
        let message: Value = serde_json::from_str(data).unwrap();
        assert_eq!(message["result"], raw);
    }
}

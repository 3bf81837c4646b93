//! `tof proxy --listen HOST:PORT`: the host side served as streamable HTTP at
//! `http://HOST:PORT/mcp`, for any number of MCP clients, over the one upstream the process
//! started.
//!
//! Each HTTP request is answered statelessly (JSON responses, no session): rmcp builds a
//! [`Hosted`] per request, a handle on the one [`ServerSide`] (upstream's peer, formatter,
//! fetch, config). What can not be carried over a shared upstream is not: upstream's
//! requests to the client (sampling, elicitation, roots) are refused and its notifications
//! that belong to no request are dropped ([`Link::shared`]).
//!
//! The `Host` header: bound to a loopback address the proxy takes only loopback hosts
//! (`localhost`, `127.0.0.1`, `::1`: rmcp's guard against DNS rebinding); bound to any
//! other address (`0.0.0.0`, a LAN address) it takes any `Host`, so that it is reachable
//! by the names a load balancer or a network gives it. Access control is then the network's.
//!
//! [`Link::shared`]: super::upstream::Link::shared

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::ServerHandler;
#[allow(deprecated)] // logging/setLevel passes through as it came.
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientNotification, ClientRequest,
    CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest, CustomResult,
    ErrorData, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams, GetSkillResult,
    GetTaskParams, GetTaskResult, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListSkillsResult, ListToolsResult, Notification, PaginatedRequestParams,
    ProgressNotificationParam, ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult,
    ReadResourceRequestParams, ReadResourceResponse, Request as McpRequest, RequestOptionalParam,
    ServerResult, SubscribeRequestParams, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::handler::ServerSide;
use crate::error::Error;

/// The path the MCP endpoint is served at.
pub const PATH: &str = "/mcp";

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
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
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
                    Ok::<_, Infallible>(mcp.handle(request).await)
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

/// A path other than [`PATH`].
fn not_found() -> Response<BoxBody<Bytes, Infallible>> {
    let body = format!("tof proxy serves MCP at {PATH} only\n");
    let mut response = Response::new(http_body_util::Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
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
        let result = self.0.dispatch(request, ctx).await?;
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

    async fn on_custom_notification(
        &self,
        n: CustomNotification,
        ctx: NotificationContext<RoleServer>,
    ) {
        self.notify(ClientNotification::CustomNotification(n), ctx)
            .await;
    }

    fn get_info(&self) -> InitializeResult {
        self.0.init.clone()
    }
}

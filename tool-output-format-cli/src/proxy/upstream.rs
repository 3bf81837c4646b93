//! The proxy as an MCP client of its upstream: starting the child process, the client side
//! of the link ([`ClientSide`]: what upstream asks of the host, forwarded), and the
//! forwarding helpers both sides share ([`Link`]).
//!
//! Request ids and progress tokens differ on the two connections: rmcp numbers each side's
//! requests itself and gives every outgoing request its own progress token. So a forwarded
//! request remembers which token its sender used ([`forward`]), progress notifications
//! are given that token back on their way, and a cancellation reaches the other side as the
//! cancellation of the forwarded request (the incoming request's cancellation token ends the
//! wait and sends `notifications/cancelled` for the forwarded id).
//!
//! Under `--listen` the link is shared ([`Link::shared`]): several MCP clients, each in a
//! session of its own, use one upstream. Upstream's own requests (sampling, elicitation,
//! roots) go to the client whose forwarded request is in flight (the latest, when several
//! are), on that request's event stream, and wait for one when none is; its notifications
//! that belong to no request go to every client. The progress of a forwarded request goes
//! back to the client that sent it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CancelledNotification, CancelledNotificationParam, ClientConfig, ClientResult, CustomResult,
    ErrorData, GetExtensions, GetMeta, Implementation, ProgressNotification, ProgressToken,
    RequestId, RequestMetaObject, ServerNotification, ServerRequest,
};
use rmcp::service::{
    NotificationContext, OriginatingRequestId, Peer, PeerRequestOptions, RequestContext,
    RoleClient, RoleServer, RunningService, ServiceError, ServiceRole,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{Service, ServiceExt};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::raw::{self, RawResults};
use super::upstream_http::RawHttp;

/// Forwarded requests' progress tokens: the forwarded request's token -> where its progress
/// goes back.
#[derive(Debug, Default)]
pub struct Tokens {
    routes: Mutex<HashMap<ProgressToken, Route>>,
    /// Written while a request is sent and its route noted: the peer may answer with progress
    /// at once (rmcp gives the token only as it sends), and that progress waits for the route
    /// instead of finding none and being dropped.
    sending: tokio::sync::RwLock<()>,
}

/// Where the progress of a forwarded request goes back: its sender's token and, for a
/// request of a host, that host's connection.
#[derive(Debug, Clone)]
pub struct Route {
    /// The token the sender gave its request.
    pub token: ProgressToken,
    /// The host that sent the request (none for upstream's requests: there is one upstream).
    pub peer: Option<Peer<RoleServer>>,
}

/// A request as its sender sent it: its meta, its cancellation token and, for a host's
/// request, the host's connection (where its progress goes back).
pub struct Sender<'a> {
    /// The request's `_meta` (its progress token among others).
    pub meta: &'a RequestMetaObject,
    /// Cancelled when the sender cancels the request.
    pub ct: &'a CancellationToken,
    /// The host's connection, for a host's request.
    pub peer: Option<Peer<RoleServer>>,
}

/// A host's request forwarded to upstream and not answered yet (`--listen`): upstream's own
/// requests go to its host, on its event stream.
#[derive(Debug, Clone)]
pub struct Caller {
    seq: u64,
    /// The host (one client's session).
    pub peer: Peer<RoleServer>,
    /// The request's id in that session.
    pub id: RequestId,
}

/// While it lives, its request is among the link's callers ([`Link::calling`]).
pub struct Calling<'a> {
    link: &'a Link,
    seq: u64,
}

impl Drop for Calling<'_> {
    fn drop(&mut self) {
        let seq = self.seq;
        self.link
            .callers
            .send_modify(|c| c.retain(|c| c.seq != seq));
    }
}

/// What both sides share: the host's peer (known once the host has connected), the
/// progress tokens of forwarded requests and the raw results of responses, per direction.
#[derive(Debug)]
pub struct Link {
    host: watch::Sender<Option<Peer<RoleServer>>>,
    /// Several hosts (`--listen`), each in a session of its own.
    shared: bool,
    /// The hosts' requests in flight to upstream, oldest first (`--listen`).
    callers: watch::Sender<Vec<Caller>>,
    next_caller: AtomicU64,
    /// Every host's session (`--listen`), for notifications that belong to no request.
    sessions: Mutex<Vec<Peer<RoleServer>>>,
    /// Upstream's token (the proxy's request to upstream) -> the host's.
    to_host: Tokens,
    /// The host's token (the proxy's request to the host) -> upstream's.
    to_upstream: Tokens,
    /// The upstream command, for messages.
    pub command: String,
    /// Raw results of upstream's responses (filled on a raw link, [`raw`]).
    pub from_upstream: Arc<RawResults>,
    /// Raw results of the host's responses (filled on a raw link).
    pub from_host: Arc<RawResults>,
    /// The params of the host's `initialize`, when the host spoke first (standard
    /// input/output): upstream is told the host's capabilities and client info.
    pub hello: Option<serde_json::Value>,
}

impl Default for Link {
    fn default() -> Self {
        Link {
            host: watch::Sender::new(None),
            shared: false,
            callers: watch::Sender::new(Vec::new()),
            next_caller: AtomicU64::new(0),
            sessions: Mutex::default(),
            to_host: Tokens::default(),
            to_upstream: Tokens::default(),
            command: String::new(),
            from_upstream: Arc::default(),
            from_host: Arc::default(),
            hello: None,
        }
    }
}

impl Link {
    /// A link for the upstream started by `command`, with one host (standard input/output).
    pub fn new(command: String) -> Self {
        Link {
            command,
            ..Link::default()
        }
    }

    /// A link for the upstream started by `command` that several hosts share (`--listen`):
    /// it never has one host; upstream's requests go to the host of a request in flight
    /// ([`Link::caller`]) and its notifications that belong to no request to every session.
    pub fn shared(command: String) -> Self {
        Link {
            command,
            shared: true,
            ..Link::default()
        }
    }

    /// Whether several hosts share this link (`--listen`).
    pub fn is_shared(&self) -> bool {
        self.shared
    }

    /// Remember the host's peer (the first request or the end of `initialize` gives it).
    /// A shared link keeps none: no host's messages go to another host.
    pub fn set_host(&self, peer: &Peer<RoleServer>) {
        if !self.shared {
            self.host.send_if_modified(|host| {
                let unset = host.is_none();
                if unset {
                    *host = Some(peer.clone());
                }
                unset
            });
        }
    }

    /// The host's peer, once connected.
    pub fn host(&self) -> Option<Peer<RoleServer>> {
        self.host.borrow().clone()
    }

    /// The host's peer, waiting until it has connected: upstream may ask for the roots
    /// while it initializes, before the host is there (the proxy starts upstream first).
    pub async fn wait_host(&self) -> Option<Peer<RoleServer>> {
        let mut rx = self.host.subscribe();
        rx.wait_for(Option::is_some).await.ok()?.clone()
    }

    /// Note `peer`'s request `id` as in flight to upstream until the guard is dropped
    /// (`--listen`): upstream's own requests meanwhile go to `peer`.
    pub fn calling(&self, peer: &Peer<RoleServer>, id: &RequestId) -> Calling<'_> {
        let seq = self.next_caller.fetch_add(1, Ordering::Relaxed);
        let caller = Caller {
            seq,
            peer: peer.clone(),
            id: id.clone(),
        };
        self.callers.send_modify(|c| c.push(caller));
        Calling { link: self, seq }
    }

    /// The host whose request to upstream started last among those in flight, waiting
    /// for one when none is: upstream's request is answered by the client whose call it
    /// serves (a stdio upstream does not say which call; with several in flight, the
    /// latest), or, asked outside any call (server-filesystem asks for the roots as it
    /// starts), by the next client that makes one.
    pub async fn caller(&self) -> Option<Caller> {
        let mut rx = self.callers.subscribe();
        let callers = rx.wait_for(|c| !c.is_empty()).await.ok()?;
        callers.last().cloned()
    }

    /// Remember one host's session (`--listen`), for the notifications that belong to no
    /// request; the ended ones are forgotten.
    pub fn add_session(&self, peer: &Peer<RoleServer>) {
        let mut sessions = lock(&self.sessions);
        sessions.retain(|p| !p.is_transport_closed());
        sessions.push(peer.clone());
    }

    /// The hosts' sessions still open.
    pub fn sessions(&self) -> Vec<Peer<RoleServer>> {
        let mut sessions = lock(&self.sessions);
        sessions.retain(|p| !p.is_transport_closed());
        sessions.clone()
    }

    /// Tokens of requests forwarded to upstream: upstream's token -> the host's.
    pub fn tokens_to_host(&self) -> &Tokens {
        &self.to_host
    }

    /// Tokens of requests forwarded to the host: the host's token -> upstream's.
    pub fn tokens_to_upstream(&self) -> &Tokens {
        &self.to_upstream
    }
}

/// Send `request` (as `from` sent it) through `peer`, wait at most `timeout` (none: no
/// bound), route progress notifications back to the sender with its token (`tokens`),
/// cancel the forwarded request when the sender cancels. Errors are explained by `explain`.
/// The answer is the raw result the link kept in `raw` when there is one (a raw link,
/// [`raw`]): what the peer sent, every field of it; else rmcp's typed answer.
pub async fn forward<R, Req, Resp>(
    peer: &Peer<R>,
    mut request: Req,
    from: Sender<'_>,
    (tokens, raw): (&Tokens, &RawResults),
    timeout: Option<Duration>,
    explain: impl Fn(ServiceError) -> ErrorData,
) -> Result<Resp, ErrorData>
where
    R: ServiceRole<Req = Req, PeerResp = Resp>,
    Req: GetMeta<Metadata = RequestMetaObject>,
    Resp: From<CustomResult>,
{
    let Sender {
        meta,
        ct,
        peer: sender,
    } = from;
    let sender_token = meta.get_progress_token();
    *request.get_meta_mut() = meta.clone();
    let options = match timeout {
        Some(t) => PeerRequestOptions::with_timeout(t),
        None => PeerRequestOptions::no_options(),
    };
    let sending = tokens.sending.write().await;
    let handle = peer
        .send_request_with_option(request, options)
        .await
        .map_err(&explain)?;
    let token = handle.progress_token.clone();
    if let Some(sender_token) = sender_token {
        let route = Route {
            token: sender_token,
            peer: sender,
        };
        lock(&tokens.routes).insert(token.clone(), route);
    }
    drop(sending);
    let id = handle.id.clone();
    let out = tokio::select! {
        r = handle.await_response() => r.map_err(&explain),
        () = ct.cancelled() => {
            let cancel = CancelledNotification::new(CancelledNotificationParam::new(
                Some(id.clone()),
                Some("cancelled by the client of tof proxy".to_owned()),
            ));
            let _ = peer.send_notification(cancel.into()).await;
            Err(ErrorData::internal_error("the request was cancelled", None))
        }
    };
    // The progress upstream sent before its answer reaches the sender first.
    raw.progress_settled(&token, PROGRESS_SETTLE).await;
    lock(&tokens.routes).remove(&token);
    let kept = raw.take(&id);
    match (out, kept) {
        (Ok(_), Some(v)) => Ok(Resp::from(CustomResult(v))),
        (out, _) => out,
    }
}

/// The longest an answer waits for the progress notifications read before it to be passed
/// on (they are on tasks of their own; one that never is passed on holds no answer longer).
const PROGRESS_SETTLE: Duration = Duration::from_millis(500);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where a progress notification's token goes back (`tokens`: the forwarded request's token
/// to its sender's); `None` when it names no forwarded request (then it is dropped). Waits
/// while a request is being sent, whose route may be the one.
pub async fn retoken(tokens: &Tokens, token: &ProgressToken) -> Option<Route> {
    let _sent = tokens.sending.read().await;
    lock(&tokens.routes).get(token).cloned()
}

/// Give a progress notification its sender's token back, with the host that sent the
/// request (if a host did); `None` when it belongs to no forwarded request.
pub async fn progress_for(
    tokens: &Tokens,
    mut n: ProgressNotification,
) -> Option<(ProgressNotification, Option<Peer<RoleServer>>)> {
    let route = retoken(tokens, &n.params.progress_token).await?;
    n.params.progress_token = route.token;
    Some((n, route.peer))
}

/// The proxy's side of the upstream connection: what upstream asks of its client
/// (sampling, elicitation, roots) goes to the host, and its notifications too.
pub struct ClientSide {
    link: Arc<Link>,
    info: ClientConfig,
}

impl ClientSide {
    /// The client the proxy is to its upstream. With one host that spoke first it declares
    /// the host's capabilities and client info ([`Link::hello`]); with hosts not heard yet
    /// (`--listen`, started before any client), the capabilities it can forward (roots,
    /// sampling, elicitation): when the host asked did not declare one, the request is
    /// refused with an MCP error saying so.
    pub fn new(link: Arc<Link>) -> Self {
        let hello = link.hello.as_ref();
        let capabilities = if let Some(caps) = hello.and_then(|h| h.get("capabilities")) {
            // The host's own: upstream asks only for what the host can answer.
            serde_json::from_value(caps.clone()).unwrap_or_default()
        } else {
            serde_json::from_value(serde_json::json!({
                "roots": {"listChanged": true},
                "sampling": {},
                "elicitation": {}
            }))
            .unwrap_or_default()
        };
        let client = hello
            .and_then(|h| h.get("clientInfo"))
            .and_then(|c| serde_json::from_value(c.clone()).ok())
            .unwrap_or_else(|| Implementation::new("tof-proxy", env!("CARGO_PKG_VERSION")));
        let info = ClientConfig::new(capabilities, client);
        ClientSide { link, info }
    }
}

impl Service<RoleClient> for ClientSide {
    async fn handle_request(
        &self,
        request: ServerRequest,
        ctx: RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        // As it came, when rmcp read it typed from an event stream (`--upstream-url`).
        let request = match self.link.from_upstream.take_request(&ctx.id) {
            Some(raw) => ServerRequest::CustomRequest(raw),
            None => request,
        };
        if let ServerRequest::PingRequest(_) = request {
            return Ok(ClientResult::empty(()));
        }
        if self.link.is_shared() {
            return self.to_caller(request, &ctx).await;
        }
        // Upstream may ask while it initializes (server-filesystem asks for the roots
        // then): the request waits until the host has connected.
        let Some(host) = self.link.wait_host().await else {
            return Err(ErrorData::internal_error(
                "tof proxy: the MCP client is gone: no answer will come",
                None,
            ));
        };
        if let Some(missing) = undeclared(&host, &request) {
            return Err(ErrorData::invalid_request(
                format!(
                    "tof proxy: the MCP client did not declare the `{missing}` capability, so this request can not be forwarded"
                ),
                None,
            ));
        }
        let from = Sender {
            meta: &ctx.meta,
            ct: &ctx.ct,
            peer: None,
        };
        let links = (&self.link.to_upstream, &*self.link.from_host);
        forward(&host, request, from, links, None, |e| {
            explain(e, "the MCP client (host)", None)
        })
        .await
    }

    async fn handle_notification(
        &self,
        n: ServerNotification,
        _: NotificationContext<RoleClient>,
    ) -> Result<(), ErrorData> {
        let (n, sender) = match n {
            // Cancellations of forwarded requests arrive as the cancellation token of the
            // request being answered: the ids here are upstream's.
            ServerNotification::CancelledNotification(_) => return Ok(()),
            // Progress goes back to the host whose request it is.
            ServerNotification::ProgressNotification(p) => {
                let read = p.params.progress_token.clone();
                let Some((p, sender)) = progress_for(&self.link.to_host, p).await else {
                    self.link.from_upstream.progress_passed(&read);
                    return Ok(());
                };
                let host = sender.or_else(|| self.link.host());
                if let Some(host) = host {
                    let _ = host
                        .send_notification(ServerNotification::ProgressNotification(p))
                        .await;
                }
                self.link.from_upstream.progress_passed(&read);
                return Ok(());
            }
            // As it came, when rmcp read it typed from an event stream (`--upstream-url`).
            other => match self.link.from_upstream.take_notification(&other) {
                Some(raw) => (ServerNotification::CustomNotification(raw), None),
                None => (other, None),
            },
        };
        // Anything else belongs to no request: it goes to the one host, or under --listen
        // to every host (they share the upstream whose lists changed, whose log it is).
        if sender.is_none() && self.link.is_shared() {
            for host in self.link.sessions() {
                let _ = host.send_notification(n.clone()).await;
            }
            return Ok(());
        }
        let Some(host) = sender.or_else(|| self.link.host()) else {
            return Ok(());
        };
        let _ = host.send_notification(n).await;
        Ok(())
    }

    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }
}

impl ClientSide {
    /// Upstream's `request` to the host of a request in flight ([`Link::caller`]), on
    /// that request's event stream (`--listen`).
    async fn to_caller(
        &self,
        mut request: ServerRequest,
        ctx: &RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        let caller = tokio::select! {
            caller = self.link.caller() => caller,
            () = ctx.ct.cancelled() => None,
        };
        let Some(caller) = caller else {
            return Err(ErrorData::internal_error(
                "tof proxy: the request was cancelled before an MCP client was there to answer it",
                None,
            ));
        };
        if let Some(missing) = undeclared(&caller.peer, &request) {
            return Err(ErrorData::invalid_request(
                format!(
                    "tof proxy: the MCP client did not declare the `{missing}` capability, so this request can not be forwarded"
                ),
                None,
            ));
        }
        // rmcp's HTTP session sends a request on the event stream of the request its
        // extension names. rmcp gives a request sent from a handler the id of the request
        // that handler answers (here upstream's, unknown to the host's session), and that
        // mark does not cross `tokio::spawn`: the request is sent from a task of its own.
        request
            .extensions_mut()
            .insert(OriginatingRequestId(caller.id.clone()));
        let link = self.link.clone();
        let (meta, ct) = (ctx.meta.clone(), ctx.ct.clone());
        let sent = tokio::spawn(async move {
            let from = Sender {
                meta: &meta,
                ct: &ct,
                peer: None,
            };
            let links = (&link.to_upstream, &*link.from_host);
            forward(&caller.peer, request, from, links, None, |e| {
                explain(e, "the MCP client (host)", None)
            })
            .await
        });
        sent.await.unwrap_or_else(|e| {
            Err(ErrorData::internal_error(
                format!("tof proxy: forwarding the request to the MCP client failed: {e}"),
                None,
            ))
        })
    }
}

/// The capability a server request needs that the host did not declare.
fn undeclared(host: &Peer<RoleServer>, request: &ServerRequest) -> Option<&'static str> {
    let info = host.peer_info()?;
    let caps = &info.capabilities;
    let method = match request {
        ServerRequest::CreateMessageRequest(_) => "sampling/createMessage",
        ServerRequest::ListRootsRequest(_) => "roots/list",
        ServerRequest::ElicitRequest(_) => "elicitation/create",
        ServerRequest::CustomRequest(c) => c.method.as_str(),
        _ => return None,
    };
    match method {
        "sampling/createMessage" if caps.sampling.is_none() => Some("sampling"),
        "roots/list" if caps.roots.is_none() => Some("roots"),
        "elicitation/create" if caps.elicitation.is_none() => Some("elicitation"),
        _ => None,
    }
}

/// A failed forwarded request as an MCP error the other side can act on. `who` names the
/// peer that failed, `timeout` the bound that was reached.
pub fn explain(e: ServiceError, who: &str, timeout: Option<Duration>) -> ErrorData {
    match e {
        ServiceError::McpError(e) => e,
        ServiceError::Timeout { .. } => ErrorData::internal_error(
            format!(
                "tof proxy: {who} did not answer within {} s; the request was cancelled. \
                 Retry, or raise the bound with --timeout SECS (timeout in [defaults])",
                timeout.map_or(0, |t| t.as_secs())
            ),
            None,
        ),
        ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
            ErrorData::internal_error(
                format!(
                    "tof proxy: {who} is gone (it exited or closed its connection): no answer will come; restart the MCP server"
                ),
                None,
            )
        }
        other => ErrorData::internal_error(format!("tof proxy: {who}: {other}"), None),
    }
}

/// The running connection to upstream.
pub type Upstream = RunningService<RoleClient, ClientSide>;

/// Where the upstream is.
#[derive(Debug, Clone)]
pub enum Target {
    /// A command the proxy starts, speaking MCP on its standard input and output.
    Command(String, Vec<String>),
    /// A streamable HTTP endpoint (`http://HOST:PORT/mcp`).
    Url(String),
}

impl Target {
    /// The command or the URL, for messages.
    pub fn name(&self) -> &str {
        match self {
            Target::Command(c, _) | Target::Url(c) => c,
        }
    }
}

/// Connect to `target` and initialize it as an MCP server, within `timeout`.
///
/// # Errors
///
/// A sentence saying what failed.
pub async fn connect(
    target: &Target,
    link: Arc<Link>,
    timeout: Duration,
) -> Result<Upstream, String> {
    match target {
        Target::Command(command, args) => start(command, args, link, timeout).await,
        Target::Url(url) => {
            let client = RawHttp::new(link.from_upstream.clone(), link.hello.clone());
            let config = StreamableHttpClientTransportConfig::with_uri(url.clone());
            let transport = StreamableHttpClientTransport::with_client(client, config);
            match tokio::time::timeout(timeout, ClientSide::new(link).serve(transport)).await {
                Ok(Ok(running)) => Ok(running),
                Ok(Err(e)) => Err(format!(
                    "tof proxy: the upstream at {url} did not initialize as an MCP server over \
                     streamable HTTP: {e}"
                )),
                Err(_) => Err(format!(
                    "tof proxy: the upstream at {url} did not answer `initialize` within {} s",
                    timeout.as_secs()
                )),
            }
        }
    }
}

/// Start `command` with `args` and initialize it as an MCP server, within `timeout`.
///
/// # Errors
///
/// A sentence saying what failed: the command not found or not runnable, no MCP answer to
/// `initialize` in time, or an answer that is not one.
pub async fn start(
    command: &str,
    args: &[String],
    link: Arc<Link>,
    timeout: Duration,
) -> Result<Upstream, String> {
    let transport = raw::child(
        command,
        args,
        link.from_upstream.clone(),
        link.hello.clone(),
    )
    .map_err(|e| format!("tof proxy: can not start the upstream `{command}`: {e}"))?;
    match tokio::time::timeout(timeout, ClientSide::new(link).serve(transport)).await {
        Ok(Ok(running)) => Ok(running),
        Ok(Err(e)) => Err(format!(
            "tof proxy: the upstream `{command}` did not initialize as an MCP server: {e}"
        )),
        Err(_) => Err(format!(
            "tof proxy: the upstream `{command}` did not answer `initialize` within {} s \
             (raise it with --timeout SECS)",
            timeout.as_secs()
        )),
    }
}

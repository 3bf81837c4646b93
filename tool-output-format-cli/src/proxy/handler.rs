//! The proxy as an MCP server to its host: every request goes to upstream as it came (every
//! field of it, read as JSON by [`super::raw`] on every transport, and its answer comes back
//! so), except
//! `initialize` (answered with upstream's own answer: capabilities, server info,
//! instructions), `tools/list` (upstream's tools, plus the fetch tool with a store; a tool
//! whose `structuredContent` may be left out is listed without its `outputSchema`) and
//! `tools/call` (the result rendered by [`results`], or a page of a stored
//! result for the fetch tool). Notifications go both ways (see [`upstream`]).

use std::sync::Arc;
use std::time::Duration;

use rmcp::Service;
use rmcp::model::{
    ClientNotification, ClientRequest, CustomRequest, CustomResult, ErrorData, InitializeResult,
    ServerResult, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleClient, RoleServer};
use serde_json::Value;
use tool_output_format::Formatter;
use tool_output_format::store::Fetch;

use super::config::{QueryArgs, Redacting, StructuredPolicy};
use super::results;
use super::upstream::{self, Link};

/// The host-facing side of the proxy.
pub struct ServerSide {
    /// The shared link (host peer, progress tokens).
    pub link: Arc<Link>,
    /// Upstream's peer.
    pub upstream: Peer<RoleClient>,
    /// Upstream's answer to `initialize`, given to the host as the proxy's.
    pub init: InitializeResult,
    /// Upstream's raw answer to `initialize` (every field it sent), when the link kept it:
    /// what the host is given in place of `init`.
    pub init_raw: Option<Value>,
    /// The formatter, with its store.
    pub formatter: Arc<Formatter>,
    /// The fetch tool, when there is a store.
    pub fetch: Option<Arc<Fetch>>,
    /// Tools whose results redact keys.
    pub redacting: Redacting,
    /// The argument of each tool whose text focuses its result.
    pub query_args: QueryArgs,
    /// Bound on each upstream request.
    pub timeout: Duration,
    /// What becomes of each tool's `structuredContent`.
    pub structured: StructuredPolicy,
}

impl ServerSide {
    async fn forward(
        &self,
        request: ClientRequest,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let timeout = self.timeout;
        let who = format!("the upstream `{}`", self.link.command);
        let from = upstream::Sender {
            meta: &ctx.meta,
            ct: &ctx.ct,
            peer: Some(ctx.peer.clone()),
        };
        let links = (self.link.tokens_to_host(), &*self.link.from_upstream);
        // Under --listen, upstream's own requests meanwhile go to this host.
        let _calling = self
            .link
            .is_shared()
            .then(|| self.link.calling(&ctx.peer, &ctx.id));
        upstream::forward(&self.upstream, request, from, links, Some(timeout), |e| {
            upstream::explain(e, &who, Some(timeout))
        })
        .await
    }

    async fn call_tool(
        &self,
        call: CustomRequest,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let params = call.params.as_ref();
        let name = params
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let arguments = params
            .and_then(|p| p.get("arguments"))
            .and_then(Value::as_object);
        if let Some(fetch) = self.fetch.as_ref().filter(|f| f.tool() == name) {
            let page = fetch.mcp_call_async(arguments).await;
            return Ok(ServerResult::CallToolResult(page.into_call_tool_result()));
        }
        let query = self.query_args.query(&name, arguments).map(str::to_owned);
        let result = self
            .forward(ClientRequest::CustomRequest(call), ctx)
            .await?;
        let redacting = self.redacting.applies_to(&name);
        let structured = self.structured.for_tool(&name, redacting);
        let budget = self.structured.budget(&name);
        let out = results::render(
            &self.formatter,
            &name,
            query.as_deref(),
            value(result),
            (structured, budget),
        )
        .await;
        Ok(ServerResult::CustomResult(CustomResult(out)))
    }

    async fn list_tools(
        &self,
        request: CustomRequest,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let mut list = value(
            self.forward(ClientRequest::CustomRequest(request), ctx)
                .await?,
        );
        let last_page = list.get("nextCursor").is_none_or(Value::is_null);
        if let Some(tools) = list.get_mut("tools").and_then(Value::as_array_mut) {
            for tool in tools.iter_mut() {
                let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
                let redacting = self.redacting.applies_to(name);
                let structured = self.structured.for_tool(name, redacting);
                results::list_tool(tool, structured);
            }
            // The fetch tool ends the last page.
            if last_page && let Some(fetch) = &self.fetch {
                let tool: Tool = fetch.mcp_tool();
                tools.push(serde_json::to_value(tool).unwrap_or_default());
            }
        }
        Ok(ServerResult::CustomResult(CustomResult(list)))
    }
}

/// A result as JSON: the raw one when the link kept it (every field upstream sent), else
/// rmcp's typed one (an answer no raw reader saw).
fn value(result: ServerResult) -> Value {
    match result {
        ServerResult::CustomResult(CustomResult(v)) => v,
        other => serde_json::to_value(other).unwrap_or_default(),
    }
}

/// A request as it came: method and params (a typed one, that no raw reader saw, through
/// rmcp's model).
fn custom(request: ClientRequest) -> Result<CustomRequest, ErrorData> {
    match request {
        ClientRequest::CustomRequest(c) => Ok(c),
        typed => serde_json::to_value(&typed)
            .and_then(serde_json::from_value)
            .map_err(|e| ErrorData::internal_error(format!("tof proxy: {e}"), None)),
    }
}

impl ServerSide {
    /// Answer one request of the host: `initialize` with upstream's answer, `tools/list`
    /// and `tools/call` through the formatter, everything else forwarded as it came. Both
    /// transports use it: standard input/output through [`Service`], `--listen` through
    /// [`super::listen`].
    pub async fn dispatch(
        &self,
        request: ClientRequest,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        self.link.set_host(&ctx.peer);
        match request {
            ClientRequest::InitializeRequest(_) => {
                Ok(ServerResult::InitializeResult(self.init.clone()))
            }
            ClientRequest::PingRequest(_) => Ok(ServerResult::empty(())),
            r @ (ClientRequest::ListToolsRequest(_)
            | ClientRequest::CallToolRequest(_)
            | ClientRequest::CustomRequest(_)) => {
                let r = custom(r)?;
                match r.method.as_str() {
                    "tools/list" => self.list_tools(r, &ctx).await,
                    "tools/call" => self.call_tool(r, &ctx).await,
                    _ => self.forward(ClientRequest::CustomRequest(r), &ctx).await,
                }
            }
            other => self.forward(other, &ctx).await,
        }
    }

    /// Pass one notification of the host to upstream (progress with upstream's token back).
    pub async fn notify(
        &self,
        n: ClientNotification,
        ctx: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.link.set_host(&ctx.peer);
        let n = match n {
            // rmcp sends upstream its own `initialized`; a host's cancellation reaches the
            // forwarded request through the request's cancellation token.
            ClientNotification::InitializedNotification(_)
            | ClientNotification::CancelledNotification(_) => return Ok(()),
            ClientNotification::ProgressNotification(p) => {
                let read = p.params.progress_token.clone();
                if let Some((p, _)) =
                    upstream::progress_for(self.link.tokens_to_upstream(), p).await
                {
                    let n = ClientNotification::ProgressNotification(p);
                    let _ = self.upstream.send_notification(n).await;
                }
                self.link.from_host.progress_passed(&read);
                return Ok(());
            }
            other => other,
        };
        let _ = self.upstream.send_notification(n).await;
        Ok(())
    }
}

impl Service<RoleServer> for ServerSide {
    async fn handle_request(
        &self,
        request: ClientRequest,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        self.dispatch(request, ctx).await
    }

    async fn handle_notification(
        &self,
        n: ClientNotification,
        ctx: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.notify(n, ctx).await
    }

    fn get_info(&self) -> InitializeResult {
        self.init.clone()
    }
}

//! The proxy as an MCP server to its host: every request goes to upstream as it came, except
//! `initialize` (answered with upstream's own answer: capabilities, server info,
//! instructions), `tools/list` (upstream's tools, plus the fetch tool with a store) and
//! `tools/call` (the result rendered by [`results`], or a page of a stored
//! result for the fetch tool). Notifications go both ways (see [`upstream`]).

use std::sync::Arc;
use std::time::Duration;

use rmcp::Service;
use rmcp::model::{
    CallToolResult, ClientNotification, ClientRequest, ErrorData, InitializeResult, ServerResult,
    Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleClient, RoleServer};
use tool_output_format::Formatter;
use tool_output_format::store::Fetch;

use super::config::{QueryArgs, Redacting};
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
        upstream::forward(
            &self.upstream,
            request,
            from,
            self.link.tokens_to_host(),
            Some(timeout),
            |e| upstream::explain(e, &who, Some(timeout)),
        )
        .await
    }

    async fn call_tool(
        &self,
        request: ClientRequest,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        let ClientRequest::CallToolRequest(call) = &request else {
            return self.forward(request, ctx).await;
        };
        let name = call.params.name.to_string();
        if let Some(fetch) = self.fetch.as_ref().filter(|f| f.tool() == name) {
            let page = fetch.mcp_call_async(call.params.arguments.as_ref()).await;
            return Ok(ServerResult::CallToolResult(page.into_call_tool_result()));
        }
        let query = self
            .query_args
            .query(&name, call.params.arguments.as_ref())
            .map(str::to_owned);
        match self.forward(request, ctx).await? {
            ServerResult::CallToolResult(result) => {
                let redacting = self.redacting.applies_to(&name);
                let out: CallToolResult =
                    results::render(&self.formatter, &name, query.as_deref(), result, redacting)
                        .await;
                Ok(ServerResult::CallToolResult(out))
            }
            other => Ok(other),
        }
    }

    async fn list_tools(
        &self,
        request: ClientRequest,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        match self.forward(request, ctx).await? {
            ServerResult::ListToolsResult(mut list) => {
                list.tools = std::mem::take(&mut list.tools)
                    .into_iter()
                    .map(|t| {
                        let redacting = self.redacting.applies_to(&t.name);
                        results::strip_schema(t, redacting)
                    })
                    .collect();
                // The fetch tool ends the last page.
                if list.next_cursor.is_none()
                    && let Some(fetch) = &self.fetch
                {
                    let tool: Tool = fetch.mcp_tool();
                    list.tools.push(tool);
                }
                Ok(ServerResult::ListToolsResult(list))
            }
            other => Ok(other),
        }
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
            r @ ClientRequest::ListToolsRequest(_) => self.list_tools(r, &ctx).await,
            r @ ClientRequest::CallToolRequest(_) => self.call_tool(r, &ctx).await,
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
            // Under --listen upstream was told of no roots (several clients share it).
            ClientNotification::RootsListChangedNotification(_) if self.link.is_shared() => {
                return Ok(());
            }
            ClientNotification::ProgressNotification(p) => {
                match upstream::progress_for(self.link.tokens_to_upstream(), p) {
                    Some((p, _)) => ClientNotification::ProgressNotification(p),
                    None => return Ok(()),
                }
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

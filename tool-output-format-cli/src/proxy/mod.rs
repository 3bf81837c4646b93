//! `tof proxy` (SPEC 21): an MCP server to its host and an MCP client to its upstream, the
//! formatter between them. Every `tools/call` result is rendered by the library with that
//! tool's options; everything else passes through.
//!
//! One file one job: [`config`] (the TOML file and the flags, onto the library's options),
//! [`upstream`] (the child process, the client side and the forwarding both sides share),
//! [`handler`] (the host side), [`results`] (one result rendered), [`listen`] (the host side
//! served as streamable HTTP with `--listen`), [`upstream_http`] (the upstream reached over
//! streamable HTTP with `--upstream-url`), [`raw`] (every message read as JSON, so that what
//! passes through keeps every field).
//!
//! The proxy holds no rule of its own: budgets, tables, notices, the `Next:` line, the store
//! and the fetch pages are the library's ([`Formatter::format_async`],
//! [`Fetch::mcp_call_async`]); this module only adapts options and carries messages.
//!
//! [`Formatter::format_async`]: tool_output_format::Formatter::format_async
//! [`Fetch::mcp_call_async`]: tool_output_format::store::Fetch::mcp_call_async

pub mod config;
pub mod handler;
pub mod listen;
pub mod raw;
pub mod results;
pub mod upstream;
pub mod upstream_http;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{InitializeResult, ServerCapabilities};
use serde_json::Value;
use tool_output_format::store::MemoryStore;
use tool_output_format::store::{AsyncResultStore, Fetch};

use crate::cli::ProxyArgs;
use crate::error::Error;
use config::{Flags, STORE_TTL, Settings, StoreChoice};
use handler::ServerSide;
use upstream::{Link, Target};

/// The least time the upstream is given to start and answer `initialize` and `tools/list`.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a store put may take before the result says it was not stored.
const STORE_TIMEOUT: Duration = Duration::from_secs(2);

/// Run the proxy until the host closes its side (with `--listen`: until SIGTERM or Ctrl-C).
///
/// # Errors
///
/// A bad config or flag, an address that can not be listened on, an upstream that can not
/// start or does not initialize, a config table naming no upstream tool: each one sentence
/// on standard error, before the host is served.
pub fn run(args: &ProxyArgs) -> Result<(), Error> {
    let target = match (&args.upstream_url, args.command.split_first()) {
        (Some(url), _) if url.starts_with("http://") => Target::Url(url.clone()),
        (Some(url), _) if url.starts_with("https://") => {
            return Err(Error::Proxy(format!(
                "tof proxy: --upstream-url {url}: https is not supported yet (this build has \
                 no TLS); reach the server over http:// on a trusted network, or start it as \
                 a command after --"
            )));
        }
        (Some(url), _) => {
            return Err(Error::Proxy(format!(
                "tof proxy: --upstream-url {url}: give the server's streamable HTTP endpoint, \
                 e.g. http://127.0.0.1:8000/mcp"
            )));
        }
        (None, Some((command, rest))) => Target::Command(command.clone(), rest.to_vec()),
        (None, None) => {
            return Err(Error::Proxy(
                "tof proxy: no upstream: give its command after --, e.g. \
                 tof proxy -- npx -y @modelcontextprotocol/server-github \
                 (or its URL with --upstream-url)"
                    .to_owned(),
            ));
        }
    };
    let flags = Flags {
        agent: args.agent,
        max_chars: args.max_chars,
        max_tokens: args.max_tokens,
        store: args.store.clone(),
        fetch_tool: args.fetch_tool.clone(),
        timeout: args.timeout,
        structured_content: args.structured_content.clone(),
    };
    let (config_name, settings) = match &args.config {
        Some(path) => {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|error| Error::Io {
                context: format!("reading the proxy config {name}"),
                error,
            })?;
            let dir = path.parent().unwrap_or(Path::new("."));
            let s = config::settings(Some((&name, &text, dir)), &flags).map_err(Error::Proxy)?;
            (name, s)
        }
        None => (
            "<no config>".to_owned(),
            config::settings(None, &flags).map_err(Error::Proxy)?,
        ),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| Error::Io {
            context: "starting the proxy's runtime".into(),
            error,
        })?;
    runtime.block_on(serve(
        &target,
        &config_name,
        settings,
        args.listen.as_deref(),
    ))
}

/// Start the upstream, check the config against its tools, then serve the host on standard
/// input/output (whose `initialize` is read first: upstream is told the host's capabilities),
/// or as streamable HTTP on `listen` (bound first, so that a bad address fails before the
/// upstream starts).
async fn serve(
    target: &Target,
    config_name: &str,
    settings: Settings,
    listen: Option<&str>,
) -> Result<(), Error> {
    let listener = match listen {
        Some(addr) => Some(listen::bind(addr).await?),
        None => None,
    };
    let store: Option<Arc<dyn AsyncResultStore>> = match &settings.store {
        StoreChoice::None => None,
        StoreChoice::Memory => Some(Arc::new(MemoryStore::new(STORE_TTL))),
        StoreChoice::Redis(url) => Some(redis_store(url)?),
    };
    let command = target.name();
    // One host on standard input/output speaks first: its `initialize` is read before
    // upstream starts, so that upstream is told the host's capabilities.
    let mut host = match listener {
        Some(_) => None,
        None => Some(raw::Lines::<rmcp::RoleServer, _, _>::new(
            tokio::io::stdin(),
            tokio::io::stdout(),
            Arc::default(),
        )),
    };
    let hello = match host.as_mut() {
        Some(lines) => lines
            .first_message()
            .await
            .filter(|m| m.get("method").and_then(Value::as_str) == Some("initialize"))
            .and_then(|m| m.get("params").cloned()),
        None => None,
    };
    let link = Arc::new(match listener {
        Some(_) => Link::shared(command.to_owned()),
        None => {
            let mut link = Link::new(command.to_owned());
            link.hello = hello;
            link
        }
    });
    // Starting may take longer than a call (an interpreter, `npx` fetching a package): the
    // start is bounded by the larger of the call timeout and STARTUP_TIMEOUT.
    let startup = settings.timeout.max(STARTUP_TIMEOUT);
    let upstream = upstream::connect(target, link.clone(), startup)
        .await
        .map_err(Error::Proxy)?;
    let peer = upstream.peer().clone();
    let tools = match tokio::time::timeout(startup, peer.list_all_tools()).await {
        Ok(Ok(tools)) => tools,
        // An upstream without tools answers `tools/list` with an error: no tools.
        Ok(Err(_)) => Vec::new(),
        Err(_) => {
            return Err(Error::Proxy(format!(
                "tof proxy: the upstream `{command}` did not answer tools/list within {} s",
                startup.as_secs()
            )));
        }
    };
    let names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    let fetch_name = (settings.store != StoreChoice::None).then_some(settings.fetch_tool.as_str());
    config::check_tools(&settings.tools, &names, fetch_name, config_name).map_err(Error::Proxy)?;

    let (formatter, fetch) = match store {
        Some(store) => {
            let f = settings.formatter.clone().store_async(
                store.clone(),
                &settings.fetch_tool,
                STORE_TIMEOUT,
            );
            let fetch = Fetch::new_async(store, &settings.fetch_tool).formatter(&f);
            (f, Some(Arc::new(fetch)))
        }
        None => (settings.formatter.clone(), None),
    };
    let init = initialize_result(&upstream, fetch.is_some());
    let init_raw = link
        .from_upstream
        .initialize()
        .map(|raw| raw_initialize_result(raw, fetch.is_some()));
    let server = ServerSide {
        link: link.clone(),
        upstream: peer,
        init,
        init_raw: init_raw.clone(),
        formatter: Arc::new(formatter),
        fetch,
        redacting: settings.redacting.clone(),
        query_args: settings.query_args.clone(),
        timeout: settings.timeout,
        structured: settings.structured.clone(),
    };
    let served = match (listener, host) {
        (Some(listener), _) => listen::serve(listener, server).await,
        (None, Some(lines)) => serve_stdio(server, &link, lines, init_raw).await,
        (None, None) => Ok(()),
    };
    let _ = upstream.cancel().await;
    served
}

/// Serve the one host on standard input/output until it closes its side, answering its
/// `initialize` with upstream's raw answer when there is one (`init`).
async fn serve_stdio<I, O>(
    server: ServerSide,
    link: &Link,
    mut lines: raw::Lines<rmcp::RoleServer, I, O>,
    init: Option<Value>,
) -> Result<(), Error>
where
    I: tokio::io::AsyncRead + Unpin + Send + 'static,
    O: tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    lines = lines.share_results(link.from_host.clone());
    if let Some(init) = init {
        lines = lines.answer_initialize(init);
    }
    let running = server
        .serve(lines)
        .await
        .map_err(|e| Error::Proxy(format!("tof proxy: the MCP client did not initialize: {e}")))?;
    link.set_host(running.peer());
    let _ = running.waiting().await;
    Ok(())
}

/// The library's `RedisStore` at `url`, its calls bounded by [`STORE_TIMEOUT`].
#[cfg(feature = "redis")]
fn redis_store(url: &str) -> Result<Arc<dyn AsyncResultStore>, Error> {
    let store = tool_output_format::store::RedisStore::open(url, STORE_TTL)
        .map_err(|e| Error::Proxy(format!("tof proxy: --store {url}: {e}")))?;
    Ok(Arc::new(store.timeout(STORE_TIMEOUT)))
}

/// Built without the feature `redis`: say how to get it.
#[cfg(not(feature = "redis"))]
fn redis_store(url: &str) -> Result<Arc<dyn AsyncResultStore>, Error> {
    Err(Error::Proxy(format!(
        "tof proxy: --store {url}: this tof was built without Redis support; build it with \
         cargo install --path tool-output-format-cli --features redis (or use --store memory)"
    )))
}

/// Upstream's raw answer to `initialize` (every field it sent) as the proxy's own, with
/// `tools` among its capabilities when the proxy adds a fetch tool.
fn raw_initialize_result(mut init: Value, fetch: bool) -> Value {
    if fetch && let Some(caps) = init.get_mut("capabilities").and_then(Value::as_object_mut) {
        caps.entry("tools")
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
    }
    init
}

/// Upstream's answer to `initialize` as the proxy's own: its capabilities (with `tools`
/// when the proxy adds a fetch tool), server info and instructions.
fn initialize_result(upstream: &upstream::Upstream, fetch: bool) -> InitializeResult {
    let info = upstream.peer_info();
    let mut caps = info
        .as_ref()
        .map_or_else(ServerCapabilities::default, |i| i.capabilities.clone());
    if fetch && caps.tools.is_none() {
        caps.tools = Some(Default::default());
    }
    let mut init = InitializeResult::new(caps);
    if let Some(info) = info {
        init.protocol_version = info.protocol_version.clone();
        if let Some(server) = &info.server_info {
            init.server_info = server.clone();
        }
        init.instructions = info.instructions.clone();
    }
    init
}

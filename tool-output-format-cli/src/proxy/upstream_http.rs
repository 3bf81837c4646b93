//! The upstream reached over streamable HTTP (`--upstream-url`), its answers read as JSON
//! first, so that what the proxy passes on is what came, as on the stdio links ([`raw`]).
//!
//! rmcp's streamable HTTP client (its worker: sessions, the protocol version header, the
//! standalone stream, resumption) is kept; only the HTTP client under it is the proxy's
//! ([`RawHttp`]): it sends each message as rmcp wrote it (the proxy's `initialize` with the
//! host's capabilities and client info as the host sent them, [`raw::introduce`]) and reads
//! each answer as JSON before rmcp does:
//!
//! - a JSON answer goes to rmcp read by [`raw::incoming`] (the rules of the stdio links: a
//!   forwarded request or notification as it came, a response's raw result kept by its id);
//! - an event stream's events are read by rmcp itself, typed; each one is kept as it came
//!   first ([`RawResults::keep`]): a response's raw result by its id, a request by its id, a
//!   notification in order, and the forwarding code takes them from there.
//!
//! Kept from rmcp's own client: no idle connections, the bound on a JSON answer's size, a
//! rate limit or server failure given as its status. Not kept: following redirects (none are
//! followed) and the bound on one event's size in a POST's event stream (rmcp's is private
//! to its client; the standalone stream, rmcp's own, keeps it).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderName, HeaderValue, RETRY_AFTER};
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage};
use rmcp::service::RoleClient;
use rmcp::transport::streamable_http_client::{
    HttpStatusError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use serde_json::Value;
use sse_stream::{Error as SseError, Sse, SseStream};

use super::raw::{self, RawResults};

/// The session header of streamable HTTP.
const SESSION: &str = "mcp-session-id";

type Failure = StreamableHttpError<reqwest::Error>;
type Events = BoxStream<'static, Result<Sse, SseError>>;

/// The proxy's HTTP client of its upstream: reqwest, every answer read as JSON first.
#[derive(Clone)]
pub struct RawHttp {
    http: reqwest::Client,
    raw: Arc<RawResults>,
    /// The params of the host's `initialize`, sent in the proxy's as they came.
    hello: Option<Value>,
}

impl RawHttp {
    /// A client keeping what it reads in `raw`, telling upstream the host's `hello`.
    pub fn new(raw: Arc<RawResults>, hello: Option<Value>) -> Self {
        // As rmcp's own client: no idle connections kept (a stall on Linux reusing one whose
        // answer was not read to the end); no redirects followed (a redirected POST may lose
        // its body or reach another host).
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        RawHttp { http, raw, hello }
    }

    /// `events` with each event's message kept as it came before rmcp reads it.
    fn keep(&self, events: Events) -> Events {
        let raw = self.raw.clone();
        events
            .inspect(move |event| {
                if let Ok(Sse {
                    data: Some(data), ..
                }) = event
                    && let Ok(message) = serde_json::from_str::<Value>(data)
                {
                    raw.keep(message);
                }
            })
            .boxed()
    }
}

/// The media type of a response, lowercased, without its parameters.
fn media_type(response: &reqwest::Response) -> Option<String> {
    let value = response.headers().get(CONTENT_TYPE)?.to_str().ok()?;
    let essence = value.split(';').next().unwrap_or_default();
    Some(essence.trim().to_ascii_lowercase())
}

/// At most `max` bytes of a response's body; more is an error.
async fn body(mut response: reqwest::Response, max: usize) -> Result<Vec<u8>, Failure> {
    let mut out = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if out.len() + chunk.len() > max {
            return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: max });
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

impl StreamableHttpClient for RawHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let limits = StreamableHttpResponseLimits::default();
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let awaits_no_response = !matches!(message, JsonRpcMessage::Request(_));
        let mut json = serde_json::to_value(&message)?;
        if let Some(hello) = &self.hello {
            raw::introduce(&mut json, hello);
        }
        let mut request = self
            .http
            .post(uri.as_ref())
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json")
            .headers(custom_headers.into_iter().collect())
            .body(serde_json::to_vec(&json)?);
        if let Some(token) = auth_header {
            request = request.bearer_auth(token);
        }
        let had_session = session_id.is_some();
        if let Some(session) = session_id {
            request = request.header(SESSION, session.as_ref());
        }
        let response = request.send().await?;
        let status = response.status();
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && had_session {
            return Err(StreamableHttpError::SessionExpired);
        }
        let session = response
            .headers()
            .get(SESSION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let kind = media_type(&response);
        if kind.as_deref() == Some("text/event-stream") && status.is_success() {
            let events = SseStream::from_bytes_stream(response.bytes_stream()).boxed();
            return Ok(StreamableHttpPostResponse::Sse(self.keep(events), session));
        }
        let is_json = kind.as_deref() == Some("application/json");
        if !is_json && awaits_no_response && status.is_success() {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        let max = if status.is_success() || is_json {
            limits.max_json_response_size
        } else {
            limits.max_error_response_size
        };
        let bytes = body(response, max).await?;
        let read = serde_json::from_slice::<Value>(&bytes)
            .and_then(|v| raw::incoming::<RoleClient>(v, &self.raw));
        match read {
            // A JSON-RPC error comes with any status; other messages with a success.
            Ok(m @ JsonRpcMessage::Error(_)) => Ok(StreamableHttpPostResponse::Json(m, session)),
            Ok(m) if status.is_success() => Ok(StreamableHttpPostResponse::Json(m, session)),
            _ if status.is_success() && awaits_no_response => {
                Ok(StreamableHttpPostResponse::Accepted)
            }
            // As rmcp's own client: a rate limit or a server failure is its status (the
            // worker may retry it), any other failure says what came.
            _ if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() => {
                Err(HttpStatusError::new(status.as_u16(), retry_after).into())
            }
            _ if !status.is_success() => {
                let text = String::from_utf8_lossy(&bytes);
                Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                    format!("HTTP {status}: {text}"),
                )))
            }
            _ if !is_json => Err(StreamableHttpError::UnexpectedContentType(kind)),
            Err(e) => Err(e.into()),
            Ok(_) => Err(StreamableHttpError::UnexpectedServerResponse(
                Cow::Borrowed("not a JSON-RPC message"),
            )),
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failure> {
        self.http
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, Failure> {
        let events = self
            .http
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await?;
        Ok(self.keep(events))
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<Events, Failure> {
        let events = self
            .http
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(self.keep(events))
    }
}

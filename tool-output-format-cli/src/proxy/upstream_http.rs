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
//! Kept from rmcp's own client: no idle connections, the bounds on a JSON answer's size and
//! on one event's size in an event stream (rmcp's, 16 MiB each), a rate limit or server
//! failure given as its status. Not kept: following redirects (none are followed). A POST's
//! event stream is bounded here ([`bounded`]: rmcp's own bound is private to its client; the
//! standalone stream, rmcp's own, keeps it): an answer over a bound is not read further, and
//! the request gets an MCP error naming the bound ([`too_large`]) instead of a wait.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderName, HeaderValue, RETRY_AFTER};
use rmcp::model::{ClientJsonRpcMessage, ErrorData, JsonRpcMessage, RequestId};
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
type Chunks = BoxStream<'static, Result<hyper::body::Bytes, reqwest::Error>>;

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

/// The MCP error a request gets when the upstream at `uri` answers it with more than `max`
/// bytes (`what`: "one event of its event stream", "its JSON answer").
pub fn too_large(uri: &str, what: &str, max: usize) -> ErrorData {
    ErrorData::internal_error(
        format!(
            "tof proxy: the upstream at {uri} sent {what} over {max} bytes ({} MiB), the bound on \
             it: the answer was not read further",
            max / (1024 * 1024)
        ),
        None,
    )
}

/// `error` as the JSON-RPC error answer to request `id`.
fn error_answer(id: &RequestId, error: &ErrorData) -> Value {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// The size of the event being read, in bytes of its lines up to the blank line that ends it.
#[derive(Default)]
struct EventSize {
    /// Bytes of the events not yet passed on (the last one not ended).
    pending: Vec<u8>,
    /// How far `pending` has been scanned.
    scanned: usize,
    /// Bytes of the line being read.
    line: usize,
    /// The last byte was a CR (a LF after it ends no other line).
    after_cr: bool,
}

impl EventSize {
    /// Take `chunk`; the bytes of the events it ended, to pass on whole.
    fn take(&mut self, chunk: &[u8]) -> Vec<u8> {
        self.pending.extend_from_slice(chunk);
        let mut ended = 0;
        for (i, &b) in self.pending.iter().enumerate().skip(self.scanned) {
            let after_cr = std::mem::replace(&mut self.after_cr, b == b'\r');
            match b {
                b'\n' if after_cr => {}
                b'\r' | b'\n' => {
                    if self.line == 0 {
                        ended = i + 1;
                    }
                    self.line = 0;
                }
                _ => self.line += 1,
            }
        }
        let out: Vec<u8> = self.pending.drain(..ended).collect();
        self.scanned = self.pending.len();
        out
    }
}

/// `chunks` of an event stream passed on event by event, each at most `max` bytes; an event
/// that grows past it is not passed on, and the stream ends with `over` (an event holding the
/// error answer to the request, when there is one). No more than `max` bytes and a chunk are
/// held.
fn bounded(chunks: Chunks, max: usize, over: Option<Vec<u8>>) -> Chunks {
    let state = (chunks, EventSize::default(), over, false);
    futures::stream::unfold(
        state,
        move |(mut chunks, mut size, over, done)| async move {
            if done {
                return None;
            }
            loop {
                match chunks.next().await {
                    Some(Ok(chunk)) => {
                        let whole = size.take(&chunk);
                        if size.pending.len() > max {
                            // The event being read is over the bound: dropped, unread further.
                            let last = over.unwrap_or_default();
                            return Some((Ok(last.into()), (chunks, size, None, true)));
                        }
                        if !whole.is_empty() {
                            return Some((Ok(whole.into()), (chunks, size, over, false)));
                        }
                    }
                    Some(Err(e)) => return Some((Err(e), (chunks, size, over, true))),
                    // What the stream ended in is passed on as it came (the SSE parser decides).
                    None if !size.pending.is_empty() => {
                        let rest = std::mem::take(&mut size.pending);
                        return Some((Ok(rest.into()), (chunks, size, over, true)));
                    }
                    None => return None,
                }
            }
        },
    )
    .boxed()
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
        let id = match &message {
            JsonRpcMessage::Request(r) => Some(r.id.clone()),
            _ => None,
        };
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
            let max = limits.max_sse_event_size;
            let over = id.as_ref().map(|id| {
                let error = too_large(&uri, "one event of its event stream", max);
                format!("data: {}\n\n", error_answer(id, &error)).into_bytes()
            });
            let chunks = bounded(response.bytes_stream().boxed(), max, over);
            let events = SseStream::from_bytes_stream(chunks).boxed();
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
        let bytes = match (body(response, max).await, &id) {
            // A request answered with more than the bound: its answer is an error naming it.
            (Err(StreamableHttpError::ResponseBodyTooLarge { max_size }), Some(id)) => {
                let error = too_large(&uri, "its JSON answer", max_size);
                let answer = serde_json::from_value(error_answer(id, &error))?;
                return Ok(StreamableHttpPostResponse::Json(answer, session));
            }
            (bytes, _) => bytes?,
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(parts: &[&'static [u8]]) -> Chunks {
        let parts: Vec<Result<hyper::body::Bytes, reqwest::Error>> = parts
            .iter()
            .map(|p| Ok(hyper::body::Bytes::from_static(p)))
            .collect();
        futures::stream::iter(parts).boxed()
    }

    async fn read(stream: Chunks) -> Vec<u8> {
        let parts: Vec<_> = stream.collect().await;
        parts
            .into_iter()
            .flat_map(|p| p.unwrap().to_vec())
            .collect()
    }

    #[tokio::test]
    async fn events_within_the_bound_pass_whole_and_unchanged() {
        let parts: &[&[u8]] = &[b"data: a\r", b"\n\r\ndata: b", b"b\n\n: ping\n\ndata: c\n"];
        let out = read(bounded(chunks(parts), 8, Some(b"over".to_vec()))).await;
        assert_eq!(out, b"data: a\r\n\r\ndata: bb\n\n: ping\n\ndata: c\n");
    }

    #[tokio::test]
    async fn an_event_over_the_bound_ends_the_stream_with_the_error_answer() {
        let parts: &[&[u8]] = &[b"data: a\n\n", b"data: xxxx", b"xxxxxxxx", b"xxxxxxxx\n\n"];
        let out = read(bounded(chunks(parts), 12, Some(b"over".to_vec()))).await;
        assert_eq!(out, b"data: a\n\nover");
        // An event that never ends: the same, nothing past the bound held.
        let endless = futures::stream::repeat_with(|| Ok(hyper::body::Bytes::from_static(b"x")));
        let out = read(bounded(endless.boxed(), 12, Some(b"over".to_vec()))).await;
        assert_eq!(out, b"over");
    }

    #[test]
    fn the_error_names_the_bound() {
        let e = too_large(
            "http://h/mcp",
            "one event of its event stream",
            16 * 1024 * 1024,
        );
        assert!(
            e.message
                .contains("over 16777216 bytes (16 MiB), the bound on it"),
            "{}",
            e.message
        );
        let answer = error_answer(&RequestId::Number(4), &e);
        assert_eq!(answer["id"], 4);
        assert_eq!(answer["error"]["message"], e.message.as_ref());
    }
}

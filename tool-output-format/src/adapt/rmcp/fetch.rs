//! The fetch tool for MCP servers: [`Fetch`] as an rmcp tool (its definition, with the
//! configured argument names, and its call).

use rmcp::model::{JsonObject, Tool};
use serde_json::json;

use super::McpResult;
use crate::store::Fetch;

impl Fetch {
    /// The tool's MCP definition: its name, a description for the model and an input schema
    /// with the configured argument names (the reference required; cursor and query not).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use tool_output_format::store::{MemoryStore, Fetch};
    /// let fetch = Fetch::new(Arc::new(MemoryStore::new(std::time::Duration::from_secs(60))), "get_stored_result")
    ///     .arg_names("id", "cursor");
    /// let tool = fetch.mcp_tool();
    /// assert_eq!(tool.name, "get_stored_result");
    /// assert_eq!(tool.input_schema["required"], serde_json::json!(["id"]));
    /// assert!(tool.input_schema["properties"]["cursor"].is_object());
    /// ```
    #[must_use]
    pub fn mcp_tool(&self) -> Tool {
        let (reference, cursor, query) = self.get_arg_names();
        let schema = json!({
            "type": "object",
            "properties": {
                reference: {
                    "type": "string",
                    "description": "The reference from a cut result's Next line (r_...)."
                },
                cursor: {
                    "type": "string",
                    "description": "Where to continue: the next_cursor of the previous page. Leave out for the first page."
                },
                query: {
                    "type": "string",
                    "description": "Only rows containing every word of this text."
                }
            },
            "required": [reference]
        });
        let serde_json::Value::Object(schema) = schema else {
            unreachable!("the schema literal is an object")
        };
        Tool::new(
            self.tool().to_owned(),
            "Fetch more of a result that was cut: the stored rows page by page, from a cursor.",
            schema,
        )
    }

    /// Answers a call of the tool with its arguments as the client sent them: the page as an
    /// [`McpResult`] (an error result when the reference is expired, unknown or missing).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use rmcp::model::CallToolResult;
    /// use tool_output_format::store::{MemoryStore, ResultStore, Fetch};
    /// let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(std::time::Duration::from_secs(60)));
    /// let r = store.put(&serde_json::json!([1, 2, 3])).unwrap();
    /// let fetch = Fetch::new(store, "get_stored_result");
    /// let args = serde_json::json!({"ref": r});
    /// let ok: CallToolResult = fetch.mcp_call(args.as_object()).into();
    /// assert_eq!(ok.is_error, Some(false));
    /// let failed: CallToolResult = fetch.mcp_call(None).into();
    /// assert_eq!(failed.is_error, Some(true));
    /// ```
    pub fn mcp_call(&self, args: Option<&JsonObject>) -> McpResult {
        let empty = JsonObject::new();
        let served = self.served_args(args.unwrap_or(&empty));
        let is_error = served.is_err();
        McpResult::text_only(self.write(served), is_error)
    }

    /// [`Fetch::mcp_call`] without blocking: an async store
    /// ([`Fetch::new_async`]) is awaited.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// # use std::sync::Arc;
    /// use tool_output_format::store::{AsyncResultStore, Fetch};
    /// use tool_output_format::store::{MemoryStore, ResultStore};
    /// let store = Arc::new(MemoryStore::new(std::time::Duration::from_secs(60)));
    /// let r = store.put(&serde_json::json!([1, 2, 3])).unwrap();
    /// let fetch = Fetch::new_async(store, "get_stored_result");
    /// let args = serde_json::json!({"ref": r});
    /// let page = fetch.mcp_call_async(args.as_object()).await;
    /// assert!(!page.is_error(), "{}", page.text());
    /// assert!(page.text().starts_with("- 1\n- 2\n- 3"), "{}", page.text());
    /// # }
    /// ```
    pub async fn mcp_call_async(&self, args: Option<&JsonObject>) -> McpResult {
        let empty = JsonObject::new();
        let served = self.served_args_async(args.unwrap_or(&empty)).await;
        let is_error = served.is_err();
        McpResult::text_only(self.write(served), is_error)
    }
}

//! Plain helpers for programs that call a model API directly (no extra dependency).

use serde_json::{Value, json};

use crate::{Formatter, ToolOutput};

/// The result as an Anthropic Messages API `tool_result` content block, to put in the
/// `content` array of the next `user` message.
///
/// `content` is the rendered markdown as one string; `is_error` is always written, `true`
/// for a `ToolError` or an `Err`, so the model treats the call as failed.
///
/// ```
/// use serde_json::json;
/// use tool_output_format::{ErrorKind, Formatter, ToolError, adapt::anthropic_tool_result};
///
/// let fmt = Formatter::new();
/// let ok = anthropic_tool_result(&fmt, "add", "toolu_01", &3);
/// assert_eq!(ok, json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": "3", "is_error": false}));
///
/// let err = ToolError::new(ErrorKind::NotFound, "order ORD-1 does not exist");
/// let block = anthropic_tool_result(&fmt, "get_order", "toolu_02", &err);
/// assert_eq!(block["is_error"], true);
/// assert!(block["content"].as_str().unwrap().contains("order ORD-1 does not exist"));
/// ```
#[must_use]
pub fn anthropic_tool_result<T: ToolOutput + ?Sized>(
    fmt: &Formatter,
    tool: &str,
    tool_use_id: &str,
    result: &T,
) -> Value {
    let (text, is_error) = super::render(fmt, tool, result);
    json!({
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "content": text,
        "is_error": is_error,
    })
}

/// The result as an `OpenAI` Chat Completions `role: "tool"` message, to append to
/// `messages` after the assistant message that made the call.
///
/// The API has no error flag: an error is told by its text (the `**{tool} failed**` title,
/// the kind and the message).
///
/// ```
/// use serde_json::json;
/// use tool_output_format::{Formatter, adapt::openai_tool_message};
///
/// let msg = openai_tool_message(&Formatter::new(), "add", "call_abc", &3);
/// assert_eq!(msg, json!({"role": "tool", "tool_call_id": "call_abc", "content": "3"}));
/// ```
#[must_use]
pub fn openai_tool_message<T: ToolOutput + ?Sized>(
    fmt: &Formatter,
    tool: &str,
    tool_call_id: &str,
    result: &T,
) -> Value {
    let (text, _) = super::render(fmt, tool, result);
    json!({
        "role": "tool",
        "tool_call_id": tool_call_id,
        "content": text,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{ErrorKind, ToolError};

    #[test]
    fn anthropic_block_is_exact_for_a_table() {
        let rows = json!([{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]);
        let block = anthropic_tool_result(&Formatter::new(), "list_users", "toolu_9", &rows);
        assert_eq!(
            block,
            json!({
                "type": "tool_result",
                "tool_use_id": "toolu_9",
                "content": "| id | name |\n|----|------|\n| 1  | Ada  |\n| 2  | Bob  |",
                "is_error": false,
            })
        );
        // Exactly these four keys, in this order (serde_json's preserve_order).
        let keys: Vec<&str> = block
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["type", "tool_use_id", "content", "is_error"]);
    }

    #[test]
    fn anthropic_block_flags_errors_and_err() {
        let fmt = Formatter::new();
        let err = ToolError::new(ErrorKind::NotFound, "order ORD-1 does not exist");
        let block = anthropic_tool_result(&fmt, "get_order", "toolu_1", &err);
        assert_eq!(block["is_error"], json!(true));
        let text = block["content"].as_str().unwrap();
        assert!(text.starts_with("**"), "{text}");
        assert!(
            text.contains("not_found") && text.contains("order ORD-1 does not exist"),
            "{text}"
        );

        let failed: Result<u32, ToolError> = Err(err);
        let block = anthropic_tool_result(&fmt, "get_order", "toolu_2", &failed);
        assert_eq!(block["is_error"], json!(true));
        let ok: Result<u32, ToolError> = Ok(7);
        let block = anthropic_tool_result(&fmt, "get_order", "toolu_3", &ok);
        assert_eq!(
            block,
            json!({"type": "tool_result", "tool_use_id": "toolu_3", "content": "7", "is_error": false})
        );
    }

    #[test]
    fn empty_results_are_not_errors() {
        let fmt = Formatter::new();
        let block = anthropic_tool_result(&fmt, "search", "toolu_4", &json!([]));
        assert_eq!(block["is_error"], json!(false));
        let page: crate::Page<serde_json::Value> = crate::Page::new(vec![]);
        let block = anthropic_tool_result(&fmt, "search", "toolu_5", &page);
        assert_eq!(block["is_error"], json!(false));
    }

    #[test]
    fn openai_message_is_exact() {
        let msg = openai_tool_message(
            &Formatter::new(),
            "get_user",
            "call_Xy",
            &json!({"name": "Ada", "tags": ["a", "b"]}),
        );
        assert_eq!(
            msg,
            json!({
                "role": "tool",
                "tool_call_id": "call_Xy",
                "content": "**get_user result**\n\n- name: Ada\n- tags: a, b",
            })
        );
        let keys: Vec<&str> = msg
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["role", "tool_call_id", "content"]);
    }

    #[test]
    fn ids_are_written_verbatim_as_json_strings() {
        let msg = openai_tool_message(&Formatter::new(), "t", "call \"quoted\"\n", &1);
        assert_eq!(msg["tool_call_id"], json!("call \"quoted\"\n"));
        let s = serde_json::to_string(&msg).unwrap();
        assert_eq!(serde_json::from_str::<serde_json::Value>(&s).unwrap(), msg);
    }
}

use tool_output_format::ToolOutput;

// Several mistakes: every one is reported in the same compile.
#[derive(ToolOutput)]
#[tool_output(rename_all = "Title Case", colour = "red")]
struct Row {
    #[tool_output(max_chars = 0, rename = "a|b")]
    id: u32,
    #[tool_output(rename = "x")]
    a: u32,
    #[tool_output(rename = "x")]
    b: u32,
}

fn main() {}

use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(abc = 1)]
    id: u32,
}

fn main() {
    // The fallback impl keeps this call site quiet: only the attribute error is reported.
    let _ = tool_output_format::to_markdown(&Row { id: 1 });
}

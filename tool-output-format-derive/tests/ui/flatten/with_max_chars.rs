use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Inner {
    a: u32,
}

#[derive(ToolOutput)]
struct Row {
    #[tool_output(flatten, max_chars = 3)]
    inner: Inner,
}

fn main() {}

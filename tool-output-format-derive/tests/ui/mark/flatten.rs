use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Inner {
    id: u32,
}

#[derive(ToolOutput)]
struct Outer {
    #[tool_output(flatten, essential)]
    inner: Inner,
}

fn main() {}

use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Inner {
    a: u32,
}

#[derive(ToolOutput)]
struct Outer {
    #[tool_output(flatten, detail = "full")]
    inner: Inner,
}

fn main() {}

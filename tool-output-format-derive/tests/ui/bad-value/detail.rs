use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Issue {
    number: u32,
    #[tool_output(detail = "everything")]
    body: String,
}

fn main() {}

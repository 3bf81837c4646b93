use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
#[tool_output(rename_all = "camel_case")]
struct Row {
    user_id: u32,
}

fn main() {}

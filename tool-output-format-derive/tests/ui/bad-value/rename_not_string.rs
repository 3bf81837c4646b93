use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(rename = customer_id)]
    id: u32,
}

fn main() {}

use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
#[tool_output(titel = "Rows")]
struct Row {
    id: u32,
}

fn main() {}

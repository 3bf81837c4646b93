use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
#[tool_output(title = "Money")]
struct Money(u64);

fn main() {}

use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Pair(#[tool_output(rename = "left")] u32, u32);

fn main() {}

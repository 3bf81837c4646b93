use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Pair(u32, u32);

fn main() {}

use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}

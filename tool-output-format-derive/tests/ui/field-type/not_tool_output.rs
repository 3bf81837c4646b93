use tool_output_format::ToolOutput;

struct Opaque;

#[derive(ToolOutput)]
struct Row {
    id: u32,
    payload: Opaque,
}

fn main() {}

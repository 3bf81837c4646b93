use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
enum Event {
    Started,
    Failed { code: u32 },
}

fn main() {}

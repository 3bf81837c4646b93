use tool_output_format::ToolOutput;

struct Opaque;

fn opaque(_: &u64) -> Opaque {
    Opaque
}

#[derive(ToolOutput)]
struct Row {
    #[tool_output(with = "opaque")]
    id: u64,
}

fn main() {}

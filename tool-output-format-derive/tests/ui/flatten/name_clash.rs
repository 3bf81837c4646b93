use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct User {
    id: u64,
    login: String,
}

#[derive(ToolOutput)]
struct Issue {
    id: u64,
    #[tool_output(flatten)]
    user: User,
}

fn main() {}

use tool_output_format::ToolOutput;

/// The shared vocabulary: snake_case names only.
const fn is_snake(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_lowercase() || b[i] == b'_') {
            return false;
        }
        i += 1;
    }
    true
}

#[derive(ToolOutput)]
#[tool_output(canonical = "is_snake")]
struct Customer {
    customer_id: u32,
    #[tool_output(rename = "customerName")]
    name: String,
}

fn main() {}

//! Placeholder, filled in below.
fn main() {}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        super::main()
    }
}

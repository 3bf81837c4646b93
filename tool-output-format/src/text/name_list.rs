//! A list of names in one cursor: joined with `,`, each `%`, `,`, `/`, `@` and `~`
//! percent-encoded (the characters a cursor's own syntax uses), so any name (a JSON key holds any character)
//! comes back as it was.

/// Column names for a cursor: joined with `,`, each `%`, `,`, `/`, `@` and `~`
/// percent-encoded.
pub(crate) fn encode(names: &[impl AsRef<str>]) -> String {
    let mut out = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        for c in name.as_ref().chars() {
            match c {
                '%' => out.push_str("%25"),
                ',' => out.push_str("%2C"),
                '/' => out.push_str("%2F"),
                '@' => out.push_str("%40"),
                '~' => out.push_str("%7E"),
                c => out.push(c),
            }
        }
    }
    out
}

/// The names [`encode`] wrote (`None`: a `%` not followed by `25`, `2C`, `2F`, `40` or `7E`).
pub(crate) fn decode(s: &str) -> Option<Vec<String>> {
    if s.is_empty() {
        return Some(Vec::new());
    }
    s.split(',')
        .map(|name| {
            let mut out = String::with_capacity(name.len());
            let mut rest = name;
            while let Some((plain, after)) = rest.split_once('%') {
                out.push_str(plain);
                let (code, tail) = after.split_at_checked(2)?;
                out.push(match code {
                    "25" => '%',
                    "2C" | "2c" => ',',
                    "2F" | "2f" => '/',
                    "40" => '@',
                    "7E" | "7e" => '~',
                    _ => return None,
                });
                rest = tail;
            }
            out.push_str(rest);
            Some(out)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_back_as_they_were() {
        let names = ["50%", ",", "", "a b", "a/b@c~"];
        assert_eq!(encode(&names), "50%25,%2C,,a b,a%2Fb%40c%7E");
        assert_eq!(decode(&encode(&names)).unwrap(), names);
        assert_eq!(decode(""), Some(Vec::new()));
        assert_eq!(decode("a%2"), None);
        assert_eq!(decode("a%41"), None);
    }
}

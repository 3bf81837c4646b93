//! Reading the pages of a text result: a page's Next line and its fenced content (shared by
//! the text-pages test and example).

/// The reference and cursor of a text's Next line, if any.
pub fn next_call(text: &str) -> Option<(String, Option<String>)> {
    let line = text.lines().find(|l| l.starts_with("Next: call "))?;
    let arg = |name: &str| {
        let rest = line.split(&format!("{name}=\"")).nth(1)?;
        Some(rest.split('"').next()?.to_owned())
    };
    Some((arg("ref")?, arg("cursor")))
}

/// The content of the page's fenced block: from after the opening fence's line to the line
/// break before the closing fence (included).
pub fn fenced(page: &str) -> &str {
    let open = page
        .split('\n')
        .find(|l| l.len() >= 3 && l.bytes().all(|b| b == b'`'))
        .unwrap_or_else(|| panic!("no fence:\n{page}"));
    let start = page.find(&format!("{open}\n")).expect("opening fence") + open.len() + 1;
    let rest = &page[start..];
    let close = rest
        .match_indices(&format!("\n{open}"))
        .map(|(i, _)| i)
        .find(|&i| {
            let after = &rest[i + 1 + open.len()..];
            after.is_empty() || after.starts_with('\n')
        })
        .unwrap_or_else(|| panic!("no closing fence:\n{page}"));
    &rest[..=close]
}

/// `content` with the spaces and tabs a code block writes as `\u{20}` and `\u{9}` at a
/// line's end read back (no output line ends in white space).
pub fn spaces_at_line_ends(content: &str) -> String {
    let mut out = String::with_capacity(content.len());
    for line in content.split_inclusive('\n') {
        let (body, brk) = line.strip_suffix('\n').map_or((line, ""), |b| (b, "\n"));
        let mut body = body.to_owned();
        let mut tail = String::new();
        loop {
            if let Some(b) = body.strip_suffix("\\u{20}") {
                tail.insert(0, ' ');
                body = b.to_owned();
            } else if let Some(b) = body.strip_suffix("\\u{9}") {
                tail.insert(0, '\t');
                body = b.to_owned();
            } else {
                break;
            }
        }
        out.push_str(&body);
        out.push_str(&tail);
        out.push_str(brk);
    }
    out
}

/// What a text page adds to the pages joined: its fenced content, without the line break
/// before the closing fence when the page stops inside a line (its cursor `"L:C"`) or is
/// the last page of a `text` that does not end with a line break. `next`: the page's Next
/// call ([`next_call`]). Panics when that line break is missing.
pub fn joined_part<'p>(
    page: &'p str,
    next: Option<&(String, Option<String>)>,
    text: &str,
) -> &'p str {
    let content = fenced(page);
    let mid_line = next
        .and_then(|(_, c)| c.as_deref())
        .is_some_and(|c| c.contains(':'));
    if mid_line || (next.is_none() && !text.ends_with(['\n', '\r'])) {
        content
            .strip_suffix('\n')
            .expect("a line break before the fence")
    } else {
        content
    }
}

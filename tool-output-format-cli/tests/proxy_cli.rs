//! `tof proxy` at start, with no MCP peer needed: every mistake is one line on standard error,
//! exit code 2, nothing on standard output, in bounded time. (The proxy with a real upstream
//! and client: `.ci/proxy.sh`.)
#![cfg(feature = "proxy")]

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TOF: &str = env!("CARGO_BIN_EXE_tof");

/// Run `tof proxy ARGS` with an empty standard input; (exit code, stdout, stderr).
fn proxy(args: &[&str]) -> (i32, String, String) {
    let start = Instant::now();
    let out = Command::new(TOF)
        .arg("proxy")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("tof runs");
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{args:?} took too long"
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn config(text: &str) -> scratch::Config {
    scratch::Config::new(text)
}

/// A config file in the target directory, removed on drop.
mod scratch {
    pub struct Config(pub std::path::PathBuf);
    impl Config {
        pub fn new(text: &str) -> Self {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static N: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir();
            let path = dir.join(format!(
                "tof-proxy-test-{}-{}.toml",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            let mut f = std::fs::File::create(&path).unwrap();
            super::Write::write_all(&mut f, text.as_bytes()).unwrap();
            Config(path)
        }
        pub fn path(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }
    impl Drop for Config {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

#[test]
fn mistakes_at_start_are_one_clear_line() {
    let bad_layout = config("[tools.list_issues]\nlayout = \"wide\"\n");
    let unknown_key = config("[defaults]\nmax_row = 3\n");
    let per_tool_store = config("[tools.t]\nstore = \"memory\"\n");
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec![],
            "tof proxy: no upstream: give its command after --".into(),
        ),
        (
            // The address is checked before the upstream is started.
            vec!["--listen", "nonsense", "--", "/nonexistent/mcp-server"],
            "tof proxy: --listen nonsense: not an address to listen on".into(),
        ),
        (
            vec!["--listen", "127.0.0.1", "--", "/nonexistent/mcp-server"],
            "give HOST:PORT, e.g. --listen 127.0.0.1:8000".into(),
        ),
        (
            vec!["--upstream-url", "https://example.com/mcp"],
            "https is not supported yet".into(),
        ),
        (
            vec!["--upstream-url", "ftp://example.com/mcp"],
            "give the server's streamable HTTP endpoint".into(),
        ),
        (
            vec!["--store", "disk", "--", "srv"],
            "store `disk`: expected `memory`, `none` or a redis:// URL".into(),
        ),
        (
            vec!["--config", bad_layout.path(), "--", "srv"],
            format!(
                "{}: [tools.list_issues]: layout `wide` is not one of: aligned, compact, csv",
                bad_layout.path()
            ),
        ),
        (
            vec!["--config", unknown_key.path(), "--", "srv"],
            "unknown field `max_row`".into(),
        ),
        (
            vec!["--config", per_tool_store.path(), "--", "srv"],
            "[tools.t]: `store` is set for every tool: move it to [defaults]".into(),
        ),
        (
            vec!["--", "/nonexistent/mcp-server"],
            "tof proxy: can not start the upstream `/nonexistent/mcp-server`".into(),
        ),
    ];
    for (args, want) in cases {
        let (code, stdout, stderr) = proxy(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.contains(&want), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
}

/// `--listen` on a port something else listens on: one sentence, before the upstream starts.
#[test]
fn listen_on_a_port_in_use_is_one_clear_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let (code, stdout, stderr) = proxy(&["--listen", &addr, "--", "/nonexistent/mcp-server"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    let want = format!("tof proxy: --listen {addr}: the port is in use");
    assert!(stderr.contains(&want), "{stderr}");
    assert!(stderr.contains("pick another port"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

/// Built without the feature `redis` (the default), a Redis store says how to get one, before
/// the upstream is started.
#[cfg(not(feature = "redis"))]
#[test]
fn a_redis_store_without_the_feature_says_how_to_build_it() {
    let (code, stdout, stderr) =
        proxy(&["--store", "redis://127.0.0.1:6379", "--", "/nonexistent"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("this tof was built without Redis support; build it with cargo install --path tool-output-format-cli --features redis"),
        "{stderr}"
    );
}

#[test]
fn the_plain_renderer_is_unchanged_beside_the_subcommand() {
    // `tof FILE` and `tof` on standard input still render; `proxy` is the one subcommand.
    let mut child = Command::new(TOF)
        .arg("--tool")
        .arg("t")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"a": 1}"#)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "**t result**\n\n- a: 1\n"
    );
}

/// The fenced blocks of `kind` in docs/proxy.md.
fn doc_blocks(kind: &str) -> Vec<String> {
    let md = include_str!("../../docs/proxy.md");
    let open = format!("```{kind}");
    let mut out = Vec::new();
    let mut block: Option<String> = None;
    for line in md.lines() {
        match &mut block {
            None if line == open => block = Some(String::new()),
            Some(b) if line == "```" => {
                out.push(std::mem::take(b));
                block = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    out
}

#[test]
fn every_config_in_docs_proxy_md_is_read_by_the_proxy() {
    // JSON: every host snippet parses (an excerpt of a recorded response, with a `...` line,
    // is not a config).
    let json: Vec<_> = doc_blocks("json")
        .into_iter()
        .filter(|b| !b.contains("\n...\n"))
        .collect();
    assert!(json.len() >= 4, "{json:?}");
    for block in &json {
        let v: serde_json::Value =
            serde_json::from_str(block).unwrap_or_else(|e| panic!("docs/proxy.md: {e}\n{block}"));
        let servers = v
            .get("mcpServers")
            .or_else(|| v.get("servers"))
            .and_then(|s| s.as_object())
            .map(|s| s.values().cloned().collect())
            .unwrap_or_else(|| vec![v.clone()]);
        for server in servers {
            let args = server["args"].as_array().map(Vec::len).unwrap_or(0);
            assert!(
                server["command"].is_string() && args > 0 || server["url"].is_string(),
                "{server}"
            );
        }
    }
    // TOML: the proxy reads each one (a good config gets as far as starting the upstream).
    let toml = doc_blocks("toml");
    assert!(toml.len() >= 2, "{toml:?}");
    for block in toml {
        let file = config(&block);
        let (code, _, err) = proxy(&["--config", file.path(), "--", "/nonexistent/upstream"]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("can not start the upstream `/nonexistent/upstream`"),
            "docs/proxy.md's config is refused: {err}\n{block}"
        );
    }
}

#[test]
fn the_help_names_every_flag_docs_proxy_md_gives() {
    let out = Command::new(TOF)
        .args(["proxy", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    let md = include_str!("../../docs/proxy.md");
    let usage = md
        .split("```\ntof proxy [")
        .nth(1)
        .and_then(|u| u.split("```").next())
        .expect("the usage block");
    let flags: Vec<&str> = usage
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .collect();
    assert!(flags.contains(&"--structured-content"), "{flags:?}");
    for flag in flags {
        assert!(
            help.contains(flag),
            "`tof proxy --help` does not name {flag}"
        );
    }
    for option in ["fit", "keep", "drop"] {
        assert!(help.contains(option), "{help}");
    }
}

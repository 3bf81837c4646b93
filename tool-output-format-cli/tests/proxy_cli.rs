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

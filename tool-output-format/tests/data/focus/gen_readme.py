"""Writes readme.md: the long README of a fictional file-sync daemon ("tidewatch").

Deterministic (seeded): hand-written sections, a generated option reference and changelog.
Run: python3 gen_readme.py
"""
import random

rng = random.Random(1616)
out = []

def h(level, title):
    out.extend(["#" * level + " " + title, ""])

def p(*lines):
    for line in lines:
        out.extend([line, ""])

def code(lang, body):
    out.extend([f"```{lang}", body.rstrip("\n"), "```", ""])

h(1, "tidewatch")
p("[![build](https://ci.example/tidewatch.svg)](https://ci.example) [![crates](https://img.example/v/tidewatch.svg)](https://crates.example/tidewatch) [![license](https://img.example/l/MIT.svg)](LICENSE)",
  "tidewatch keeps directories in sync between machines. It watches the file system, batches changes, and ships them over an encrypted connection to one or more peers, resolving conflicts without a central server.",
  "It is a single static binary with no runtime dependencies, runs on Linux, macOS, FreeBSD and Windows, and uses about 25 MB of memory for a tree of one million files.")

h(2, "Table of contents")
p("- Features\n- Installation\n- Quick start\n- Configuration\n- Command-line reference\n- Conflict resolution\n- Ignoring files\n- Security model\n- Performance tuning\n- Monitoring\n- Troubleshooting\n- Upgrading\n- Contributing\n- Changelog")

h(2, "Features")
p("- Real-time sync using inotify, FSEvents, kqueue or ReadDirectoryChangesW\n- Block-level delta transfer: only changed 128 KiB blocks cross the wire\n- End-to-end encryption with Noise_XX and per-peer keys\n- Conflict copies instead of silent overwrites\n- Works behind NAT through relays, with direct connections when possible\n- Bandwidth limits, schedules and metered-network detection")

h(2, "Installation")
h(3, "Prebuilt binaries")
p("Download the archive for your platform from the releases page, unpack it and put `tidewatch` on your `PATH`. Every archive is signed; verify it with minisign and the public key in `KEYS.txt`.")
code("sh", "minisign -Vm tidewatch-2.4.1-x86_64-linux.tar.gz -P RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3")
h(3, "Package managers")
code("sh", "brew install tidewatch          # macOS\nsudo apt install tidewatch      # Debian 13 and Ubuntu 24.04 or later\nwinget install Tidewatch.Tidewatch\ncargo install tidewatch --locked")
h(3, "Building from source")
p("You need Rust 1.80 or later and a C compiler for the bundled zstd. Clone the repository and run `cargo build --release`; the binary lands in `target/release/tidewatch`.",
  "Building with `--features fips` links against the system OpenSSL FIPS provider instead of the bundled RustCrypto primitives.")

h(2, "Quick start")
p("On the first machine, create an identity and share a folder:")
code("sh", "tidewatch init\ntidewatch share ~/Documents/notes --name notes\ntidewatch invite notes   # prints an invite code valid for 15 minutes")
p("On the second machine, accept the invite. The first sync starts immediately:")
code("sh", "tidewatch init\ntidewatch join tw1-7hq4-k2mz-p9xa ~/notes")
p("Run `tidewatch status` on either side to see peers, pending changes and the last error, if any.")

h(2, "Configuration")
p("tidewatch reads `~/.config/tidewatch/config.toml` (on Windows `%APPDATA%\\tidewatch\\config.toml`). Every option can also be set with an environment variable named `TIDEWATCH_` followed by the option in upper case with dots replaced by underscores, and on the command line with `--set option=value`. The command line wins over the environment, which wins over the file.")
code("toml", "[sync]\ninterval = \"2s\"\nmax_file_size = \"4GiB\"\n\n[net]\nlisten = \"0.0.0.0:22000\"\nrelays = [\"relay1.example:22067\"]\nupload_limit = \"0\"\n\n[log]\nlevel = \"info\"")
OPTIONS = [
    ("sync.interval", "duration", "2s", "How long to wait after the last change before sending a batch. Shorter values make edits appear sooner on peers but send more, smaller batches."),
    ("sync.max_file_size", "size", "4GiB", "Files larger than this are skipped and listed in `tidewatch status` as too large."),
    ("sync.follow_symlinks", "bool", "false", "Copy the target of symbolic links instead of the link itself. Links pointing outside the shared folder are never followed."),
    ("sync.preserve_permissions", "bool", "true", "Apply the Unix mode bits of the sender on the receiver. Ignored on Windows."),
    ("sync.versions", "integer", "5", "How many older versions of each changed file to keep in `.tidewatch/versions` before the oldest is deleted."),
    ("sync.versions_max_age", "duration", "30d", "Older versions past this age are deleted during the nightly cleanup, whatever `sync.versions` says."),
    ("sync.hash", "string", "blake3", "Block hash: `blake3` or `sha256` (needed for FIPS builds)."),
    ("sync.rescan_interval", "duration", "1h", "Full rescan of the tree, to catch changes the file-system watcher missed (network drives, container volumes)."),
    ("net.listen", "address", "0.0.0.0:22000", "Address and port for incoming peer connections. Use port 0 to pick a random free port."),
    ("net.relays", "list", "[\"default\"]", "Relay servers used when no direct connection works. `default` means the public relay pool."),
    ("net.upload_limit", "rate", "0", "Upload bandwidth limit, for example `2MB/s`; `0` means unlimited."),
    ("net.download_limit", "rate", "0", "Download bandwidth limit; `0` means unlimited."),
    ("net.metered", "string", "auto", "On metered connections (mobile hotspots): `auto` pauses large transfers, `pause` pauses everything, `ignore` syncs as usual."),
    ("net.keepalive", "duration", "60s", "Interval of keep-alive pings; peers silent for three intervals are considered gone."),
    ("net.ipv6", "bool", "true", "Also listen and connect over IPv6."),
    ("log.level", "string", "info", "One of `error`, `warn`, `info`, `debug`, `trace`."),
    ("log.format", "string", "text", "`text` for people, `json` for log shippers (one object per line)."),
    ("log.file", "path", "none", "Write logs to this file instead of standard error; rotated daily, seven files kept."),
    ("gui.address", "address", "127.0.0.1:8384", "Address of the local web interface. Binding it to a public address requires `gui.password`."),
    ("gui.password", "string", "none", "Password for the web interface, stored as an Argon2id hash after the first start."),
    ("metrics.address", "address", "none", "Expose Prometheus metrics on this address, for example `127.0.0.1:9184`."),
    ("limits.open_files", "integer", "4096", "Soft limit on open file handles; tidewatch raises the process limit to this at start-up when allowed."),
    ("limits.hashers", "integer", "number of cores", "Threads used to hash blocks during scans."),
    ("schedule.quiet_hours", "string", "none", "Time range with sync paused, for example `22:00-07:00` in local time."),
]
h(3, "Option reference")
for name, ty, default, desc in OPTIONS:
    h(4, f"`{name}`")
    p(f"Type: {ty}. Default: `{default}`. Environment: `TIDEWATCH_{name.upper().replace('.', '_')}`.", desc)

h(2, "Command-line reference")
CMDS = [
    ("init", "Create the local identity (an Ed25519 key pair) and the default configuration. Refuses to overwrite an existing identity unless given `--force`."),
    ("share <path> --name <name>", "Start sharing a folder under a name. The name must be unique on this machine."),
    ("invite <name>", "Print an invite code for a shared folder. Codes are single-use and expire after 15 minutes; `--ttl 1h` changes the lifetime, up to 24 hours."),
    ("join <code> <path>", "Accept an invite and sync the folder into `path`, which must be empty or missing."),
    ("status", "Show peers, folders, pending changes and the last error. `--json` prints machine-readable output."),
    ("pause [<name>]", "Pause syncing of one folder, or of all folders when no name is given."),
    ("resume [<name>]", "Resume syncing."),
    ("peers", "List known peers with their address, latency, and whether the connection is direct or relayed."),
    ("forget <peer-id>", "Remove a peer and revoke its key. It can no longer connect unless invited again."),
    ("conflicts", "List conflict copies in all shared folders, newest first."),
    ("verify <name>", "Re-hash every file of a folder and compare with peers; repairs differences from the peer with the newest version."),
    ("doctor", "Check the environment: watcher limits, clock skew, port reachability, relay connectivity. Exit code 0 means all checks passed."),
]
for cmd, desc in CMDS:
    h(3, f"`tidewatch {cmd}`")
    p(desc)

h(2, "Conflict resolution")
p("When the same file changes on two peers before they sync, tidewatch keeps the version with the newer modification time under the original name and saves the other as `name.sync-conflict-YYYYMMDD-HHMMSS-PEERID.ext` next to it. Nothing is overwritten silently.",
  "If both modification times are equal to the second, the version from the peer with the lower device id wins. Deletions never win over edits: a file deleted on one side and edited on the other comes back.")

h(2, "Ignoring files")
p("Put patterns in a `.twignore` file at the root of the shared folder, one per line, in gitignore syntax. The file itself is synced, so every peer ignores the same paths.")
code("text", "# build output\ntarget/\nnode_modules/\n*.tmp\n!important.tmp\n(?d).DS_Store   # (?d) lets tidewatch delete it when it blocks a directory removal")
p("Changes to `.twignore` apply at the next rescan; run `tidewatch verify <name>` to apply them at once.")

h(2, "Security model")
p("Peers authenticate each other with their Ed25519 keys during a Noise_XX handshake; an invite code carries a hash of the inviting key, so a man in the middle cannot join. Relays only see encrypted traffic and the peer ids.",
  "File contents are encrypted in transit but stored in clear on each peer. If you need encryption at rest, put the shared folder on an encrypted volume.",
  "Report vulnerabilities to security@tidewatch.example; we answer within 72 hours and publish an advisory with every fix.")

h(2, "Performance tuning")
p("On Linux the kernel limits inotify watches; with more than 100,000 directories raise `fs.inotify.max_user_watches`, for example to 1048576 with `sysctl -w fs.inotify.max_user_watches=1048576` and the same line in `/etc/sysctl.d/90-tidewatch.conf`.",
  "For trees with many small files, set `limits.hashers` to the number of physical cores and keep `sync.interval` at 2 seconds or more so batches stay large. On spinning disks a single hasher is faster because it avoids seeks.")

h(2, "Monitoring")
p("With `metrics.address` set, tidewatch serves Prometheus metrics at `/metrics`. The most useful ones:")
p("- `tidewatch_pending_bytes`: bytes waiting to be sent, per folder\n- `tidewatch_peer_connected`: 1 when a peer is connected\n- `tidewatch_last_sync_timestamp_seconds`: when a folder was last fully in sync\n- `tidewatch_conflicts_total`: conflict copies created")
p("A simple alert: fire when `time() - tidewatch_last_sync_timestamp_seconds > 3600` for a folder that should be in sync.")

h(2, "Troubleshooting")
TROUBLE = [
    ("Peers never connect", "Run `tidewatch doctor` on both sides. If port 22000 is not reachable, the peers fall back to relays, which is slower but works; check that outbound TCP to relays on port 22067 is allowed."),
    ("Changes are picked up late", "The watcher probably hit a limit or the folder is on a network drive, where notifications do not work; tidewatch then relies on the hourly rescan. Lower `sync.rescan_interval` or raise the inotify limits."),
    ("\"clock skew too large\" in the log", "Peers refuse to sync when their clocks differ by more than 5 minutes, because conflict resolution uses modification times. Enable NTP (for example `timedatectl set-ntp true`)."),
    ("High CPU after start", "The first scan hashes every file. On a large tree this takes a while; progress is shown in `tidewatch status`. Later starts only rehash changed files."),
    ("Files show as too large", "They exceed `sync.max_file_size` (4 GiB by default). Raise the option on all peers; the limit is checked on the sender."),
    ("Permission denied on Windows", "Another program holds the file open with exclusive access (often antivirus or Office). tidewatch retries every 30 seconds and reports the file in `status` after ten failures."),
]
for title, body in TROUBLE:
    h(3, title)
    p(body)

h(2, "Upgrading")
p("Stop the service, replace the binary and start it again; the index is migrated automatically. Peers on versions 2.x all talk to each other. Version 1.x peers cannot connect to 2.x peers because the handshake changed; upgrade every machine.",
  "Before upgrading from 1.x, run `tidewatch status` on 1.x and make sure nothing is pending, then keep a copy of `~/.local/share/tidewatch/index-v1.db` until the first 2.x sync completes.")

h(2, "Contributing")
p("Issues and pull requests are welcome. Run `cargo test --all-features` and `cargo clippy` before sending a change, and add an entry to the changelog under Unreleased. Commits are signed off under the Developer Certificate of Origin.")

h(2, "Changelog")
AREAS = ["watcher", "scanner", "relay client", "web interface", "CLI", "index", "Windows service", "macOS app", "hashing", "TLS fallback", "ignore matcher", "metrics", "status output", "invite codes"]
VERBS = ["Fixed a crash in the {a} when {x}.", "The {a} now {y}.", "Improved memory use of the {a} for {z}.", "Deprecated the old {a} flag `--{w}`; it is removed in the next major version.", "Fixed a race in the {a} that could {v}."]
X = ["a file was renamed twice within one batch", "the shared folder was on an exFAT volume", "a peer sent an empty block list", "the disk filled up during a transfer", "paths contained invalid UTF-8"]
Y = ["shows transfer speed per peer", "retries with exponential backoff capped at five minutes", "accepts `--json` everywhere", "logs the peer id with every error", "honours the system proxy settings"]
Z = ["trees with many empty directories", "folders over one million files", "long-running sessions", "large conflict histories"]
W = ["no-relay", "gui-insecure", "legacy-hash", "quiet", "watch-poll"]
V = ["drop the last change of a batch", "report a folder as in sync too early", "leave temporary files behind", "double-count pending bytes"]
special = {
    "2.3.0": "Added `schedule.quiet_hours` to pause syncing during a time range.",
    "2.1.0": "Switched the default block hash from SHA-256 to BLAKE3; FIPS builds keep SHA-256.",
    "2.0.0": "New Noise_XX handshake; 1.x peers can no longer connect. Relays now require protocol version 3.",
}
versions = []
for major, minors in ((2, 5), (1, 9)):
    for minor in range(minors - 1, -1, -1):
        for patch in range(rng.randint(1, 3) - 1, -1, -1):
            versions.append(f"{major}.{minor}.{patch}")
for i, v in enumerate(versions):
    h(3, f"{v} ({2025 - i // 6}-{12 - (i * 2) % 12:02d}-{rng.randint(1, 28):02d})")
    items = []
    if v in special:
        items.append(special[v])
    for _ in range(rng.randint(2, 5)):
        items.append(rng.choice(VERBS).format(a=rng.choice(AREAS), x=rng.choice(X), y=rng.choice(Y), z=rng.choice(Z), w=rng.choice(W), v=rng.choice(V)))
    p("\n".join("- " + it for it in items))

h(2, "License")
p("MIT or Apache-2.0, at your option.")
text = "\n".join(out).rstrip("\n") + "\n"
open("readme.md", "w").write(text)
print(text.count("\n## ") + text.count("\n### ") + text.count("\n#### "), "headings,", len(text), "chars")

#!/usr/bin/env bash
# Compile-time cost of `#[derive(ToolOutput)]` vs `#[derive(Serialize)]`.
#
# Generates three throwaway crates in a temp dir (never committed), each with the same 50
# structs of 8 fields (strings, integers, floats, bool, Option, Vec):
#   plain     - no derive (the cost of the structs themselves)
#   serde     - #[derive(serde::Serialize)]
#   toolout   - #[derive(tool_output_format::ToolOutput)]
# Each depends on this workspace's crates by path and shares one target dir, so every
# dependency (serde_derive, syn, the runtime, the proc-macro) is built once up front.
# Then, for each crate, `touch src/lib.rs` and `cargo build` rebuild ONLY that crate:
# the wall time of that rebuild is the crate's own clean compile time (macro expansion,
# type checking, codegen of the generated impls). Runs are interleaved, median of $RUNS.
#
# Usage: benches/derive_build_time.sh [runs]   (profile: dev, i.e. `cargo build`)
set -euo pipefail

RUNS=${1:-7}
WS=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export CARGO_TARGET_DIR="$TMP/target"

fields() {
    cat <<F
    pub id: u64,
    pub name: String,
    pub email: String,
    pub score: f64,
    pub count: u32,
    pub active: bool,
    pub note: Option<String>,
    pub tags: Vec<String>,
F
}

gen() { # gen <dir> <dep line> <derive attribute or empty>
    local dir=$1 dep=$2 derive=$3
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<T
[package]
name = "$(basename "$dir")"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$dep

[workspace]
T
    : >"$dir/src/lib.rs"
    for i in $(seq 1 50); do
        { [ -n "$derive" ] && echo "$derive"; echo "pub struct S$i {"; fields; echo "}"; } >>"$dir/src/lib.rs"
    done
}

gen "$TMP/plain" "" ""
gen "$TMP/serde" "serde = { version = \"1\", features = [\"derive\"] }" "#[derive(serde::Serialize)]"
gen "$TMP/toolout" "tool-output-format = { path = \"$WS/tool-output-format\" }" \
    "#[derive(tool_output_format::ToolOutput)]"
for c in plain serde toolout; do
    # Pin dependencies to the workspace's lock file versions where they overlap.
    cp "$WS/Cargo.lock" "$TMP/$c/Cargo.lock"
    (cd "$TMP/$c" && cargo build --quiet 2>&1) # dependencies, built once
done

time_one() { # seconds to rebuild crate $1 alone
    touch "$TMP/$1/src/lib.rs"
    local t0 t1
    t0=$(date +%s.%N)
    (cd "$TMP/$1" && cargo build --quiet 2>&1)
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc
}

declare -A times
for _ in $(seq 1 "$RUNS"); do
    for c in plain serde toolout; do
        times[$c]+="$(time_one $c) "
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
p=$(echo "${times[plain]}" | median)
s=$(echo "${times[serde]}" | median)
t=$(echo "${times[toolout]}" | median)
echo "runs: $RUNS per crate, 50 structs x 8 fields, dev profile, $(nproc) cores"
echo "| crate | median rebuild (s) | all runs (s) |"
echo "|---|---:|---|"
echo "| no derive | $p | ${times[plain]}|"
echo "| derive(Serialize) | $s | ${times[serde]}|"
echo "| derive(ToolOutput) | $t | ${times[toolout]}|"
awk -v p="$p" -v s="$s" -v t="$t" 'BEGIN {
    printf "ToolOutput / Serialize, whole crate: %.2fx\n", t / s
    printf "ToolOutput / Serialize, derive share (minus the no-derive crate): %.2fx\n", (t - p) / (s - p)
}'

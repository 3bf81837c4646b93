#!/usr/bin/env bash
# Compile-time cost of `#[derive(ToolOutput)]` vs `#[derive(Serialize)]`.
#
# Generates three throwaway crates in a temp dir (never committed), each with the same 50
# structs of 8 fields (strings, integers, floats, bool, Option, Vec):
#   gen_plain    - no derive (the cost of the structs themselves)
#   gen_serde    - #[derive(serde::Serialize)]
#   gen_toolout  - #[derive(tool_output_format::ToolOutput)]
# gen_toolout depends on a snapshot of this workspace's two crates (copied by path, so edits
# made while the script runs cannot leak in). All three share one target dir, so every
# dependency (serde_derive, syn, the runtime, the proc-macro) is built once up front.
#
# Method: for each crate, `touch src/lib.rs` and `cargo build` rebuild ONLY that crate, and a
# RUSTC_WRAPPER times the rustc process of that crate (cargo's own start-up and freshness
# checks excluded): the crate's clean compile time (macro expansion, type checking, codegen
# of the generated impls). Runs are interleaved; the median of $RUNS is reported.
#
# Usage: benches/derive_build_time.sh [runs]   (profile: dev, i.e. `cargo build`)
set -euo pipefail

RUNS=${1:-11}
WS=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export CARGO_TARGET_DIR="$TMP/target"
# Incremental compilation would reuse the previous build's work after `touch`: off, so each
# rebuild is a clean compile of the crate.
export CARGO_INCREMENTAL=0

mkdir -p "$TMP/ws"
cp -r "$WS/tool-output-format" "$WS/tool-output-format-derive" "$TMP/ws/"
# The snapshot's manifests inherit from the workspace: give them a small one.
sed -n '/^\[workspace\]/,/^\[package\]/p' "$WS/Cargo.toml" | sed '$d' \
    | sed 's/^members = .*/members = ["tool-output-format", "tool-output-format-derive"]/' \
    >"$TMP/ws/Cargo.toml"

cat >"$TMP/time-rustc" <<'W'
#!/usr/bin/env bash
# RUSTC_WRAPPER: run rustc; for the generated crates, append the elapsed seconds to a log.
case " $* " in
*" --crate-name gen_"*)
    name=$(sed -E 's/.* --crate-name (gen_[a-z]+).*/\1/' <<<" $* ")
    t0=$(date +%s.%N)
    "$@"
    rc=$?
    t1=$(date +%s.%N)
    echo "$name $(echo "$t1 - $t0" | bc)" >>"$TIMES_LOG"
    exit $rc
    ;;
esac
exec "$@"
W
chmod +x "$TMP/time-rustc"
export RUSTC_WRAPPER="$TMP/time-rustc" TIMES_LOG="$TMP/times.log"

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

gen() { # gen <dir> <dep line> <derive attribute or empty> [<call rendering a Vec<S>, S for each struct>]
    local dir=$1 dep=$2 derive=$3 use=${4:-}
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
    if [ -n "$use" ]; then
        echo "pub fn render_all() -> Vec<String> { vec![" >>"$dir/src/lib.rs"
        for i in $(seq 1 50); do
            echo "    ${use//S,/S$i,}," >>"$dir/src/lib.rs"
        done
        echo "] }" >>"$dir/src/lib.rs"
    fi
}

gen "$TMP/gen_plain" "" ""
gen "$TMP/gen_serde" "serde = { version = \"1\", features = [\"derive\"] }" "#[derive(serde::Serialize)]"
gen "$TMP/gen_toolout" "tool-output-format = { path = \"$TMP/ws/tool-output-format\" }" \
    "#[derive(tool_output_format::ToolOutput)]"
# The same, plus one call per struct that renders a Vec of it: what a crate that uses the
# derive compiles (serde's impls are generic, so their code is generated at the call).
gen "$TMP/gen_serdeuse" "serde = { version = \"1\", features = [\"derive\"] }
serde_json = \"1\"" "#[derive(serde::Serialize)]" "serde_json::to_string(&Vec::<S,>::new()).unwrap()"
gen "$TMP/gen_tooluse" "tool-output-format = { path = \"$TMP/ws/tool-output-format\" }" \
    "#[derive(tool_output_format::ToolOutput)]" "tool_output_format::to_markdown(&Vec::<S,>::new())"
CRATES="plain serde toolout serdeuse tooluse"
for c in $CRATES; do
    # Pin dependencies to the workspace's lock file versions where they overlap.
    cp "$WS/Cargo.lock" "$TMP/gen_$c/Cargo.lock"
    (cd "$TMP/gen_$c" && cargo build --quiet 2>&1) # dependencies, built once
done

: >"$TIMES_LOG"
for _ in $(seq 1 "$RUNS"); do
    for c in $CRATES; do
        touch "$TMP/gen_$c/src/lib.rs"
        (cd "$TMP/gen_$c" && cargo build --quiet 2>&1)
    done
done
declare -A times
while read -r name t; do
    times[${name#gen_}]+="$t "
done <"$TIMES_LOG"

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
p=$(echo "${times[plain]}" | median)
s=$(echo "${times[serde]}" | median)
t=$(echo "${times[toolout]}" | median)
su=$(echo "${times[serdeuse]}" | median)
tu=$(echo "${times[tooluse]}" | median)
echo "runs: $RUNS per crate, 50 structs x 8 fields, dev profile, clean (non-incremental) compile of the crate alone, $(nproc) cores"
echo
echo "| crate | median (s) | all runs (s) |"
echo "|---|---:|---|"
echo "| 50 structs, no derive | $p | ${times[plain]}|"
echo "| derive(Serialize) | $s | ${times[serde]}|"
echo "| derive(ToolOutput) | $t | ${times[toolout]}|"
echo "| derive(Serialize) + serde_json::to_string of a Vec of each | $su | ${times[serdeuse]}|"
echo "| derive(ToolOutput) + to_markdown of a Vec of each | $tu | ${times[tooluse]}|"
echo
awk -v p="$p" -v s="$s" -v t="$t" -v su="$su" -v tu="$tu" 'BEGIN {
    printf "ToolOutput / Serialize, derive only: %.2fx (minus the no-derive crate: %.2fx)\n", t / s, (t - p) / (s - p)
    printf "ToolOutput / Serialize, derive + one use per struct: %.2fx (minus the no-derive crate: %.2fx)\n", tu / su, (tu - p) / (su - p)
}'

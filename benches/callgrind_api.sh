#!/usr/bin/env bash
# Instructions per call (callgrind) for the recorded API responses (examples/data/api/), as a
# markdown table: `serde_json::to_string`, `Formatter::new().layout(Layout::Compact)` and the
# agent preset (`Formatter::for_agents()`), each side by side with serde_json on the same
# input in the same run, with the ratios and their targets (compact <= 2x, agent
# preset <= 4x).
#
# Usage: benches/callgrind_api.sh [iterations]   (default 10; needs valgrind)
#   BEFORE=<profile binary>  also measures that binary (built from an earlier commit with the
#                            same workloads) and prints its numbers beside these
#   BIN=<profile binary>     measures that binary instead of building this tree's
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10}
if [ -z "${BIN:-}" ]; then
    cargo bench --quiet --bench profile --no-run 2>/dev/null
    BIN=$(ls -t "${CARGO_TARGET_DIR:-target}"/release/deps/profile-* | grep -v '\.d$' | head -1)
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# Counted inside `main` only: the thread-local destructors that run at exit free the
# writer's spare table buffers, and what that free costs depends on the allocator's state
# (up to 40% of a small response's per-call figure when counted), not on the calls.
irefs() { # irefs <binary> <workload> <iterations>
    valgrind --tool=callgrind --toggle-collect='profile::main' --callgrind-out-file="$OUT/cg" \
        "$1" "$2" "$3" 2>&1 \
        | sed -n 's/.*refs: *//p' | tr -d ,
}
per() { # per <binary> <workload>: instructions of one call
    echo $(( ($(irefs "$1" "$2" "$N") - $(irefs "$1" "$2" 0)) / N ))
}
verdict() { # verdict <ratio> <target>
    awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t ? "met" : "not met") }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

if [ -n "${BEFORE:-}" ]; then
    echo "| response | serde_json | compact before | compact after | ratio before -> after (<= 2x) | agent before | agent after | ratio before -> after (<= 4x) |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
else
    echo "| response | serde_json | compact | ratio (<= 2x) | agent preset | ratio (<= 4x) |"
    echo "|---|---:|---:|---:|---:|---:|"
fi
for f in examples/data/api/*.json; do
    r=$(basename "$f" .json)
    j=$(per "$BIN" "api_json:$r")
    c=$(per "$BIN" "api_compact:$r")
    a=$(per "$BIN" "api_agent:$r")
    rc=$(ratio "$c" "$j")
    ra=$(ratio "$a" "$j")
    if [ -n "${BEFORE:-}" ]; then
        cb=$(per "$BEFORE" "api_compact:$r")
        ab=$(per "$BEFORE" "api_agent:$r")
        echo "| \`$r\` | $j | $cb | $c | $(ratio "$cb" "$j")x -> **${rc}x** ($(verdict "$rc" 2)) | $ab | $a | $(ratio "$ab" "$j")x -> **${ra}x** ($(verdict "$ra" 4)) |"
    else
        echo "| \`$r\` | $j | $c | ${rc}x ($(verdict "$rc" 2)) | $a | ${ra}x ($(verdict "$ra" 4)) |"
    fi
done

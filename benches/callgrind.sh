#!/usr/bin/env bash
# Instructions per render (callgrind: deterministic, unaffected by other processes) for the
# workloads of benches/profile.rs, as a markdown table with ratios to serde_json.
#
# Usage: benches/callgrind.sh [iterations]   (default 20; needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20}
cargo bench --quiet --bench profile --no-run 2>/dev/null
BIN=$(ls -t "${CARGO_TARGET_DIR:-target}"/release/deps/profile-* | grep -v '\.d$' | head -1)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

irefs() { # irefs <workload> <iterations>
    valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.$1.$2" "$BIN" "$1" "$2" 2>&1 \
        | sed -n 's/.*refs: *//p' | tr -d ,
}

declare -A per
for w in typed_serde_json typed_md_compact typed_md_aligned value_serde_json value_md_compact value_md_aligned; do
    base=$(irefs "$w" 0)
    total=$(irefs "$w" "$N")
    per[$w]=$(( (total - base) / N ))
done
echo "| workload (rows_1000, one render) | instructions | ratio to serde_json (same input) |"
echo "|---|---:|---:|"
for w in typed_serde_json typed_md_compact typed_md_aligned value_serde_json value_md_compact value_md_aligned; do
    baseline=${per[${w%%_*}_serde_json]}
    awk -v w="$w" -v i="${per[$w]}" -v b="$baseline" \
        'BEGIN { printf "| %s | %d | %.2fx |\n", w, i, i / b }'
done
fit=$(( $(irefs budget_fit_100000 1) - $(irefs budget_fit_100000 0) ))
kept=$(( ($(irefs budget_kept_rows "$N") - $(irefs budget_kept_rows 0)) / N ))
echo "| budget_fit_100000: 100,000 typed rows into 4,000 chars | $fit | |"
awk -v f="$fit" -v k="$kept" 'BEGIN { printf "| budget_kept_rows: the kept rows alone, no budget | %d | fit / kept: %.0fx |\n", k, f / k }'
fitv=$(( $(irefs budget_fit_100000_value 1) - $(irefs budget_fit_100000_value 0) ))
keptv=$(( ($(irefs budget_kept_rows_value "$N") - $(irefs budget_kept_rows_value 0)) / N ))
echo "| budget_fit_100000_value: the same rows as a Value | $fitv | |"
awk -v f="$fitv" -v k="$keptv" 'BEGIN { printf "| budget_kept_rows_value: the kept rows alone, no budget | %d | fit / kept: %.0fx |\n", k, f / k }'
sh=$(( ($(irefs value_md_shaped "$N") - $(irefs value_md_shaped 0)) / N ))
awk -v s="$sh" -v u="${per[value_md_compact]}" 'BEGIN { printf "| value_md_shaped: rows_1000, a generic shape, compact | %d | shaped / unshaped: %.2fx |\n", s, s / u }'
declare -A json
for r in stripe repo packument; do
    j=$(( ($(irefs ${r}_serde_json "$N") - $(irefs ${r}_serde_json 0)) / N ))
    json[$r]=$j
    m=$(( ($(irefs ${r}_md "$N") - $(irefs ${r}_md 0)) / N ))
    awk -v r="$r" -v m="$m" -v j="$j" 'BEGIN { printf "| one %s record as Value -> markdown | %d | %.2fx |\n", r, m, m / j }'
done
for r in stripe repo packument; do
    a=$(( ($(irefs ${r}_agent "$N") - $(irefs ${r}_agent 0)) / N ))
    awk -v r="$r" -v a="$a" -v j="${json[$r]}" 'BEGIN { printf "| one %s record, agent preset (`Formatter::for_agents`) | %d | %.2fx |\n", r, a, a / j }'
done
for f in examples/data/api/*.json; do
    r=$(basename "$f" .json)
    j=$(( ($(irefs "api_json:$r" "$N") - $(irefs "api_json:$r" 0)) / N ))
    a=$(( ($(irefs "api_agent:$r" "$N") - $(irefs "api_agent:$r" 0)) / N ))
    awk -v r="$r" -v a="$a" -v j="$j" 'BEGIN { printf "| recorded %s, agent preset / serde_json (%d) | %d | %.2fx |\n", r, j, a, a / j }'
done
echo
echo "Annotated profiles: callgrind_annotate on the files callgrind.sh writes (kept in \$KEEP if set)."
[ -n "${KEEP:-}" ] && cp "$OUT"/cg.* "$KEEP"/ || true

#!/usr/bin/env bash
# Guard benchmark: Rust guard (resolve + normalize + validate + cap) per call vs Python's
# jsonschema validation alone, on the same corpus in the same run. Prints a summary and
# the median/ratio lines for docs/BENCHMARKS.md. Also runs the criterion bench.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
venv="$DESKMATE_CACHE/bench-venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet 'jsonschema==4.26.0'
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/data/datasets"
cp testdata/cdisc/adsl.csv "$work/data/datasets/"

cargo build --release --locked -p deskmate-cli --quiet
"$CARGO_TARGET_DIR/release/deskmate" --data-dir "$work/data" tools > "$work/specs.json"
cargo bench -p deskmate-tools --bench guard_per_call --quiet 2>/dev/null | tail -n 1 > "$work/rust.json"
"$venv/bin/python" bench/python_jsonschema.py "$work/specs.json" bench/guard_corpus.jsonl > "$work/python.json"

python3 - "$work/rust.json" "$work/python.json" <<'PY'
import json, statistics, sys
rust = json.load(open(sys.argv[1])); py = json.load(open(sys.argv[2]))
same = [rust["per_call_ns"][i] for i in py["indices"]]
rust_same = statistics.median(same) / 1000
print(f"corpus: {rust['calls']} calls ({json.dumps({k: v['calls'] for k, v in rust['by_kind'].items()})})")
print(f"rust guard, all calls:        median {rust['median_us']:.2f} us/call, p95 {rust['p95_us']:.2f} us, by kind "
      + ", ".join(f"{k} {v['median_us']:.2f}" for k, v in rust["by_kind"].items()))
print(f"rust guard, python's subset:  median {rust_same:.2f} us/call ({len(same)} calls)")
print(f"python jsonschema {py['jsonschema']} validation alone: median {py['median_us']:.2f} us/call ({py['calls']} calls; Python {py['python']})")
print(f"ratio python/rust (same calls): {py['median_us'] / rust_same:.1f}x")
calls = [json.loads(l) for l in open("bench/guard_corpus.jsonl")]
for kind, stats in py["by_kind"].items():
    mine = [rust["per_call_ns"][i] for i in py["indices"] if calls[i]["kind"] == kind]
    r = statistics.median(mine) / 1000
    print(f"  {kind:10s}: rust guard {r:6.2f} us, python validation {stats['median_us']:6.2f} us, ratio {stats['median_us'] / r:5.1f}x ({stats['calls']} calls)")
PY
echo "criterion (whole corpus):"
cargo bench -p deskmate-tools --bench guard --quiet -- --noplot 2>/dev/null | grep -E "time:|guard/" || true

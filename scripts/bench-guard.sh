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
# Rust and Python alternate three times so that a busy moment on this shared machine
# does not land on one side only; the summary takes the median of the three pairs.
for round in 1 2 3; do
  cargo bench -p deskmate-tools --bench guard_per_call --quiet 2>/dev/null | tail -n 1 > "$work/rust$round.json"
  "$venv/bin/python" bench/python_jsonschema.py "$work/specs.json" bench/guard_corpus.jsonl > "$work/python$round.json"
done

python3 - "$work" <<'PY'
import json, statistics, sys
work = sys.argv[1]
calls = [json.loads(l) for l in open("bench/guard_corpus.jsonl")]
pairs = []
for round in (1, 2, 3):
    rust = json.load(open(f"{work}/rust{round}.json")); py = json.load(open(f"{work}/python{round}.json"))
    subset = [rust["per_call_ns"][i] for i in py["indices"]]
    row = {"rust_all": rust["median_us"], "rust_p95": rust["p95_us"], "rust": statistics.median(subset) / 1000,
           "python": py["median_us"], "kinds": {}}
    for kind, stats in py["by_kind"].items():
        mine = statistics.median([rust["per_call_ns"][i] for i in py["indices"] if calls[i]["kind"] == kind]) / 1000
        row["kinds"][kind] = (mine, stats["median_us"], stats["calls"])
    row["ratio"] = row["python"] / row["rust"]
    pairs.append(row)
    print(f"round {round}: rust guard median {row['rust_all']:.2f} us/call (all {rust['calls']}), "
          f"{row['rust']:.2f} us on python's {py['calls']} calls; python {row['python']:.2f} us; ratio {row['ratio']:.1f}x")
mid = sorted(pairs, key=lambda r: r["ratio"])[1]
print()
print(f"corpus: {len(calls)} calls, 80 valid / 80 repairable / 80 invalid; python {py['python']}, jsonschema {py['jsonschema']}")
print(f"median round: rust guard {mid['rust_all']:.2f} us/call median (p95 {mid['rust_p95']:.2f} us); "
      f"python validation alone {mid['python']:.2f} us/call; ratio {mid['ratio']:.1f}x")
for kind, (mine, theirs, n) in mid["kinds"].items():
    print(f"  {kind:10s}: rust guard {mine:6.2f} us, python validation {theirs:6.2f} us, ratio {theirs / mine:5.1f}x ({n} calls)")
PY
echo "criterion (whole corpus):"
cargo bench -p deskmate-tools --bench guard --quiet -- --noplot 2>/dev/null | grep -E "time:|guard/" || true

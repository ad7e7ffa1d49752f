#!/usr/bin/env python3
"""Two `deskmate eval --json` reports of the same suite, side by side.

    scripts/eval-compare.py SUITE.jsonl[,MORE.jsonl] A.json B.json [--split dev|heldout] [--skip ID]...

Prints, for each report: task success overall and per category, the replies that state
the facts their case names (judged here, from the case's `reply_states` / `reply_avoids`
and the report's reply text alone, so an old build whose evaluator did not judge facts is
judged the same way), latency p50/p95, cases finished in <= 8 s and the run's wall time.
Then the cases whose verdict differs. `--skip` leaves cases out of both (e.g. cases of a
tool the older build does not have), and the table says how many. `--split` keeps only
the cases of one part of the suite (a case without `split` is `dev`); the bundled suite is
`crates/autotest/suites/dev.jsonl,crates/autotest/suites/heldout.jsonl`.
"""

import json
import statistics
import sys


def plain(text):
    return text.lower().replace(",", "").replace("，", "")


def states(fact, reply):
    texts = fact if isinstance(fact, list) else [fact]
    return any(plain(t) in plain(reply) for t in texts)


def facts_ok(case, reply):
    """None when the case names no facts, else whether the reply states them all and
    avoids every claim it names."""
    wanted = case.get("reply_states") or []
    avoided = case.get("reply_avoids") or []
    if not wanted and not avoided:
        return None
    return all(states(f, reply) for f in wanted) and not any(
        plain(a) in plain(reply) for a in avoided
    )


def percentile(values, p):
    if not values:
        return 0
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def summary(report, suite, skip):
    results = [r for r in report["results"] if r["id"] not in skip]
    by_category = {}
    for r in results:
        total, passed = by_category.get(r["category"], (0, 0))
        by_category[r["category"]] = (total + 1, passed + (1 if r["passed"] else 0))
    judged = [facts_ok(suite[r["id"]], r["reply"]) for r in results]
    judged = [j for j in judged if j is not None]
    latencies = [r["latency_ms"] for r in results]
    return {
        "cases": len(results),
        "passed": sum(1 for r in results if r["passed"]),
        "by_category": by_category,
        "facts": (sum(judged), len(judged)),
        "p50": statistics.median(latencies) if latencies else 0,
        "p95": percentile(latencies, 95),
        "fast": sum(1 for x in latencies if x <= 8000),
        "wall_min": report["duration_ms"] / 60000,
    }


def main(argv):
    skip = set()
    split = None
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--skip":
            skip.add(argv[i + 1])
            i += 2
        elif argv[i] == "--split":
            split = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 3:
        sys.exit(__doc__)
    suite_path, a_path, b_path = args
    suite = {}
    for path in suite_path.split(","):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.lstrip().startswith("#"):
                    case = json.loads(line)
                    suite[case["id"]] = case
    if split:
        skip |= {i for i, c in suite.items() if c.get("split", "dev") != split}
    reports = []
    for path in (a_path, b_path):
        with open(path, encoding="utf-8") as f:
            reports.append(json.load(f))
    a, b = (summary(r, suite, skip) for r in reports)

    def pct(n, d):
        return f"{100 * n / d:.1f} % ({n}/{d})" if d else "n/a"

    print(f"| metric | {a_path} | {b_path} |")
    print("|---|---:|---:|")
    print(f"| task success | {pct(a['passed'], a['cases'])} | {pct(b['passed'], b['cases'])} |")
    for category in sorted(set(a["by_category"]) | set(b["by_category"])):
        cells = []
        for s in (a, b):
            total, passed = s["by_category"].get(category, (0, 0))
            cells.append(pct(passed, total))
        print(f"| {category} | {cells[0]} | {cells[1]} |")
    print(f"| replies stating their facts | {pct(*a['facts'])} | {pct(*b['facts'])} |")
    print(f"| latency p50 / p95 | {a['p50'] / 1000:.1f} s / {a['p95'] / 1000:.1f} s "
          f"| {b['p50'] / 1000:.1f} s / {b['p95'] / 1000:.1f} s |")
    print(f"| cases finished in <= 8 s | {a['fast']} | {b['fast']} |")
    print(f"| whole run | {a['wall_min']:.1f} min | {b['wall_min']:.1f} min |")
    if split:
        print(f"\nOnly the {split} cases.")
    named = skip - ({i for i, c in suite.items() if c.get("split", "dev") != split} if split else set())
    if named:
        print(f"\n{len(named)} case(s) left out of both: {', '.join(sorted(named))}")
    verdicts = {}
    for which, report in enumerate(reports):
        for r in report["results"]:
            if r["id"] not in skip:
                verdicts.setdefault(r["id"], [None, None])[which] = r
    print("\nCases whose task verdict differs:")
    for case_id, (ra, rb) in verdicts.items():
        if ra and rb and ra["passed"] != rb["passed"]:
            mark = "gained" if rb["passed"] else "lost"
            why = (rb if not rb["passed"] else ra).get("reason") or ""
            print(f"- {mark}: {case_id} ({why[:100]})")


if __name__ == "__main__":
    main(sys.argv[1:])

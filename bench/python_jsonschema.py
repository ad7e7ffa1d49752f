#!/usr/bin/env python3
"""Times Python's jsonschema (Draft 2020-12 validators built once per tool) validating
the guard benchmark corpus, with the same method as the Rust per-call bench: each call
repeated REPS times, best of ROUNDS rounds over the whole corpus, median over calls.

    python3 bench/python_jsonschema.py SPECS.json bench/guard_corpus.jsonl

SPECS.json is the output of `deskmate tools` over a data dir holding adsl.csv. Only
validation is timed: arguments are parsed from JSON text beforehand, and calls to tools
that do not exist (which Python cannot validate at all) are reported as skipped.
Prints one JSON object.
"""
import json
import statistics
import sys
import time
from importlib.metadata import version

import jsonschema

REPS = 200
ROUNDS = 7


def canonical(name):
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def main():
    specs = {s["id"]: s for s in json.load(open(sys.argv[1]))}
    validators = {i: jsonschema.Draft202012Validator(s["parameters"]) for i, s in specs.items()}
    cases = []
    for index, line in enumerate(open(sys.argv[2], encoding="utf-8")):
        call = json.loads(line)
        tool = canonical(call["tool"])
        if tool not in validators:
            continue
        instance = call["arguments"]
        if isinstance(instance, str):
            try:
                instance = json.loads(instance)
            except ValueError:
                pass  # validated as the string it is: "not an object"
        cases.append((index, call["kind"], validators[tool], instance))
    # Rounds go over the whole corpus and each call keeps its best round, as in the Rust bench.
    best = [float("inf")] * len(cases)
    for _ in range(ROUNDS):
        for n, (_, _, validator, instance) in enumerate(cases):
            start = time.perf_counter_ns()
            for _ in range(REPS):
                list(validator.iter_errors(instance))
            best[n] = min(best[n], (time.perf_counter_ns() - start) / REPS)
    per_call = best
    indices = [index for index, _, _, _ in cases]
    kinds = {}
    for (_, kind, _, _), ns in zip(cases, best):
        kinds.setdefault(kind, []).append(ns)
    print(json.dumps({
        "python": sys.version.split()[0],
        "jsonschema": version("jsonschema"),
        "calls": len(per_call),
        "reps_per_call": REPS,
        "median_us": statistics.median(per_call) / 1000,
        "by_kind": {k: {"calls": len(v), "median_us": statistics.median(v) / 1000} for k, v in sorted(kinds.items())},
        "indices": indices,
        "per_call_ns": per_call,
    }))


main()

#!/usr/bin/env python3
"""Times Python's jsonschema (Draft 2020-12 validators built once per tool) validating
the guard benchmark corpus, with the same method as the Rust per-call bench: each call
repeated REPS times, best of ROUNDS rounds, median over calls.

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
ROUNDS = 5


def canonical(name):
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def main():
    specs = {s["id"]: s for s in json.load(open(sys.argv[1]))}
    validators = {i: jsonschema.Draft202012Validator(s["parameters"]) for i, s in specs.items()}
    per_call = []
    indices = []
    kinds = {}
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
        validator = validators[tool]
        best = float("inf")
        for _ in range(ROUNDS):
            start = time.perf_counter_ns()
            for _ in range(REPS):
                list(validator.iter_errors(instance))
            best = min(best, (time.perf_counter_ns() - start) / REPS)
        per_call.append(best)
        indices.append(index)
        kinds.setdefault(call["kind"], []).append(best)
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

#!/usr/bin/env python3
"""Writes bench/guard_corpus.jsonl: tool calls as models really send them, for the guard
benchmark. Deterministic (fixed seed), so the committed file is reproducible:

    python3 bench/make_corpus.py > bench/guard_corpus.jsonl

Each line: {"kind": "valid" | "repairable" | "invalid", "tool": name, "arguments": object or JSON text}.
"""
import json
import random

rng = random.Random(7)
SUBJECTS = ["01-701-1015", "01-701-1023", "01-701-1028", "01-701-1033", "01-701-1034", "01-701-1047"]
NUM_VARS = ["AGE", "BMIBL", "HEIGHTBL", "WEIGHTBL", "MMSETOT", "TRTDURD"]
CAT_VARS = ["SEX", "RACE", "TRT01A", "AGEGR1", "ETHNIC", "EFFFL"]
ZONES = ["Asia/Shanghai", "Europe/Berlin", "America/New_York", "UTC", "Asia/Tokyo"]
EXPRS = ["2 + 3 * 4", "17% of 2,340", "sqrt(2) ^ 2", "round(2.675, 2)", "(1 + 2) * (3 - 4) / 5", "max(3, 9, 4) - min(1, 2)"]

def valid():
    pick = rng.randrange(8)
    if pick == 0:
        return "calculator", {"expression": rng.choice(EXPRS)}
    if pick == 1:
        return "current_time", {"timezone": rng.choice(ZONES)} if rng.random() < 0.7 else {}
    if pick == 2:
        return "describe_dataset", {"dataset": "adsl"}
    if pick == 3:
        return "summarize_by_group", {"dataset": "adsl", "variable": rng.choice(NUM_VARS), "group_by": rng.choice(CAT_VARS)}
    if pick == 4:
        return "frequency", {"dataset": "adsl", "variable": rng.choice(CAT_VARS), "subjects": rng.sample(SUBJECTS, 3)}
    if pick == 5:
        return "run_qc_checks", {"dataset": "adsl", "checks": ["required_vars", "key_unique"], "missing_threshold": 20}
    if pick == 6:
        return "sas_round_rate", {"numerator": rng.randrange(1, 100), "denominator": 254, "scale": "percent", "decimals": 1}
    return "append_audit", {"action": "ran QC", "dataset": "adsl", "idem_key": f"qc-{rng.randrange(10**6)}"}

def repairable():
    pick = rng.randrange(10)
    if pick == 0:
        return "Describe-Dataset", {"dataset": rng.choice(["ADSL", "adsl.csv", " adsl ", "Adsl.CSV"])}
    if pick == 1:
        return "frequency", {"dataset": "ADSL", "variable": "SEX", "subjects": ", ".join(rng.sample(SUBJECTS, 4))}
    if pick == 2:
        return "frequency", {"dataset": "adsl", "variable": "RACE", "subjects": "全部"}
    if pick == 3:
        return "run_qc_checks", {"dataset": "adsl.csv", "checks": "KEY_UNIQUE; date_pairs", "missing_threshold": "15%"}
    if pick == 4:
        return "sas_round_rate", {"value": str(rng.choice([0.125, 2.5, -2.5, 1.005])), "decimals": "2", "scale": "Percent"}
    if pick == 5:
        return "summarize_by_group", json.dumps({"dataset": "adsl", "variable": "AGE", "group_by": "SEX", "subjects": None})
    if pick == 6:
        return "calculator", "```json\n" + json.dumps({"expression": rng.choice(EXPRS)}) + "\n```"
    if pick == 7:
        return "current_time", '{"timezone": "Asia/Shanghai",}'
    if pick == 8:
        return "run_qc_checks", {"Dataset": "adsl", "date_pairs": json.dumps([{"start": "TRTSDT", "end": "TRTEDT"}])}
    return "frequency", {"dataset": ["adsl"], "variable": " SEX ", "subjects": [SUBJECTS[0], SUBJECTS[0], SUBJECTS[1]]}

def invalid():
    pick = rng.randrange(10)
    if pick == 0:
        return rng.choice(["delete_database_records", "set_volume", "get_data", "search_web"]), {"x": 1}
    if pick == 1:
        return "describe_dataset", {"dataset": rng.choice(["../etc/passwd", "adls", "", "全部"])}
    if pick == 2:
        return "describe_dataset", {"dataset": None}
    if pick == 3:
        return "summarize_by_group", {"dataset": "adsl", "variable": 42, "group_by": ["SEX", "RACE"], "extra": True}
    if pick == 4:
        return "calculator", {"expr": "1+1"}
    if pick == 5:
        return "run_qc_checks", {"dataset": "adsl", "checks": ["everything_else"], "missing_threshold": 250}
    if pick == 6:
        return "sas_round_rate", {"value": "lots", "decimals": 99}
    if pick == 7:
        return "calculator", '{"expression": "1 +'
    if pick == 8:
        return "append_audit", {"action": "", "idem_key": "has spaces and 空格"}
    return "run_qc_checks", {"dataset": "adsl", "date_pairs": [{"start": "TRTSDT"}], "codelist": {"SEX": "M"}}

def main():
    makers = [("valid", valid), ("repairable", repairable), ("invalid", invalid)]
    for i in range(240):
        kind, make = makers[i % 3]
        tool, arguments = make()
        print(json.dumps({"kind": kind, "tool": tool, "arguments": arguments}, ensure_ascii=False))

main()

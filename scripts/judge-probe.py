#!/usr/bin/env python3
"""The per-call judgement's question put to a llama-server for request/tool pairs:
stand-ins that should get "no", real requests that should get "yes". The instructions and
the question's form are read from crates/agent/src/judge.rs and each tool's line is the
first sentence of its description as `deskmate tools` prints it, so the probe asks what
the agent asks. The requests are the probe's own (a few are dev-split wordings; none is a
held-out case's).
Usage: deskmate tools > tools.json; scripts/judge-probe.py BASE_URL tools.json, against a
server started as the manifest starts the bundled model."""
import json
import pathlib
import re
import sys
import time
import urllib.request

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:18777"
SOURCE = (pathlib.Path(__file__).resolve().parent.parent / "crates/agent/src/judge.rs").read_text()


def rust_string(name_pattern):
    """The first Rust string literal after `name_pattern`, with `\\`-newline continuations
    and `\\n` escapes read as Rust reads them."""
    m = re.search(name_pattern + r'\s*"((?:[^"\\]|\\.)*)"', SOURCE, re.S)
    if not m:
        sys.exit(f"judge.rs has no {name_pattern!r} string")
    text = re.sub(r"\\\n\s*", "", m.group(1))
    return text.replace("\\n", "\n").replace('\\"', '"')


INSTRUCTIONS = rust_string(r"const INSTRUCTIONS: &str =")
QUESTION = rust_string(r"fn question\(.*?format!\(")  # "Request: {ask}\nTool {}: {}\n…"
GRAMMAR = rust_string(r"const GRAMMAR: &str =")

CASES = [
    ("what columns are in adsl?", "describe_dataset", "yes"),
    ("adsl 里 AGEGR1 各组多少人", "frequency", "yes"),
    ("3 除以 7，按 SAS 的规则四舍五入保留三位小数", "sas_round_rate", "yes"),
    ("run only the missing_rate check on adsl.csv", "run_qc_checks", "yes"),
    ("对 ADSL.csv 跑质控，只查 key_unique；date_pairs", "run_qc_checks", "yes"),
    ("in adsl, give me the frequency of SEX and of RACE", "frequency", "yes"),
    ("is my camera on right now?", "camera_status", "yes"),
    ("what time is it in Tokyo", "current_time", "yes"),
    ("make it louder", "increase_volume", "yes"),
    ("开大点", "increase_volume", "yes"),
    ("remind me at 5 to call mom", "schedule", "yes"),
    ("read this out loud: dinner at 7", "voice_msg_prompt", "yes"),
    ("stop my webcam", "turn_off_camera", "yes"),
    ("switch off the kitchen lights", "turn_off_camera", "no"),
    ("thanks!", "voice_msg_prompt", "no"),
    ("what's the weather like tomorrow?", "current_time", "no"),
    ("turn the screen brightness up", "increase_volume", "no"),
    ("book me a flight to Paris next Friday", "schedule", "no"),
    ("who wrote Hamlet?", "knowledge", "no"),
    ("tell me a joke", "text_msg_prompt", "no"),
    ("把客厅的灯打开", "turn_on_camera", "no"),
    ("is my printer out of ink?", "get_volume", "no"),
    ("buy new headphones online for me", "schedule", "no"),
    ("who painted the Mona Lisa?", "describe_dataset", "no"),
]


def first_sentence(description):
    """The description's first sentence, as `envelope::first_sentence` cuts it."""
    text = description.strip()
    for m in re.finditer(r"[.。!?]", text):
        at, end = m.start(), m.end()
        before = text[:at].lower()
        if any(before.endswith(a) for a in ("e.g", "i.e", "etc", "vs")):
            continue
        if end == len(text) or text[end].isspace() or m.group() == "。":
            return text[:end]
    return text


if len(sys.argv) < 3:
    sys.exit(__doc__)
LINES = {}
for spec in json.load(open(sys.argv[2])):
    description = spec["description"]
    if isinstance(description, dict):
        description = description.get("en", "")
    LINES[spec["id"]] = first_sentence(description)


def ask(request, tool, line):
    user = QUESTION.replace("{ask}", request, 1).replace("{}", tool, 1).replace("{}", line, 1)
    body = {
        "model": "q",
        "messages": [{"role": "system", "content": INSTRUCTIONS}, {"role": "user", "content": user}],
        "grammar": GRAMMAR,
        "temperature": 0,
        "max_tokens": 4,
    }
    req = urllib.request.Request(
        BASE + "/v1/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    start = time.time()
    reply = json.load(urllib.request.urlopen(req))
    return reply["choices"][0]["message"]["content"].strip(), time.time() - start


said = {"yes": [0, 0], "no": [0, 0]}
for request, tool, want in CASES:
    got, seconds = ask(request, tool, LINES[tool])
    said[want][0] += got == want
    said[want][1] += 1
    print(f"{got:4} want {want:4} {seconds:.2f}s  {request} / {tool}")
print(f"yes to {said['yes'][0]} of {said['yes'][1]} real requests, "
      f"no to {said['no'][0]} of {said['no'][1]} stand-ins")

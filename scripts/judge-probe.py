#!/usr/bin/env python3
"""The per-call judgement's question put to a llama-server for 14 request/tool pairs:
stand-ins that should get "no", real requests that should get "yes". The instructions and
the question's form are read from crates/agent/src/judge.rs, so the probe asks what the
agent asks; the tool lines are short paraphrases of the built-in tools' first sentences.
Usage: scripts/judge-probe.py [base URL, default http://127.0.0.1:18777] against a server
started as the manifest starts the bundled model."""
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
    ("switch off the kitchen lights", "turn_off_camera", "Turns off the camera.", "no"),
    ("stop my webcam", "turn_off_camera", "Turns off the camera.", "yes"),
    ("thanks!", "voice_msg_prompt", "Speaks a message aloud through the speakers.", "no"),
    ("read this out loud: dinner at 7", "voice_msg_prompt", "Speaks a message aloud through the speakers.", "yes"),
    ("what's the weather like tomorrow?", "current_time", "Tells the current date and time, optionally in a given time zone.", "no"),
    ("what time is it in Tokyo", "current_time", "Tells the current date and time, optionally in a given time zone.", "yes"),
    ("turn the screen brightness up", "increase_volume", "Turns the speaker volume up.", "no"),
    ("make it louder", "increase_volume", "Turns the speaker volume up.", "yes"),
    ("book me a flight to Paris next Friday", "schedule", "Schedules a reminder message at a given time.", "no"),
    ("remind me at 5 to call mom", "schedule", "Schedules a reminder message at a given time.", "yes"),
    ("who wrote Hamlet?", "knowledge", "Searches the user's own knowledge base documents.", "no"),
    ("tell me a joke", "text_msg_prompt", "Shows a text notification on the screen.", "no"),
    ("开大点", "increase_volume", "Turns the speaker volume up.", "yes"),
    ("把客厅的灯打开", "turn_on_camera", "Turns on the camera.", "no"),
]


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


right = 0
for request, tool, line, want in CASES:
    got, seconds = ask(request, tool, line)
    right += got == want
    print(f"{got:4} want {want:4} {seconds:.2f}s  {request} / {tool}")
print(f"{right} of {len(CASES)} as wanted")

#!/usr/bin/env python3
"""The per-call judgement's question (crates/agent/src/judge.rs: the same instructions and
question) put to a llama-server for 14 request/tool pairs: stand-ins that should get "no",
real requests that should get "yes". The tool lines are short paraphrases of the built-in
tools' first sentences. Usage: scripts/judge-probe.py [base URL, default
http://127.0.0.1:18777] against a server started as the manifest starts the bundled model."""
import json, urllib.request, time, sys
BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:18777"
cases = [
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
def ask(req, tool, desc, form):
    if form == 1:
        sys_ = "You check whether a tool does what a user asks. A tool does only what its description says; a tool for something similar, related or on the same device does not count. Answer yes or no."
        user = f"Request: {req}\nTool {tool}: {desc}\nDoes this tool do exactly what the request asks?"
        g = 'root ::= "yes" | "no"'
    body = {"model":"q","messages":[{"role":"system","content":sys_},{"role":"user","content":user}],"grammar":g,"temperature":0,"max_tokens":4}
    r = urllib.request.Request(BASE + "/v1/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type":"application/json"})
    t=time.time(); d=json.load(urllib.request.urlopen(r)); return d["choices"][0]["message"]["content"].strip(), time.time()-t
ok=0
for req, tool, desc, want in cases:
    got, dt = ask(req, tool, desc, 1)
    ok += got==want
    print(f"{got:4} want {want:4} {dt:.2f}s  {req} / {tool}")
print(ok, len(cases))

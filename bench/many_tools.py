"""Many tools: `deskmate serve` with the default local model and 100 HTTP tools (118 enabled
tools in all), to see what the tool pre-selection does to the prompt and the latency.

1. Creates 100 HTTP tools (25 topics x 4 verbs; their URL is unreachable, so a call fails
   at the network, after the model chose it) with local models off.
2. Relaunches with the local model: seconds until the warm prefix is ready, then four
   messages in new conversations (first event, whole turn, calls, reply), and the prompt
   tokens llama-server evaluated per request (its log).

Usage: scripts/bench-chat.sh --many-tools (which writes the manifest with only the default
LLM and its own prompt-cache folder), or many_tools.py DESKMATE_BIN MANIFEST WORKDIR
"""
import json, os, signal, subprocess, sys, time, urllib.request, shutil

BIN, MANIFEST, work = sys.argv[1], sys.argv[2], sys.argv[3]
TOKEN = "m"
PORT = 18700 + os.getpid() % 100
os.makedirs(work + "/data/datasets", exist_ok=True)
def launch(models, log):
    env = dict(os.environ, DESKMATE_API_TOKEN=TOKEN, DESKMATE_LOG="info")
    return subprocess.Popen([BIN, "--data-dir", work + "/data", "serve", "--addr", f"127.0.0.1:{PORT}", "--local-models", models],
                            stdout=subprocess.DEVNULL, stderr=open(log, "w"), env=env)
def req(method, path, body=None):
    r = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", method=method, data=json.dumps(body).encode() if body else None,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    return json.load(urllib.request.urlopen(r, timeout=60))
def up():
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/api/v1/tools/health", timeout=1); return
        except Exception: time.sleep(0.1)
topics = ["flight status", "stock quote", "git repository", "calendar event", "email inbox", "weather forecast", "shipping parcel",
          "currency exchange rate", "recipe", "train timetable", "hotel booking", "movie showtimes", "news headline", "translation",
          "dictionary definition", "package version", "issue tracker ticket", "invoice", "customer record", "wiki page",
          "photo album", "music playlist", "fitness workout", "bank transaction", "parking space"]
verbs = ["Looks up", "Lists", "Searches", "Summarizes"]
p = launch("off", work + "/setup.log"); up()
n = 0
for t in topics:
    for v in verbs:
        req("POST", "/api/v1/tools/resources", {"name": f"{v} {t}", "description": f"{v} {t} records from the company service.",
            "category": "query", "http_method": "GET", "http_url": "http://127.0.0.1:9/x/{q}",
            "parameter_schema": {"type": "object", "required": ["q"], "properties": {"q": {"type": "string", "description": "what to look up"}}}})
        n += 1
p.send_signal(signal.SIGINT); p.wait()
print("created", n, "HTTP tools")
log = work + "/serve.log"; t0 = time.time(); p = launch(MANIFEST, log); up()
while "prompt prefix ready" not in open(log).read(): time.sleep(0.2)
print(f"prefix ready after {time.time()-t0:.1f} s")
def chat(msg):
    r = urllib.request.Request(f"http://127.0.0.1:{PORT}/api/v1/chat", data=json.dumps({"message": msg}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}", "Accept": "text/event-stream"})
    t = time.time(); first = None; ev = None; calls = []; reply = ""
    with urllib.request.urlopen(r, timeout=600) as a:
        for raw in a:
            line = raw.decode().rstrip("\n")
            if line.startswith("event:"): ev = line[6:].strip()
            elif line.startswith("data:"):
                if first is None and ev in ("token", "tool_call"): first = time.time() - t
                d = json.loads(line[5:])
                if ev == "tool_call": calls.append(d["name"])
                if ev == "done": reply = d["reply"]
    return first, time.time() - t, calls, reply
for msg in ["What is 17% of 2,340?", "What's the flight status of LH123?", "Show me the stock quote for ACME", "现在几点了？"]:
    f, tot, calls, reply = chat(msg)
    print(f"{f:.2f} s first event, {tot:.1f} s turn {msg!r} -> {calls} {reply[:60]!r}")
p.send_signal(signal.SIGINT); p.wait()
for l in open([os.path.join(work + "/data/logs", x) for x in os.listdir(work + "/data/logs")][0]):
    if "prompt eval time" in l: print(l.strip()[-110:])

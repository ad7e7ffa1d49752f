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
import json, os, sys, urllib.request

from chat import TOKEN, chat, healthy, launch, start, stop, wait_for

TOPICS = ["flight status", "stock quote", "git repository", "calendar event", "email inbox",
          "weather forecast", "shipping parcel", "currency exchange rate", "recipe",
          "train timetable", "hotel booking", "movie showtimes", "news headline", "translation",
          "dictionary definition", "package version", "issue tracker ticket", "invoice",
          "customer record", "wiki page", "photo album", "music playlist", "fitness workout",
          "bank transaction", "parking space"]
VERBS = ["Looks up", "Lists", "Searches", "Summarizes"]
MESSAGES = ["What is 17% of 2,340?", "What's the flight status of LH123?",
            "Show me the stock quote for ACME", "现在几点了？"]


def create_tool(port, name, description):
    body = {"name": name, "description": description, "category": "query",
            "http_method": "GET", "http_url": "http://127.0.0.1:9/x/{q}",
            "parameter_schema": {"type": "object", "required": ["q"], "properties": {
                "q": {"type": "string", "description": "what to look up"}}}}
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/tools/resources", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    urllib.request.urlopen(request, timeout=60).read()


def main():
    binary, manifest, work = sys.argv[1:4]
    data_dir = os.path.join(work, "data")
    os.makedirs(data_dir, exist_ok=True)
    port = 18700 + os.getpid() % 100

    server = launch(binary, data_dir, "off", port, os.path.join(work, "setup.log"))
    try:
        wait_for(lambda: healthy(port), 60)
        for topic in TOPICS:
            for verb in VERBS:
                create_tool(port, f"{verb} {topic}", f"{verb} {topic} records from the company service.")
    finally:
        stop(server)
    print(f"created {len(TOPICS) * len(VERBS)} HTTP tools")

    server, how, ready = start(binary, data_dir, manifest, port, os.path.join(work, "serve.log"))
    try:
        print(f"prefix ready ({how}) after {ready:.1f} s")
        for message in MESSAGES:
            first, total, calls, reply = chat(port, message)
            print(f"{first:.2f} s first event, {total:.1f} s turn {message!r} -> {calls} {reply[:60]!r}")
    finally:
        stop(server)
    logs = os.path.join(data_dir, "logs")
    for name in sorted(os.listdir(logs)):
        for line in open(os.path.join(logs, name), encoding="utf-8", errors="replace"):
            if "prompt eval time" in line:
                print(line.strip()[-110:])


if __name__ == "__main__":
    sys.exit(main())

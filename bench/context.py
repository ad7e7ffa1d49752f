"""A context that never overflows, on the default local model: one conversation of TURNS
turns on `deskmate serve` (a question about a number each turn, every fifth one a sum the
calculator does, the first about 4711), then "What was the first number I asked about?".
Reports whether the answer has 4711, how many times the oldest turns were folded into a
summary (from GET /conversations/{id}: `context.folded_until_seq` moving on), the context
figures, and the median and 90th percentile turn latency (turns that folded apart).

Usage: context.py DESKMATE_BIN MANIFEST WORKDIR [--turns N]
"""
import argparse, json, os, statistics, subprocess, sys, time, urllib.request

TOKEN = "bench-token"
FIRST = 4711


def api(port, method, path, body=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=900) as answer:
        return json.loads(answer.read() or b"null")


def chat(port, message, conversation):
    body = {"message": message, "locale": "en"}
    if conversation:
        body["conversation_id"] = conversation
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/chat", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}",
                 "Accept": "text/event-stream"})
    started = time.time()
    event, reply, errors, done = None, "", [], None
    with urllib.request.urlopen(request, timeout=900) as answer:
        for raw in answer:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data = json.loads(line[5:])
                if event == "error":
                    errors.append(data.get("message", ""))
                elif event == "done":
                    done = data
                    reply = data.get("reply", "")
    return time.time() - started, reply, errors, done


def question(i):
    n = 100 + 7 * i
    if i == 0:
        return f"What is special about the number {FIRST}? One short sentence."
    if i % 5 == 4:
        return f"What is {n} * 3?"
    return f"Is {n} even or odd? Answer in a few words."


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("manifest")
    parser.add_argument("workdir")
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    port = 19000 + os.getpid() % 1000
    data = os.path.join(args.workdir, "data")
    env = dict(os.environ, DESKMATE_API_TOKEN=TOKEN)
    server = subprocess.Popen(
        [args.binary, "--data-dir", data, "serve", "--addr", f"127.0.0.1:{port}", "--local-models", args.manifest],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(args.workdir, "serve.log"), "w"), env=env)
    try:
        deadline = time.time() + 300
        while True:
            try:
                models = api(port, "GET", "/models/llm")
                if models["list"] and models["list"][0]["state"] == "ready":
                    break
            except Exception:
                pass
            if time.time() > deadline:
                sys.exit("the model never got ready")
            time.sleep(0.5)
        chat(port, "hi", None)  # the prefix is evaluated once, outside the figures
        conversation, folded, folds = None, None, 0
        plain, folding, failed, most = [], [], 0, 0
        context = {}
        for i in range(args.turns):
            seconds, reply, errors, done = chat(port, question(i), conversation)
            if done is None:
                sys.exit(f"turn {i}: no answer ({errors})")
            conversation = done["conversation_id"]
            failed += bool(errors)
            context = api(port, "GET", f"/conversations/{conversation}").get("context") or {}
            now = context.get("folded_until_seq")
            fold = now is not None and now != folded
            if fold:
                folds += 1
                folded = now
            (folding if fold else plain).append(seconds)
            most = max(most, context.get("catalog_tokens", 0) + context.get("conversation_tokens", 0))
            print(f"turn {i + 1:3d}: {seconds:6.1f} s, {context.get('conversation_tokens')} conversation tokens"
                  f"{' (folded)' if fold else ''}: {reply[:60]!r}", flush=True)
        seconds, reply, errors, done = chat(port, "What was the first number I asked about?", conversation)
        found = str(FIRST) in reply
        every = plain + folding
        print(json.dumps({
            "turns": args.turns,
            "first_number_recalled": found,
            "answer": reply,
            "folds": folds,
            "turns_with_errors": failed,
            "n_ctx": context.get("n_ctx"),
            "catalog_tokens": context.get("catalog_tokens"),
            "most_tokens_sent": most,
            "median_turn_s": round(statistics.median(every), 1),
            "p90_turn_s": round(sorted(every)[int(0.9 * (len(every) - 1))], 1),
            "median_turn_without_fold_s": round(statistics.median(plain), 1) if plain else None,
            "median_turn_with_fold_s": round(statistics.median(folding), 1) if folding else None,
        }, indent=2))
        sys.exit(0 if found else 1)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()

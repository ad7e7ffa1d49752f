"""What the benchmarks that talk to `deskmate serve` share: start it on a data dir with
only the default local LLM and wait until the model is ready, call the REST API, and run
one chat turn to its end (its reply, tool results, errors and `done` event).
"""
import contextlib, json, os, subprocess, sys, time, urllib.request

TOKEN = "bench-token"


def api(port, method, path, body=None, timeout=900):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return json.loads(answer.read() or b"null")


class Turn:
    """One chat turn as the person saw it: seconds, reply, (tool, status) of each result,
    error messages, and the `done` event (None when the turn never finished)."""

    def __init__(self):
        self.seconds, self.reply, self.calls, self.errors, self.done = 0.0, "", [], [], None


def chat(port, message, locale="en", conversation=None, timeout=900):
    body = {"message": message, "locale": locale}
    if conversation:
        body["conversation_id"] = conversation
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/chat", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}",
                 "Accept": "text/event-stream"})
    turn, event, started = Turn(), None, time.time()
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        for raw in answer:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data = json.loads(line[5:])
                if event == "tool_result":
                    turn.calls.append((data.get("name"), data.get("status")))
                elif event == "error":
                    turn.errors.append(data.get("message", ""))
                elif event == "done":
                    turn.done = data
                    turn.reply = data.get("reply", "")
    turn.seconds = time.time() - started
    return turn


@contextlib.contextmanager
def serve(binary, manifest, workdir, port):
    """`deskmate serve` on WORKDIR/data with MANIFEST's models, its model ready; yields
    the port and stops the server after."""
    env = dict(os.environ, DESKMATE_API_TOKEN=TOKEN)
    server = subprocess.Popen(
        [binary, "--data-dir", os.path.join(workdir, "data"), "serve", "--addr", f"127.0.0.1:{port}",
         "--local-models", manifest],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(workdir, "serve.log"), "w"), env=env)
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
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()

"""Chat latency with the local model: `deskmate serve` with only the default local LLM
(Qwen2.5-Coder-1.5B on llama-server) as a managed sidecar.

1. Launch with an empty prompt cache: seconds until the prefix is ready (evaluated).
2. New conversations, prefix warm: message sent -> first event the window shows (`plan`,
   `token` or `tool_call`), first `tool_call` or `token` event, and the whole turn, per
   message; medians.
3. Relaunch (the saved prefix on disk): seconds until the prefix is ready (restored), and
   the first event of a message sent then.

Usage: chat.py DESKMATE_BIN MANIFEST WORKDIR [--rounds N]
"""
import argparse, json, os, signal, statistics, subprocess, sys, time, urllib.request

MESSAGES = [
    "What is 17% of 2,340?",
    "Turn the volume down a little",
    "现在几点了？",
    "Tell me a short joke.",
    "What time is it in Tokyo right now?",
    "请把音量调低一点",
    "Summarize AGE by TRT01A in the adsl dataset",
]
TOKEN = "bench-token"


def launch(binary, data_dir, manifest, port, log):
    env = dict(os.environ, DESKMATE_API_TOKEN=TOKEN, DESKMATE_LOG="info")
    return subprocess.Popen(
        [binary, "--data-dir", data_dir, "serve", "--addr", f"127.0.0.1:{port}",
         "--local-models", manifest],
        stdout=subprocess.DEVNULL, stderr=open(log, "w"), env=env)


def wait_for(predicate, timeout, step=0.05):
    end = time.time() + timeout
    while time.time() < end:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return None


def prefix_ready(log):
    try:
        for line in open(log, encoding="utf-8", errors="replace"):
            if "prompt prefix ready" in line:
                return "restored" if "restored" in line else "evaluated"
    except FileNotFoundError:
        pass
    return None


def prefix_tokens(data_dir):
    """The prompt tokens of the first request the model server evaluated (the warm-up:
    system prompt, tool catalog and a one-word message), from llama-server's log."""
    logs = os.path.join(data_dir, "logs")
    for name in sorted(os.listdir(logs)) if os.path.isdir(logs) else []:
        for line in open(os.path.join(logs, name), encoding="utf-8", errors="replace"):
            if "prompt eval time" in line and "tokens" in line:
                return int(line.split("/")[1].split("tokens")[0].strip())
    return None


def healthy(port):
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/tools/health", timeout=1).status == 200
    except Exception:
        return False


def chat(port, message):
    body = json.dumps({"message": message}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/chat", data=body,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}",
                 "Accept": "text/event-stream"})
    started = time.time()
    first, acted, event, reply, tools = None, None, None, "", []
    with urllib.request.urlopen(request, timeout=600) as answer:
        for raw in answer:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                if first is None and event in ("plan", "token", "tool_call"):
                    first = time.time() - started
                if acted is None and event in ("token", "tool_call"):
                    acted = time.time() - started
                data = json.loads(line[5:])
                if event == "tool_call":
                    tools.append(data["name"])
                if event == "done":
                    reply = data.get("reply", "")
    return first, acted, time.time() - started, tools, reply


def stop(process):
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def start(binary, data_dir, manifest, port, log):
    """Launches `deskmate serve` and waits for its warm prefix: (process, how, seconds)."""
    launched = time.time()
    server = launch(binary, data_dir, manifest, port, log)
    wait_for(lambda: healthy(port), 60)
    how = wait_for(lambda: prefix_ready(log), 600)
    return server, how, time.time() - launched


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("manifest")
    parser.add_argument("workdir")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    data_dir = os.path.join(args.workdir, "data")
    os.makedirs(data_dir, exist_ok=True)
    port = 18000 + os.getpid() % 1000

    server, how, cold = start(args.binary, data_dir, args.manifest, port,
                              os.path.join(args.workdir, "serve-1.log"))
    try:
        print(f"launch -> prefix ready ({how}): {cold:.1f} s; prefix evaluated: {prefix_tokens(data_dir)} tokens")
        firsts, acts, totals = [], [], []
        for _ in range(args.rounds):
            for message in MESSAGES:
                first, acted, total, tools, reply = chat(port, message)
                firsts.append(first)
                acts.append(acted if acted is not None else total)
                totals.append(total)
                print(f"  {first:5.2f} s first event, {acts[-1]:5.2f} s first call or words, {total:5.1f} s turn  "
                      f"{message!r} -> {tools} {reply[:70]!r}")
        print(f"new conversation, prefix warm: first event median {statistics.median(firsts):.2f} s "
              f"(min {min(firsts):.2f}, max {max(firsts):.2f}), first call or words median "
              f"{statistics.median(acts):.2f} s, whole turn median {statistics.median(totals):.1f} s, n={len(firsts)}")
    finally:
        stop(server)

    server, how, ready = start(args.binary, data_dir, args.manifest, port,
                               os.path.join(args.workdir, "serve-2.log"))
    try:
        first, _, total, tools, _ = chat(port, MESSAGES[0])
        print(f"relaunch -> prefix ready ({how}): {ready:.1f} s; then a message's first event {first:.2f} s "
              f"({ready + first:.1f} s after launch)")
    finally:
        stop(server)


if __name__ == "__main__":
    sys.exit(main())

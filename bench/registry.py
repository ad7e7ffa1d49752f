"""Creating many HTTP tools over the API: `deskmate serve` (local models off, a fresh data
dir), N tools created one by one with POST /api/v1/tools/resources; the total time and
the time per hundred. Meanwhile another client calls the calculator over and over
(POST /api/v1/tools/call): its latency while the tools are being created, against the
same calls before, medians and p95.

Usage: registry.py DESKMATE_BIN WORKDIR [--tools N]
"""
import argparse, json, os, statistics, subprocess, sys, threading, time, urllib.request

TOKEN = "bench-token"


def request(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1{path}", data=data, method=method,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as answer:
        return answer.status, json.load(answer)


def tool(i):
    return {"name": f"Order lookup {i}", "description": "Looks up an order by its id.",
            "category": "query", "http_url": "http://127.0.0.1:9/orders/{id}",
            "parameter_schema": {"type": "object", "additionalProperties": False,
                                 "required": ["id"],
                                 "properties": {"id": {"type": "string", "description": "Order id"}}}}


def call_latencies(port, stop, out):
    while not stop.is_set():
        started = time.perf_counter()
        status, result = request(port, "POST", "/tools/call",
                                 {"tool": "calculator", "arguments": {"expression": "2+3*4"}})
        if status != 200 or not result.get("ok"):
            sys.exit(f"calculator failed: {result}")
        out.append((time.perf_counter() - started) * 1000)


def summary(values):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return f"median {statistics.median(values):.2f} ms, p95 {p95:.2f} ms ({len(values)} calls)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("workdir")
    parser.add_argument("--tools", type=int, default=1000)
    args = parser.parse_args()
    data_dir = os.path.join(args.workdir, "data")
    port = 19700 + os.getpid() % 200
    env = dict(os.environ, DESKMATE_API_TOKEN=TOKEN, DESKMATE_SECRET_STORE="file")
    server = subprocess.Popen(
        [args.binary, "--data-dir", data_dir, "serve", "--addr", f"127.0.0.1:{port}",
         "--local-models", "off"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(args.workdir, "serve.log"), "w"),
        env=env)
    try:
        for _ in range(200):
            try:
                request(port, "GET", "/tools/health")
                break
            except Exception:
                time.sleep(0.05)
        idle, stop = [], threading.Event()
        caller = threading.Thread(target=call_latencies, args=(port, stop, idle))
        caller.start()
        time.sleep(3)
        stop.set()
        caller.join()

        busy, stop = [], threading.Event()
        caller = threading.Thread(target=call_latencies, args=(port, stop, busy))
        caller.start()
        started = time.perf_counter()
        marks = []
        for i in range(args.tools):
            status, created = request(port, "POST", "/tools/resources", tool(i))
            if status != 201:
                sys.exit(f"create {i}: {status} {created}")
            if (i + 1) % 100 == 0:
                marks.append(time.perf_counter() - started)
        total = time.perf_counter() - started
        stop.set()
        caller.join()
        status, listing = request(port, "GET", "/tools/list")
        per_hundred = [round(b - a, 2) for a, b in zip([0.0] + marks, marks)]
        print(f"created {args.tools} tools in {total:.2f} s; seconds per hundred: {per_hundred}")
        print(f"tools listed afterwards: {len(listing.get('list', listing.get('tools', [])) or [])}")
        print(f"calculator call, idle: {summary(idle)}")
        print(f"calculator call, while creating: {summary(busy)}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()

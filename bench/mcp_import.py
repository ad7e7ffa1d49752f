"""Time from `deskmate serve` start to the tools of a configured MCP server
(server-everything over stdio) being offered: the data dir gets the server once, then
each run starts Deskmate, polls `GET /api/v1/tools/list` every 20 ms until
`everything.echo` is listed, and stops it. Prints the runs and their median as JSON
(scripts/bench-mcp.sh runs it).

    mcp_import.py DESKMATE_BIN WORK_DIR SERVER_EVERYTHING_BIN [--runs N]
"""

import argparse
import json
import statistics
import subprocess
import time
import urllib.request


def get(url, token):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def post(url, token, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status


def start(binary, data):
    started = time.perf_counter()
    server = subprocess.Popen(
        [binary, "--data-dir", data, "serve", "--addr", "127.0.0.1:0", "--local-models", "off"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    api = server.stdout.readline().strip()
    token = open(f"{data}/api-token").read().strip()
    return server, api, token, started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("work")
    parser.add_argument("everything")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    data = f"{args.work}/data"
    server, api, token, _ = start(args.binary, data)
    assert post(f"{api}/mcp/servers", token, {"name": "everything", "command": args.everything, "args": ["stdio"]}) == 201
    server.terminate()
    server.wait(timeout=10)
    runs = []
    for _ in range(args.runs):
        server, api, token, started = start(args.binary, data)
        listening = time.perf_counter() - started
        while "everything.echo" not in get(f"{api}/tools/list", token)["tools"]:
            time.sleep(0.02)
        runs.append({"listening_s": round(listening, 3), "tools_s": round(time.perf_counter() - started, 3)})
        server.terminate()
        server.wait(timeout=10)
    print(json.dumps({
        "runs": runs,
        "median_listening_s": statistics.median(r["listening_s"] for r in runs),
        "median_tools_s": statistics.median(r["tools_s"] for r in runs),
    }, indent=1))


main()

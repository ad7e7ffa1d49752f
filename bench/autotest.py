"""Autotest wall time with the local model servers: `deskmate serve` with SmolLM2-135M
(llama-server) and whisper-base (faster-whisper-server) as managed sidecars, the sample
dataset, every tool and device checked. Per run: the run's wall time, its slowest check,
their ratio, and the sum of all checks (what running them one after another would cost);
medians over the runs after a warm-up run.

Usage: autotest.py DESKMATE_BIN MANIFEST WORKDIR [--runs N]
"""
import argparse, json, os, statistics, sys, urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from chat import TOKEN, healthy, launch, stop, wait_for  # noqa: E402


def autotest(port):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/tools/autotest", data=b"", method="POST",
        headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=600) as answer:
        return json.load(answer)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("manifest")
    parser.add_argument("workdir")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    data_dir = os.path.join(args.workdir, "data")
    port = 19000 + os.getpid() % 1000
    server = launch(args.binary, data_dir, args.manifest, port,
                    os.path.join(args.workdir, "serve.log"))
    try:
        if not wait_for(lambda: healthy(port), 60):
            sys.exit("deskmate serve did not start")
        warm = autotest(port)
        print(f"warm-up run: {warm['duration_ms']} ms, {warm['summary']}")
        rows = []
        for i in range(args.runs):
            run = autotest(port)
            slowest = max(run["tests"], key=lambda t: t["duration_ms"])
            total = sum(t["duration_ms"] for t in run["tests"])
            rows.append((run["duration_ms"], slowest["duration_ms"], total))
            print(f"run {i + 1}: wall {run['duration_ms']} ms; slowest check "
                  f"{slowest['name']} {slowest['duration_ms']} ms "
                  f"(ratio {run['duration_ms'] / max(slowest['duration_ms'], 1):.2f}); "
                  f"sum of checks {total} ms; {run['summary']}")
        failed = [t["name"] + ": " + t["message"] for t in run["tests"] if t["status"] == "failed"]
        for line in failed:
            print("  failed:", line[:160])
        wall = statistics.median(r[0] for r in rows)
        slow = statistics.median(r[1] for r in rows)
        ratio = statistics.median(r[0] / max(r[1], 1) for r in rows)
        total = statistics.median(r[2] for r in rows)
        print(f"median over {len(rows)} runs: wall {wall:.0f} ms, slowest check {slow:.0f} ms, "
              f"wall/slowest {ratio:.2f}, sum of checks {total:.0f} ms "
              f"(one after another: {total / max(wall, 1):.1f}x the wall time)")
    finally:
        stop(server)


if __name__ == "__main__":
    main()

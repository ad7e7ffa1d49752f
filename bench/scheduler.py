"""The scheduler with 10,000 stored schedules (`deskmate serve`, no local models): the
server's CPU while nothing is due (60 s, from /proc), and how late a due occurrence is
claimed (a reminder "in 5 seconds", five times: the claim time of its run minus the
occurrence's time).

Usage: scheduler.py DESKMATE_BIN WORKDIR [--stored N] [--idle SECONDS]
"""
import argparse, datetime, json, os, statistics, subprocess, sys, time, urllib.request

TOKEN = "bench-token"


def api(port, method, path, body=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"null")


def cpu_ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def at(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("workdir")
    parser.add_argument("--stored", type=int, default=9995)
    parser.add_argument("--idle", type=int, default=60)
    args = parser.parse_args()
    port = 19000 + os.getpid() % 1000
    data = os.path.join(args.workdir, "data")
    env = dict(os.environ, DESKMATE_API_TOKEN=TOKEN)
    server = subprocess.Popen(
        [args.binary, "--data-dir", data, "serve", "--addr", f"127.0.0.1:{port}", "--local-models", "off"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(args.workdir, "serve.log"), "w"), env=env)
    try:
        for _ in range(200):
            try:
                api(port, "GET", "/schedules?limit=1")
                break
            except Exception:
                time.sleep(0.1)
        started = time.time()
        for i in range(args.stored):
            # Next year, spread over its days and minutes: none is due while measuring.
            day = datetime.date(2027, 1, 1) + datetime.timedelta(days=i % 365)
            when = f"{day.isoformat()} {(i // 365) % 24:02d}:{i % 60:02d}"
            api(port, "POST", "/schedules", {"when": when, "message": f"bench {i}"})
        print(f"stored {args.stored} schedules in {time.time() - started:.0f} s", flush=True)
        time.sleep(2)
        before, t0 = cpu_ticks(server.pid), time.time()
        time.sleep(args.idle)
        used = (cpu_ticks(server.pid) - before) / os.sysconf("SC_CLK_TCK")
        idle = 100 * used / (time.time() - t0)
        print(f"idle CPU over {args.idle} s with {args.stored} schedules: {idle:.2f} % of a core", flush=True)
        late = []
        for _ in range(5):
            made = api(port, "POST", "/schedules", {"when": "in 5 seconds", "message": "probe"})
            deadline = time.time() + 30
            while time.time() < deadline:
                runs = api(port, "GET", f"/schedules/{made['id']}/runs")["list"]
                if runs:
                    late.append((at(runs[0]["claimed_at"]) - at(runs[0]["occurrence"])).total_seconds())
                    break
                time.sleep(0.2)
            else:
                sys.exit("a due reminder was not claimed within 25 s of its time")
            api(port, "DELETE", f"/schedules/{made['id']}")
        print(f"claimed after its time: median {statistics.median(late) * 1000:.0f} ms, "
              f"max {max(late) * 1000:.0f} ms (n={len(late)})", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Desktop app benchmark (issue 8): launch-to-interactive time and idle memory (PSS).

  launch: WebKitWebDriver launches the binary (POST /session) and the clock runs from
          that request until the page answers `interactive_js` (for Deskmate: the chat
          input rendered and the service answering GET /tools/health through the UI's
          connection); median of N runs, each in a fresh Xvfb + D-Bus session and data dir.
  pss:    the binary started directly (no driver) in a fresh Xvfb + D-Bus session; after
          IDLE seconds, the PSS of the process and all its descendants (the WebKit web and
          network processes) summed from /proc/PID/smaps_rollup.

Usage: desktop.py NAME BINARY INTERACTIVE_JS [--runs 5] [--idle 30]
Prints one JSON object.
"""
import argparse, http.client, json, os, shutil, signal, socket, statistics, subprocess, tempfile, time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Session:
    """A private X display and session bus."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="dm-bench-")
        self.procs = []
        bus = os.path.join(self.dir, "bus")
        self.procs.append(subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile",
                                            f"--address=unix:path={bus}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        n = next(n for n in range(200, 400) if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"))
        self.display = f":{n}"
        self.procs.append(subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.time() + 20
        while not (os.path.exists(f"/tmp/.X11-unix/X{n}") and os.path.exists(bus)):
            if time.time() > deadline:
                raise SystemExit("Xvfb / dbus did not start")
            time.sleep(0.05)
        self.env = dict(os.environ, DISPLAY=self.display, DBUS_SESSION_BUS_ADDRESS=f"unix:path={bus}",
                        XDG_RUNTIME_DIR=self.dir, XDG_CONFIG_HOME=os.path.join(self.dir, "config"),
                        XDG_DATA_HOME=os.path.join(self.dir, "share"), DESKMATE_DATA_DIR=os.path.join(self.dir, "data"),
                        DESKMATE_LOCAL="off", WEBKIT_DISABLE_DMABUF_RENDERER="1", TAURI_WEBVIEW_AUTOMATION="true")

    def close(self):
        for p in reversed(self.procs):
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def request(conn, method, path, body=None):
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Content-Type": "application/json", "Connection": "keep-alive"})
    r = conn.getresponse()
    data = r.read()
    return r.status, (json.loads(data) if data else None)


def launch_once(binary, interactive_js):
    s = Session()
    port = free_port()
    driver = subprocess.Popen(["WebKitWebDriver", f"--port={port}"], env=s.env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.time() > deadline:
                    raise SystemExit("WebKitWebDriver did not start")
                time.sleep(0.05)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        caps = {"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": {"binary": binary, "args": []}}}}
        t0 = time.perf_counter()
        status, answer = request(conn, "POST", "/session", caps)
        if status != 200:
            raise SystemExit(f"session: {answer}")
        sid = answer["value"]["sessionId"]
        session_ms = (time.perf_counter() - t0) * 1000
        while True:
            status, answer = request(conn, "POST", f"/session/{sid}/execute/async",
                                     {"script": interactive_js, "args": []})
            if status == 200 and answer["value"] is True:
                break
            if time.perf_counter() - t0 > 60:
                raise SystemExit(f"not interactive within 60 s: {answer}")
            time.sleep(0.01)
        ready_ms = (time.perf_counter() - t0) * 1000
        request(conn, "DELETE", f"/session/{sid}")
        return ready_ms, session_ms
    finally:
        driver.terminate()
        try:
            driver.wait(10)
        except subprocess.TimeoutExpired:
            driver.kill()
        s.close()


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except OSError:
                pass
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


def name(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def idle_pss(binary, idle):
    s = Session()
    app = subprocess.Popen([binary], env=s.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(idle)
        procs = {p: (name(p), pss_kib(p)) for p in descendants(app.pid)}
        return sum(k for _, k in procs.values()) / 1024, sorted((n, round(k / 1024, 1)) for n, k in procs.values())
    finally:
        app.send_signal(signal.SIGTERM)
        try:
            app.wait(10)
        except subprocess.TimeoutExpired:
            app.kill()
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("binary")
    ap.add_argument("interactive_js")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--idle", type=float, default=30)
    a = ap.parse_args()
    launches = [launch_once(a.binary, a.interactive_js) for _ in range(a.runs)]
    ready = [r for r, _ in launches]
    pss, procs = idle_pss(a.binary, a.idle)
    print(json.dumps({"name": a.name, "binary": a.binary, "runs": a.runs,
                      "launch_to_interactive_ms": {"median": round(statistics.median(ready)), "all": [round(r) for r in ready]},
                      "driver_session_ms_median": round(statistics.median(s for _, s in launches)),
                      "idle_s": a.idle, "pss_mib": round(pss, 1), "processes": procs}))


if __name__ == "__main__":
    main()

"""How often the local model fills the schedule tool right: each phrasing of
bench/schedule_phrasings.jsonl (20 per language) is one chat turn of a new conversation
on `deskmate serve` with only the default local LLM; the schedule it made is judged with
the facts written in the case (rule kind, time of day, weekdays, interval, how far ahead,
what the reminder says), never with Deskmate's own parser, and deleted again.

Usage: schedules.py DESKMATE_BIN MANIFEST WORKDIR [--only en|zh] [--limit N]
"""
import argparse, datetime, json, os, statistics

from serve_client import api, chat, serve

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_time(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def judge(case, made):
    """What is wrong with `made` (a schedule as the API shows it), or None."""
    action, rule = made["action"], made["rule"]
    if action.get("kind") != "reminder":
        return f"action is {action.get('kind')}, not a reminder"
    if case["has"].lower() not in action.get("message", "").lower():
        return f"message {action.get('message')!r} lacks {case['has']!r}"
    if rule.get("kind") != case["kind"]:
        return f"rule {made['rule_words']['en']!r} is not {case['kind']}"
    if "time" in case and rule.get("time") != case["time"]:
        return f"time {rule.get('time')} is not {case['time']}"
    if "days" in case and rule.get("days") != case["days"]:
        return f"days {rule.get('days')} are not {case['days']}"
    if "step" in case and rule.get("step") != case["step"]:
        return f"interval {rule.get('step')} is not {case['step']}"
    if case["kind"] == "once":
        created, due = parse_time(made["created_at"]), parse_time(made["next_at"])
        local = parse_time(made["next_at_local"])
        if "in_seconds" in case and abs((due - created).total_seconds() - case["in_seconds"]) > 2:
            return f"due {(due - created).total_seconds():.0f} s after it was made, not {case['in_seconds']}"
        if "at" in case and local.strftime("%H:%M") != case["at"]:
            return f"due at {local.strftime('%H:%M')}, not {case['at']}"
        created_local = created.astimezone(local.tzinfo)
        if case.get("day") == "tomorrow" and local.date() != created_local.date() + datetime.timedelta(days=1):
            return f"due on {local.date()}, not tomorrow"
        if "weekday" in case and local.strftime("%a") != case["weekday"]:
            return f"due on a {local.strftime('%a')}, not {case['weekday']}"
        if "at" in case and "day" not in case and "weekday" not in case and (due - created).total_seconds() > 86400:
            return "due more than a day ahead"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("manifest")
    parser.add_argument("workdir")
    parser.add_argument("--only")
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()
    cases = [json.loads(l) for l in open(os.path.join(HERE, "schedule_phrasings.jsonl"), encoding="utf-8") if l.strip()]
    if args.only:
        cases = [c for c in cases if c["lang"] == args.only]
    if args.limit:
        cases = cases[: args.limit]
    with serve(args.binary, args.manifest, args.workdir, 18000 + os.getpid() % 1000) as port:
        chat(port, "hi", "en")  # the prefix is evaluated once, outside the figures
        results = {}
        for case in cases:
            before = {s["id"] for s in api(port, "GET", "/schedules?limit=1000")["list"]}
            turn = chat(port, case["message"], "zh-CN" if case["lang"] == "zh" else "en", timeout=600)
            seconds, calls, reply = turn.seconds, turn.calls, turn.reply
            made = [s for s in api(port, "GET", "/schedules?limit=1000")["list"] if s["id"] not in before]
            if len(made) != 1:
                wrong = f"{len(made)} schedules made (calls {calls})"
            else:
                wrong = judge(case, made[0])
            for s in made:
                api(port, "DELETE", f"/schedules/{s['id']}")
            results.setdefault(case["lang"], []).append((wrong is None, seconds))
            mark = "ok  " if wrong is None else "MISS"
            print(f"{mark} {case['lang']} {seconds:5.1f} s  {case['message']}" + ("" if wrong is None else f"  -- {wrong}; reply: {reply[:120]!r}"), flush=True)
        for lang, rows in results.items():
            right = sum(1 for ok, _ in rows if ok)
            median = statistics.median(s for _, s in rows)
            print(f"{lang}: {right}/{len(rows)} right, median turn {median:.1f} s")


if __name__ == "__main__":
    main()

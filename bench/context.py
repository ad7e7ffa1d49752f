"""A context that never overflows, on the default local model: one conversation of TURNS
turns on `deskmate serve` (a question about a number each turn, every fifth one a sum the
calculator does, the first about 4711), then "What was the first number I asked about?".
Reports whether the answer has 4711, how many times the oldest turns were folded into a
summary (from GET /conversations/{id}: `context.folded_until_seq` moving on), the context
figures, and the median and 90th percentile turn latency (turns that folded apart).

Usage: context.py DESKMATE_BIN MANIFEST WORKDIR [--turns N]
"""
import argparse, json, os, statistics, sys

from serve_client import api, chat, serve

FIRST = 4711


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
    with serve(args.binary, args.manifest, args.workdir, 19000 + os.getpid() % 1000) as port:
        chat(port, "hi")  # the prefix is evaluated once, outside the figures
        conversation, folded, folds = None, None, 0
        plain, folding, failed, most = [], [], 0, 0
        context = {}
        for i in range(args.turns):
            turn = chat(port, question(i), conversation=conversation)
            if turn.done is None:
                sys.exit(f"turn {i}: no answer ({turn.errors})")
            conversation = turn.done["conversation_id"]
            failed += bool(turn.errors)
            context = api(port, "GET", f"/conversations/{conversation}").get("context") or {}
            now = context.get("folded_until_seq")
            fold = now is not None and now != folded
            if fold:
                folds += 1
                folded = now
            (folding if fold else plain).append(turn.seconds)
            most = max(most, context.get("catalog_tokens", 0) + context.get("conversation_tokens", 0))
            print(f"turn {i + 1:3d}: {turn.seconds:6.1f} s, {context.get('conversation_tokens')} conversation tokens"
                  f"{' (folded)' if fold else ''}: {turn.reply[:60]!r}"
                  f"{f' calls {turn.calls}' if turn.calls else ''}", flush=True)
        last = chat(port, "What was the first number I asked about?", conversation=conversation)
        reply = last.reply
        print(f"the question: calls {last.calls}", flush=True)
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

if __name__ == "__main__":
    main()

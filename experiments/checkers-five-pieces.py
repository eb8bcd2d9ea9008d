#!/usr/bin/env python3
"""Random 5-piece checkers positions proven over the 4-piece databases, each value compared
with the 5-piece databases' and each proof checked (the 5-piece row of "What has been
solved?" in docs/results.md).

Usage: experiments/checkers-five-pieces.py DB4 DB5 [COUNT] [SEED] [CAP] [OUT]
  DB4: databases of at most 4 pieces (the proofs' leaves), `quasar tablebase build --game
       checkers --max-pieces 4 -o DB4`; DB5: databases of 5 pieces or more (plain or
       compressed), whose values the proofs must equal. COUNT positions (default 100) are
       drawn with SEED (default 1): a slice of 5 pieces at random, then its squares and
       the side to move; finished games and positions with a capture to make (one move
       to the 4-piece databases) are drawn again. Each proof is capped at CAP seconds
       (default 60) and written to OUT (default exp-five). Prints a line a position, then
       the counts by value, the slowest proof and every disagreement. QUASAR names the
       binary (default target/release/quasar).
"""

import json
import os
import random
import subprocess
import sys
import time

q = os.environ.get("QUASAR", "target/release/quasar")
db4, db5 = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 100
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
cap = float(sys.argv[5]) if len(sys.argv) > 5 else 60
out = sys.argv[6] if len(sys.argv) > 6 else "exp-five"
os.makedirs(out, exist_ok=True)
rng = random.Random(seed)


def draw():
    """A random placement of a random 5-piece slice, and a side to move, as FEN."""
    while True:
        bm, bk, wm, wk = (rng.randint(0, 5) for _ in range(4))
        if bm + bk + wm + wk == 5 and bm + bk > 0 and wm + wk > 0:
            break
    squares = set()
    # Black men move down the board from squares 1-28 (32 is promoted), white men up from 5-32.
    def place(n, lo, hi):
        out = []
        while len(out) < n:
            s = rng.randint(lo, hi)
            if s not in squares:
                squares.add(s)
                out.append(s)
        return out
    b_men, w_men = place(bm, 1, 28), place(wm, 5, 32)
    b_kings, w_kings = place(bk, 1, 32), place(wk, 1, 32)
    side = rng.choice("BW")
    pieces = lambda men, kings: ",".join([str(s) for s in men] + [f"K{s}" for s in kings])
    return f"{side}:W{pieces(w_men, w_kings)}:B{pieces(b_men, b_kings)}"


def run(args, timeout=None):
    try:
        p = subprocess.run([q] + args, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def db_value(fen):
    code, o, e = run(["tablebase", "probe", db5, "--position", fen, "--json"])
    if code != 0:
        return None
    v = json.loads(o)
    return v["result"], v["to_move"], v.get("best_move") or ""


counts, slowest, wrong, unproven, done = {}, (0.0, ""), [], [], 0
while done < count:
    fen = draw()
    want = db_value(fen)
    # A capture (compulsory) leaves the 5-piece slices at once, to the databases' leaves;
    # a position without a best move has no move: the game is over.
    if want is None or not want[2] or "x" in want[2]:
        continue
    done += 1
    proof = os.path.join(out, f"{done}.proof")
    t = time.monotonic()
    code, o, e = run(["solve", "--game", "checkers", "--position", fen, "--tb", db4,
                      "--quiet", "--json", "--out", proof], timeout=cap)
    wall = time.monotonic() - t
    if code != 0:
        unproven.append((fen, e.strip()[-200:]))
        print(f"{done} {fen}: not proven within {cap:.0f} s", flush=True)
        continue
    got = json.loads(o)
    mover = "Black" if fen[0] == "B" else "White"
    if got["value"] == "draw":
        value = "draw"
    else:
        value = "win" if got["winner_to_move"] else "loss"
    check, _, ce = run(["solve", "--game", "checkers", "--check", proof, "--tb", db4])
    ok = value == want[0] and check == 0
    counts[value] = counts.get(value, 0) + 1
    slowest = max(slowest, (wall, fen))
    if not ok:
        wrong.append((fen, value, want, ce.strip()[-200:]))
    print(f"{done} {fen}: {value} for {mover} ({want[0]} in the databases), {wall:.1f} s, "
          f"proof {'checked' if check == 0 else 'REFUSED'}", flush=True)

print(f"{done} positions: {counts}; slowest {slowest[0]:.1f} s ({slowest[1]}); "
      f"{len(unproven)} not proven within {cap:.0f} s; {len(wrong)} disagreements")
for w in wrong:
    print("DISAGREES:", w)
sys.exit(1 if wrong else 0)

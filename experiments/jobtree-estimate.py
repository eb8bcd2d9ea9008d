#!/usr/bin/env python3
"""The cost of solving a Breakthrough board estimated from samples of its frontier.

Knuth's estimator ("Estimating the efficiency of backtrack programs", 1975): a line of K
uniformly random moves from the start, with b_0 ... b_(K-1) legal moves along it, stands
for prod(b_i) positions K plies deep, so the mean of prod(b_i) * cost(end of the line) over
many lines is an unbiased estimate of the sum of cost over every line K plies deep. Each
line's end is solved by `quasar solve` with a node budget (a line still open at the budget
counts the budget: that sample, and the estimate with it, is a lower bound).

Three sums are printed, each with its standard error:
  full width  every line K plies deep solved on its own (the cost of a job tree that
              expanded everything to K plies and proved nothing above it);
  if White/Black wins
              only the loser's plies multiply (the winner plays one move, here a random
              stand-in for it): the frontier of a minimal proof tree of K plies.
The job tree's real cost lies between the proof-tree sum of the true winner and the full
width (transpositions, mirror images and the tree's own work not counted).

Usage: experiments/jobtree-estimate.py --board 6x6 --plies 8 --samples 40 --nodes 2000000
       [--memory 256] [--seed 1] [--quasar target/release/quasar] [--csv FILE]
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

import quasar


def solve(exe, board, position, nodes, memory, workdir):
    """Solves `position` within `nodes` nodes: (solved, nodes searched, winner to move)."""
    out = os.path.join(workdir, "sample.proof")
    cmd = [exe, "solve", "--board", board, "--position", position, "--stop-after",
           str(nodes), "--memory", str(memory), "--winner-only", "--quiet", "--json",
           "--out", out]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        sys.exit(f"solve failed on {position}: {done.stderr.strip() or done.stdout.strip()}")
    answer = json.loads(lines[-1])
    if "error" in answer:
        sys.exit(f"solve failed on {position}: {answer['error']}")
    if os.path.exists(out):
        os.remove(out)
    if answer.get("stopped"):
        return False, answer["nodes"], None
    return True, answer["nodes"], answer["winner_to_move"]


def mean_se(xs):
    """The mean of `xs` and its standard error."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var / n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="6x6")
    ap.add_argument("--plies", type=int, required=True, help="length K of the random lines")
    ap.add_argument("--samples", type=int, required=True)
    ap.add_argument("--nodes", type=int, required=True, help="node budget of each solve")
    ap.add_argument("--memory", type=int, default=256, help="MiB of each solve's table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quasar", default="target/release/quasar")
    ap.add_argument("--csv", help="also write one row per sample here")
    a = ap.parse_args()
    if a.plies < 1 or a.samples < 2 or a.nodes < 1:
        sys.exit("--plies, --samples and --nodes must be at least 1, 2 and 1")
    game = quasar.load_game("breakthrough", board=a.board)
    rng = random.Random(a.seed)
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        for k in range(a.samples):
            state = game.new_initial_state()
            # The weights of the line: all plies, White's plies, Black's plies.
            w_all = w_white = w_black = 1
            over = False
            for ply in range(a.plies):
                if state.is_terminal():
                    over = True
                    break
                moves = state.legal_actions()
                w_all *= len(moves)
                if ply % 2 == 0:
                    w_white *= len(moves)
                else:
                    w_black *= len(moves)
                state.apply_action(rng.choice(moves))
            if over or state.is_terminal():
                # A game over before K plies: no line of K plies here (cost 0).
                rows.append((k, "", 0, 0, 0, True, 0, ""))
                continue
            pos = state.position()
            solved, nodes, to_move = solve(a.quasar, a.board, pos, a.nodes, a.memory, workdir)
            # The side to move after K plies: White when K is even.
            mover = "White" if a.plies % 2 == 0 else "Black"
            other = "Black" if mover == "White" else "White"
            winner = (mover if to_move else other) if solved else ""
            rows.append((k, pos, w_all, w_white, w_black, solved, nodes, winner))
            print(f"{k:3} {pos:40} weight {w_all:.3e} nodes {nodes:>10} "
                  f"{'won by ' + winner if solved else 'open at the budget'}", flush=True)
    if a.csv:
        with open(a.csv, "w", encoding="utf-8") as f:
            f.write("sample,position,weight,white_weight,black_weight,solved,nodes,winner\n")
            for r in rows:
                f.write(",".join(str(x) for x in r) + "\n")
    lines = [r for r in rows if r[1]]
    solved = [r for r in lines if r[5]]
    wins = {s: sum(1 for r in solved if r[7] == s) for s in ("White", "Black")}
    print(f"{a.board}, lines of {a.plies} plies, seed {a.seed}: {len(rows)} samples, "
          f"{len(solved)} solved within {a.nodes} nodes (White won {wins['White']}, Black "
          f"{wins['Black']}), {len(lines) - len(solved)} open (counted at the budget: a "
          "lower bound)")
    frontier, frontier_se = mean_se([r[2] for r in rows])
    print(f"positions {a.plies} plies deep (lines): {frontier:.3e} +- {frontier_se:.2e}")
    for name, col in (("full width", 2), ("if White wins", 4), ("if Black wins", 3)):
        m, se = mean_se([r[col] * r[6] for r in rows])
        print(f"{name:14} {m:.3e} nodes +- {se:.2e} (standard error)")


if __name__ == "__main__":
    main()

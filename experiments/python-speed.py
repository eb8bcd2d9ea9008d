#!/usr/bin/env python3
"""Random 8x8 Breakthrough games from Python: quasar against OpenSpiel's pyspiel.

    python3 experiments/python-speed.py [GAMES] [BOARD]

Plays GAMES uniformly random games (1000 by default) from a Python loop with each
library's `legal_actions` and `apply_action`, then the same number with quasar's batched
`random_playouts` (one call, the loop in Rust). Prints games a second and microseconds a
ply for each, as a Markdown table, then the cost of single calls at the start position. pyspiel's row is left out when `open_spiel` is not
installed (`pip install open_spiel`).
"""

import random
import sys
import time
import timeit

import quasar

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
BOARD = sys.argv[2] if len(sys.argv) > 2 else "8x8"
COLS, ROWS = (int(x) for x in BOARD.split("x"))


def loop(new_state, games, rng):
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        state = new_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return time.perf_counter() - start, plies


def row(name, seconds, games, plies):
    us = f"{1e6 * seconds / plies:.2f}" if plies else "-"
    print(f"| {name} | {games} | {games / seconds:,.0f} | {us} |")


print(f"| {BOARD} Breakthrough, random games | games | games/s | µs a ply |")
print("|---|---|---|---|")
game = quasar.load_game("breakthrough", board=BOARD)
seconds, plies = loop(game.new_initial_state, GAMES, random.Random(1))
row("quasar, Python loop", seconds, GAMES, plies)
try:
    import pyspiel

    os_game = pyspiel.load_game(f"breakthrough(rows={ROWS},columns={COLS})")
    seconds, plies = loop(os_game.new_initial_state, GAMES, random.Random(1))
    row("pyspiel, Python loop", seconds, GAMES, plies)
except ImportError:
    pass
state = game.new_initial_state()
batch = GAMES * 100
start = time.perf_counter()
counts = state.random_playouts(batch, seed=1)
seconds = time.perf_counter() - start
assert sum(counts.values()) == batch
row("quasar, one `random_playouts` call", seconds, batch, 0)


def calls(name, state):
    action = state.legal_actions()[0]
    n = 200_000
    legal = timeit.timeit(state.legal_actions, number=n) / n
    child = timeit.timeit(lambda: state.clone().apply_action(action), number=n) / n
    copy = timeit.timeit(state.clone, number=n) / n
    print(f"| {name} | {1e9 * legal:.0f} | {1e9 * copy:.0f} | {1e9 * (child - copy):.0f} |")


print()
print("| single calls at the start, ns | `legal_actions()` | `clone()` | `apply_action(a)` |")
print("|---|---|---|---|")
calls("quasar", game.new_initial_state())
try:
    calls("pyspiel", os_game.new_initial_state())
except NameError:
    pass

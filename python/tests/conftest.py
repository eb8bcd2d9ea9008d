"""Shared helpers: the `quasar` binary the tests compare with, and random positions."""

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import quasar

ROOT = Path(__file__).resolve().parents[2]

# Each game with the sizes the tests play: (name, load_game keywords, perft options).
GAMES = [
    ("breakthrough", {"board": "6x6"}, ["--board", "6x6"]),
    ("breakthrough", {"board": "5x7"}, ["--board", "5x7"]),
    ("woodpush", {"width": 9, "pieces": 2}, ["--width", "9", "--pieces-per-side", "2"]),
    ("chinese-checkers", {"pieces": 3}, ["--pieces-per-side", "3"]),
    ("checkers", {}, []),
]


def binary() -> Path:
    """The release `quasar` binary: $QUASAR_BIN, or the workspace's target."""
    path = Path(os.environ.get("QUASAR_BIN", ROOT / "target" / "release" / "quasar"))
    if not path.exists():
        found = shutil.which("quasar")
        if found is None:
            pytest.skip("no quasar binary: run `cargo build --release` or set QUASAR_BIN")
        path = Path(found)
    return path


def run(*args: str) -> str:
    """Runs the binary and returns its standard output; fails the test on an error."""
    done = subprocess.run([str(binary()), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def random_state(game, rng: random.Random, plies: range):
    """A state reached from the start by random plies, as many as `rng` draws from `plies`
    (fewer where the game ends first)."""
    state = game.new_initial_state()
    for _ in range(rng.randrange(plies.start, plies.stop)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def random_states(game, count: int, seed: int, max_plies: int = 60):
    """`count` states reached by random plies (a random number of them) from the start."""
    rng = random.Random(seed)
    return [random_state(game, rng, range(max_plies)) for _ in range(count)]


def interrupted(script: str, ready: str, wait: float, timeout: float) -> str:
    """Runs `script` in a child Python, sends it Ctrl-C (SIGINT) `wait` seconds after it
    prints the line `ready`, and checks that it caught KeyboardInterrupt: its `script`
    ends in `except KeyboardInterrupt:` printing `interrupted` and exiting with 3. Returns
    what it printed after `ready`."""
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == ready
    time.sleep(wait)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=timeout)
    assert child.returncode == 3 and "interrupted" in out
    return out


@pytest.fixture(params=GAMES, ids=lambda g: f"{g[0]}-{'-'.join(str(v) for v in g[1].values())}")
def sized(request):
    """A game with its sizes: (Game, perft options)."""
    name, params, options = request.param
    return quasar.load_game(name, **params), ["--game", name, *options]

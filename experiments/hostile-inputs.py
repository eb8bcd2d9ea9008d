#!/usr/bin/env python3
"""Hostile inputs against every command: each option that takes a value gets values a
careless or hostile user might give (empty, huge, negative, not a number, control
characters, devices, FIFOs, folders, damaged and foreign files), alone, on every game.

    python3 experiments/hostile-inputs.py [QUASAR] [--per-option N] [--seed S] [--timeout T]

A try fails when the program panics (exit 101), dies by a signal, runs past the timeout
(default 20 s) or holds more than 1 GiB. Prints one line per failure and a summary; exits 1
when any try failed. Standard input is empty for every try, so commands that read it end.
"""

import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

GIB = 1 << 30


def options_of(quasar, command):
    """Options of `quasar COMMAND --help` that take a value, with their value names."""
    out = subprocess.run([quasar, *command, "--help"], capture_output=True, text=True).stdout
    found = []
    for m in re.finditer(r"^\s+(?:-\w, )?(--[\w-]+) <([\w./|-]+)>", out, re.M):
        found.append(m.group(1))
    return found


def run(quasar, args, timeout, cwd):
    """(exit status or -signal, timed out, max RSS bytes, stderr's head)."""
    p = subprocess.Popen(
        [quasar, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=cwd,
        start_new_session=True,
    )
    timed_out = [False]

    def kill():
        timed_out[0] = True
        try:
            os.killpg(p.pid, 9)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    err = []

    def drain():
        # Keep only the head of standard error: a flood must not fill this process.
        data = p.stderr.read(4096)
        err.append(data)
        while p.stderr.read(65536):
            pass

    reader = threading.Thread(target=drain)
    reader.start()
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    reader.join()
    code = os.waitstatus_to_exitcode(status)
    return code, timed_out[0], usage.ru_maxrss * 1024, b"".join(err).decode("utf-8", "replace")


def main():
    args = sys.argv[1:]
    quasar = "target/release/quasar"
    per_option, seed, timeout = 4, 1, 20.0
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--per-option":
            per_option = int(args[i + 1])
            i += 2
        elif a == "--seed":
            seed = int(args[i + 1])
            i += 2
        elif a == "--timeout":
            timeout = float(args[i + 1])
            i += 2
        else:
            quasar = a
            i += 1
    quasar = os.path.abspath(quasar)
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="quasar-hostile-")
    try:
        fifo = os.path.join(work, "fifo")
        os.mkfifo(fifo)
        folder = os.path.join(work, "folder")
        os.mkdir(folder)
        noise = os.path.join(work, "noise.bin")
        with open(noise, "wb") as f:
            f.write(bytes(rng.randrange(256) for _ in range(5000)))
        # A real table and proof, then damaged copies of them.
        table = os.path.join(work, "t.qtb")
        subprocess.run([quasar, "tablebase", "build", "--board", "4x4", "--rows", "3", "-o", table, "--quiet"], check=True, capture_output=True)
        proof = os.path.join(work, "p.proof")
        subprocess.run([quasar, "solve", "--board", "4x4", "--quiet", "-o", proof], check=True, capture_output=True)
        damaged = []
        for src in (table, proof):
            data = bytearray(open(src, "rb").read())
            cut = os.path.join(work, os.path.basename(src) + ".cut")
            open(cut, "wb").write(data[: len(data) // 2])
            flip = os.path.join(work, os.path.basename(src) + ".flip")
            data[len(data) // 3] ^= 0x40
            open(flip, "wb").write(data)
            damaged += [cut, flip]
        values = [
            "", " ", "0", "-1", "-0.5", "1e308", "NaN", "inf", "18446744073709551616",
            "99x99", "0x0", "1/0", "x" * 100_000, "\x01\x7f", "é\u202e", "--help",
            "/dev/zero", "/dev/null", "/dev/full", fifo, folder, noise, table, proof,
            *damaged, os.path.join(work, "missing", "deeper", "file"),
        ]
        commands = [
            ["perft"], ["show"], ["bench"], ["bestmove"], ["play"], ["gtp"],
            ["tablebase", "build"], ["tablebase", "plan"], ["tablebase", "info"],
            ["tablebase", "probe"], ["tablebase", "verify"], ["tablebase", "compress"],
            ["arena"], ["arena", "report"], ["replay"], ["solve"],
        ]
        games = ["breakthrough", "woodpush", "chinese-checkers", "checkers"]
        # Options that keep a command's own default work short, so that only bad input can
        # make a try run long; each is left out when it is the option under test.
        sizes = {
            "breakthrough": [("--board", "4x4")],
            "woodpush": [("--width", "7")],
            "chinese-checkers": [("--pieces-per-side", "1")],
            "checkers": [],
        }
        short = {
            "bench": [("--seconds", "0.2")],
            "bestmove": [("--sims", "200")],
            "play": [("--sims", "50")],
            "gtp": [("--sims", "50")],
            "arena": [("--games", "2"), ("--sims", "20"), ("--player", "random"), ("--player", "random:seed=2"), ("--out", "arena-out")],
            "solve": [("--memory", "64")],
            "build": [("--rows", "3"), ("--max-pieces", "2"), ("--out", "built")],
        }
        takes_size = {"bench", "bestmove", "play", "gtp", "arena", "solve", "build", "perft", "show"}
        tries = []
        for cmd in commands:
            for opt in options_of(quasar, cmd):
                for v in rng.sample(values, min(per_option, len(values))):
                    game = rng.choice(games)
                    base = short.get(cmd[-1], []) + (sizes[game] if cmd[-1] in takes_size else [])
                    if cmd[-1] == "build" and game != "breakthrough":
                        base = [b for b in base if b[0] != "--rows"]
                    if cmd[-1] == "build" and game != "checkers":
                        base = [b for b in base if b[0] != "--max-pieces"]
                    extra = [] if opt == "--game" else ["--game", game]
                    for k, val in base:
                        if k != opt:
                            extra += [k, val]
                    tries.append([*cmd, *extra, opt, v])
            # A positional argument, where the command takes one.
            for v in rng.sample(values, min(per_option, len(values))):
                tries.append([*cmd, v])
        failures = 0
        start = time.time()
        for n, t in enumerate(tries, 1):
            code, timed_out, rss, err = run(quasar, t, timeout, work)
            why = None
            if timed_out:
                why = f"ran past {timeout:.0f} s"
            elif code == 101 or "panicked" in err:
                why = "panicked"
            elif code < 0:
                why = f"killed by signal {-code}"
            elif rss > GIB:
                why = f"held {rss / GIB:.1f} GiB"
            if why:
                failures += 1
                shown = [a if len(a) < 80 else a[:40] + f"...({len(a)} chars)" for a in t]
                first = err.strip().splitlines()[:1]
                print(f"FAIL {why}: quasar {' '.join(repr(a) for a in shown)}: {first}", flush=True)
        print(f"{len(tries)} tries, {failures} failures, {time.time() - start:.0f} s")
        sys.exit(1 if failures else 0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Exact solving from Python: results against an exact search written here, and proofs
checked and refused when damaged."""

import random

import pytest

import quasar
from conftest import interrupted, random_state, run
from test_tables import GAME, exact


def test_solutions_agree_with_an_exact_search():
    rng = random.Random(4)
    solved = 0
    for _ in range(12):
        state = random_state(GAME, rng, range(2, 10))
        if state.is_terminal():
            continue
        s = quasar.solve(state, memory=16)
        result, plies = exact(state.position())
        winner = state.current_player() if result == "win" else 1 - state.current_player()
        assert (s.winner, s.plies) == (winner, plies), state.position()
        line = state.clone()
        for move in s.line:
            line.apply_move(move)
        assert line.is_terminal() and line.winner() == s.winner and len(s.line) == s.plies
        solved += 1
    assert solved >= 8


def test_the_4x4_start_is_a_second_player_win_in_14(tmp_path):
    proof = tmp_path / "4x4.proof"
    s = quasar.solve(GAME.new_initial_state(), proof=proof, memory=16)
    assert (s.winner, s.plies) == (1, 14) and s.records > 0 and s.proof == proof
    checked = quasar.check_proof(proof)
    assert (checked["game"], checked["winner"], checked["plies"]) == ("breakthrough", 1, 14)
    assert checked["records"] == s.records
    assert checked["position"] == GAME.new_initial_state().position()
    data = bytearray(proof.read_bytes())
    data[len(data) // 2] ^= 0xFF
    proof.write_bytes(bytes(data))
    with pytest.raises(quasar.QuasarError):
        quasar.check_proof(proof)


@pytest.mark.parametrize(
    "name, params, build",
    [
        ("woodpush", {"width": 7}, ["--game", "woodpush", "--width", "7"]),
        ("chinese-checkers", {"pieces": 1}, ["--game", "chinese-checkers", "--pieces-per-side", "1"]),
    ],
)
def test_the_prover_agrees_with_the_retrograde_table(tmp_path, name, params, build):
    # Two independent methods: proof-number search from the start here, retrograde
    # analysis of every position in the table the command line builds.
    table = tmp_path / "table.qrt"
    run("tablebase", "build", *build, "-o", str(table), "--quiet")
    state = quasar.load_game(name, **params).new_initial_state()
    proof = tmp_path / "start.proof"
    s = quasar.solve(state, proof=proof, memory=64)
    probe = quasar.Table(table).probe(state)
    mover = state.current_player()
    assert probe.result == ("win" if s.winner == mover else "loss" if s.winner is not None else "draw")
    assert probe.plies == s.plies == len(s.line)
    line = state.clone()
    for move in s.line:
        line.apply_move(move)
    assert line.is_terminal() and line.winner() == s.winner
    checked = quasar.check_proof(proof)
    assert (checked["game"], checked["winner"], checked["plies"]) == (name, s.winner, s.plies)
    again = quasar.solve(state, table=table, memory=64)
    assert (again.winner, again.plies) == (s.winner, s.plies)


def test_solve_refuses_what_it_cannot_solve():
    over = GAME.new_initial_state(position="W3/4/2B1/4 b")
    with pytest.raises(quasar.QuasarError, match="nothing to solve"):
        quasar.solve(over)
    with pytest.raises(quasar.QuasarError, match="quasar solve --game checkers"):
        quasar.solve(quasar.load_game("checkers").new_initial_state())
    with pytest.raises(quasar.QuasarError, match="not an intact quasar proof file"):
        quasar.check_proof(__file__)
    with pytest.raises(quasar.QuasarError, match="memory"):
        quasar.solve(GAME.new_initial_state(), memory=0)


def test_ctrl_c_stops_a_long_solve():
    # 6x5 takes minutes; Ctrl-C (SIGINT) must end it at once with KeyboardInterrupt.
    script = (
        "import quasar, sys\n"
        "state = quasar.load_game('breakthrough', board='6x5').new_initial_state()\n"
        "print('solving', flush=True)\n"
        "try:\n"
        "    quasar.solve(state, memory=64)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
    )
    interrupted(script, "solving", wait=1.0, timeout=60)

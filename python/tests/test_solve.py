"""Exact solving from Python: results against an exact search written here, and proofs
checked and refused when damaged."""

import random

import pytest

import quasar
from test_tables import GAME, exact


def test_solutions_agree_with_an_exact_search():
    rng = random.Random(4)
    solved = 0
    for _ in range(12):
        state = GAME.new_initial_state()
        for _ in range(rng.randrange(2, 10)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
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
    assert (checked["winner"], checked["plies"], checked["records"]) == (1, 14, s.records)
    assert checked["position"] == GAME.new_initial_state().position()
    data = bytearray(proof.read_bytes())
    data[len(data) // 2] ^= 0xFF
    proof.write_bytes(bytes(data))
    with pytest.raises(quasar.QuasarError):
        quasar.check_proof(proof)


def test_solve_refuses_what_it_cannot_solve():
    over = GAME.new_initial_state(position="W3/4/2B1/4 b")
    with pytest.raises(quasar.QuasarError, match="nothing to solve"):
        quasar.solve(over)
    with pytest.raises(quasar.QuasarError, match="quasar solve --game woodpush"):
        quasar.solve(quasar.load_game("woodpush").new_initial_state())
    with pytest.raises(quasar.QuasarError, match="memory"):
        quasar.solve(GAME.new_initial_state(), memory=0)

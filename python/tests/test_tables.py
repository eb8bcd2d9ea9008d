"""Tables from Python: a Breakthrough table built by the command line, opened once and
probed, against an exact search written here."""

import random
from functools import lru_cache

import pytest

import quasar
from conftest import random_state, run

GAME = quasar.load_game("breakthrough", board="4x4")


@pytest.fixture(scope="module")
def table_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "4x4-r3.d"
    run("tablebase", "build", "--board", "4x4", "--rows", "3", "-o", str(path), "--quiet")
    return path


@lru_cache(maxsize=None)
def exact(position: str):
    """(result for the side to move, fewest plies to a win or most plies to a loss):
    Breakthrough has no draws, so every position is a win or a loss."""
    state = GAME.new_initial_state(position=position)
    if state.is_terminal():
        return ("loss", 0)  # the side to move has lost: the last move won
    wins, losses = [], []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        result, plies = exact(child.position())
        (wins if result == "loss" else losses).append(plies + 1)
    return ("win", min(wins)) if wins else ("loss", max(losses))


def test_probes_agree_with_an_exact_search(table_path):
    table = quasar.Table.open(table_path, GAME)
    rng = random.Random(12)
    answered = 0
    for _ in range(60):
        state = random_state(GAME, rng, range(4, 14))
        probe = table.probe(state)
        if state.is_terminal():
            assert probe is None
            continue
        if probe is None:
            continue
        answered += 1
        result, plies = exact(state.position())
        assert probe.result == result, state.position()
        if probe.plies is not None:
            # A table's distance bounds the truth: at most it for a win, at least for a loss.
            assert (probe.plies >= plies) if result == "win" else (probe.plies <= plies), state.position()
        if probe.move is not None and result == "win":
            child = state.clone()
            child.apply_move(probe.move)
            assert child.is_terminal() or exact(child.position())[0] == "loss"
    assert answered >= 20


def test_tables_refuse_what_they_cannot_answer(table_path, tmp_path):
    with pytest.raises(quasar.QuasarError, match="no table at"):
        quasar.Table(tmp_path / "missing.d")
    table = quasar.Table(table_path)
    assert table.path == table_path
    six = quasar.load_game("breakthrough", board="6x6").new_initial_state()
    with pytest.raises(quasar.QuasarError, match="4x4"):
        table.probe(six)
    damaged = tmp_path / "damaged.d"
    damaged.mkdir()
    (damaged / "manifest").write_text("not a manifest\n")
    with pytest.raises(quasar.QuasarError):
        quasar.Table(damaged, GAME)


def test_searches_use_the_table(table_path):
    state = GAME.new_initial_state(position="BBBB/1WBB/BWWW/WWWW w")
    r = quasar.search(state, engine="mcts", sims=200, table=str(table_path))
    assert r.proven == "win"
    state.apply_action(r.action)
    assert state.is_terminal() or exact(state.position())[0] == "loss"

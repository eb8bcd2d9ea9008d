"""Matches from Python: specs and callables as players, records read back and checked."""

import json
import random

import pytest

import quasar
from conftest import interrupted

GAME = quasar.load_game("breakthrough", board="5x5")


def first_legal(state):
    return state.legal_actions()[0]


def test_a_match_of_specs_and_a_callable_is_recorded(tmp_path):
    record = tmp_path / "games.jsonl"
    games = quasar.run_match(GAME, ["mcts", first_legal], games=4, sims=300, record=record)
    assert len(games) == 4
    for g in games:
        assert {g.first, g.second} == {"mcts", "python:first_legal"}
        assert g.winner in ("first", "second")
        state = GAME.new_initial_state()
        for move in g.opening_moves + g.moves:
            state.apply_move(move)
        assert state.is_terminal()
        assert state.winner() == (0 if g.winner == "first" else 1)
    # Both colours of each opening.
    assert sorted(g.first for g in games) == ["mcts", "mcts", "python:first_legal", "python:first_legal"]
    points = quasar.scores(games)
    assert points["mcts"][1] == 4 and points["mcts"][0] + points["python:first_legal"][0] == 4
    # The record reads back replayed and equal; a rerun plays nothing and returns the same.
    again = quasar.read_records(record)
    assert [g.moves for g in again] == [g.moves for g in games]
    rerun = quasar.run_match(GAME, ["mcts", first_legal], games=4, sims=300, record=record)
    assert [g.moves for g in rerun] == [g.moves for g in games]


def test_a_callable_may_answer_text_and_loses_by_an_illegal_move():
    def by_text(state):
        return state.action_to_string(random.choice(state.legal_actions()))

    def cheater(state):
        return "a1-a5"

    games = quasar.run_match(GAME, [by_text, cheater], games=2, sims=50)
    assert len(games) == 2
    for g in games:
        assert g.winner_spec == "python:by_text"
        assert g.reason == "illegal" and "answered with 'a1-a5'" in g.detail


def test_a_callable_that_raises_loses_with_its_error():
    def broken(state):
        raise RuntimeError("no idea")

    games = quasar.run_match(GAME, ["random", broken], games=2, sims=10)
    assert all(g.winner_spec == "random" for g in games)
    assert all(g.reason == "illegal" and "raised RuntimeError: no idea" in g.detail for g in games)


def test_a_contradicting_record_is_refused(tmp_path):
    record = tmp_path / "games.jsonl"
    quasar.run_match(GAME, ["random", "random:seed=2"], games=2, sims=1, record=record)
    lines = record.read_text().splitlines()
    game = json.loads(lines[0])
    game["winner"] = "second" if game["winner"] == "first" else "first"
    record.write_text("\n".join([json.dumps(game)] + lines[1:]) + "\n")
    with pytest.raises(quasar.QuasarError, match="line 1"):
        quasar.read_records(record)


@pytest.mark.parametrize(
    "players, kwargs, words",
    [
        (["mcts"], {}, "two players"),
        (["mcts", 3], {}, "neither a spec nor a callable"),
        (["mcts", "nonsense"], {}, "unknown player kind"),
        (["mcts", "random"], {"games": 0}, "at least 1"),
        (["mcts", "random"], {"time": 0.1, "sims": 5}, "not both"),
    ],
)
def test_bad_matches_raise(players, kwargs, words):
    with pytest.raises(quasar.QuasarError, match=words):
        quasar.run_match(GAME, players, **kwargs)


def test_records_make_a_data_frame(tmp_path):
    pd = pytest.importorskip("pandas")
    record = tmp_path / "games.jsonl"
    quasar.run_match(GAME, ["random", "random:seed=2"], games=2, sims=1, record=record)
    frame = quasar.records_dataframe(record)
    assert isinstance(frame, pd.DataFrame) and len(frame) == 2
    assert set(frame["winner"]) <= {"first", "second"}
    assert (frame["plies"] > 0).all()


def test_ctrl_c_stops_a_match_after_the_games_in_progress(tmp_path):
    record = tmp_path / "games.jsonl"
    script = (
        "import quasar, sys\n"
        "game = quasar.load_game('breakthrough', board='6x6')\n"
        "print('playing', flush=True)\n"
        "try:\n"
        f"    quasar.run_match(game, ['mcts', 'mcts:c=0.5'], games=200, sims=3000, record={str(record)!r})\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
    )
    interrupted(script, "playing", wait=2.0, timeout=120)
    # The games finished before the stop are in the record, and read back whole.
    kept = quasar.read_records(record) if record.exists() else []
    assert len(kept) < 200

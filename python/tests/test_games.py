"""Games in OpenSpiel's shape: states, actions, text, observations and errors."""

import copy

import numpy as np
import pytest

import quasar
from conftest import random_states


def test_every_game_loads_with_its_defaults_and_sizes():
    assert quasar.registered_names() == ["breakthrough", "woodpush", "chinese-checkers", "checkers"]
    assert quasar.load_game("breakthrough").params == "6x6"
    assert quasar.load_game("breakthrough", board="8x8").params == "8x8"
    assert quasar.load_game("woodpush", width=9).params == "width 9"
    assert quasar.load_game("woodpush", width=20, pieces=3).params == "width 20, 3 pieces a side"
    assert quasar.load_game("chinese_checkers", pieces=3).params == "7x7, 3 pieces a side"
    assert quasar.load_game("checkers").params == "8x8"


@pytest.mark.parametrize(
    "name, params, words",
    [
        ("go", {}, "quasar plays breakthrough"),
        ("breakthrough", {"width": 9}, "width is not a parameter of breakthrough: it takes board"),
        ("breakthrough", {"board": "9x9"}, "board="),
        ("woodpush", {"width": "x"}, "is not a whole number"),
        ("woodpush", {"width": 99}, "a strip of 6 to 31 cells, not 99"),
        ("chinese-checkers", {"pieces": 7}, "7"),
        ("checkers", {"board": "8x8"}, "it takes no parameters"),
    ],
)
def test_bad_games_raise_with_the_reason(name, params, words):
    with pytest.raises(quasar.QuasarError, match=words):
        quasar.load_game(name, **params)


def test_states_play_copy_and_end(sized):
    game, _ = sized
    for state in random_states(game, 20, seed=3, max_plies=400):
        copy_ = state.clone()
        assert copy_.position() == state.position()
        if state.is_terminal():
            assert state.current_player() == quasar.TERMINAL
            assert state.legal_actions() == []
            r = state.returns()
            assert sum(r) == 0 and sorted(r) in ([-1.0, 1.0], [0.0, 0.0])
            w = state.winner()
            assert (w is None and r == [0.0, 0.0]) or r[w] == 1.0
            with pytest.raises(quasar.QuasarError, match="game is over"):
                state.apply_action(0)
            continue
        assert state.current_player() in (0, 1)
        assert state.returns() == [0.0, 0.0]
        actions = state.legal_actions()
        assert len(set(actions)) == len(actions)
        assert all(0 <= a < game.num_distinct_actions() for a in actions)
        a = actions[-1]
        text = state.action_to_string(a)
        assert state.string_to_action(text) == a
        assert state.action_to_string(state.current_player(), a) == text
        assert state.string_to_action(state.current_player(), text) == a
        before = state.position()
        copy_.apply_action(a)
        assert state.position() == before, "a clone plays apart"
        assert copy_.history() == state.history() + [a]
        assert copy_.move_number() == state.move_number() + 1
        other = copy.deepcopy(state)
        other.apply_move(text)
        assert other.position() == copy_.position()


def test_illegal_actions_raise_and_change_nothing(sized):
    game, _ = sized
    state = game.new_initial_state()
    legal = set(state.legal_actions())
    bad = next(a for a in range(game.num_distinct_actions() + 1) if a not in legal)
    before = state.position()
    with pytest.raises(quasar.QuasarError, match="not a legal move"):
        state.apply_action(bad)
    with pytest.raises(quasar.QuasarError):
        state.action_to_string(bad)
    with pytest.raises(quasar.QuasarError):
        state.string_to_action("zz9-zz10")
    with pytest.raises(OverflowError):
        state.apply_action(-1)
    assert state.position() == before and state.history() == []


def test_positions_read_back_and_other_sizes_are_refused(sized):
    game, _ = sized
    for state in random_states(game, 10, seed=5):
        again = game.new_initial_state(position=state.position())
        assert again.position() == state.position()
        assert again.legal_actions() == state.legal_actions()
    if game.name == "breakthrough":
        small = quasar.load_game("breakthrough", board="4x4").new_initial_state().position()
        with pytest.raises(quasar.QuasarError, match="the position is breakthrough 4x4, and the game is breakthrough"):
            game.new_initial_state(position=small)
    with pytest.raises(quasar.QuasarError):
        game.new_initial_state(position="not a position")


def test_observations_have_one_plane_a_cell(sized):
    game, _ = sized
    planes, rows, cols = game.observation_tensor_shape()
    assert len(game.observation_planes()) == planes
    for state in random_states(game, 10, seed=9):
        obs = state.observation_tensor()
        assert obs.dtype == np.float32 and obs.shape == (planes, rows, cols)
        assert set(np.unique(obs)) <= {0.0, 1.0}
        assert obs.sum(axis=0).max() <= 1.0
        assert np.array_equal(obs, state.observation_tensor(1))


def test_breakthrough_observation_counts_pieces_by_side():
    state = quasar.load_game("breakthrough", board="6x6").new_initial_state()
    obs = state.observation_tensor()
    assert quasar.load_game("breakthrough", board="6x6").observation_planes() == ["White", "Black", "empty"]
    assert obs[0, :2].sum() == 12 and obs[1, 4:].sum() == 12 and obs[2, 2:4].sum() == 12
    state.apply_move("a2-a3")
    obs = state.observation_tensor()
    assert obs[0, 2, 0] == 1 and obs[2, 1, 0] == 1


def test_str_is_the_board_diagram():
    state = quasar.load_game("breakthrough", board="4x4").new_initial_state()
    text = str(state)
    assert "W W W W" in text and "B B B B" in text and "White to move" in text
    assert repr(state).startswith("<quasar.State breakthrough 4x4:")


def test_random_playouts_count_every_game():
    for name, params in [("breakthrough", {"board": "8x8"}), ("woodpush", {}), ("checkers", {})]:
        state = quasar.load_game(name, **params).new_initial_state()
        counts = state.random_playouts(200, seed=4)
        assert sum(counts.values()) == 200
        assert counts == state.random_playouts(200, seed=4), "a seed repeats"
    # Breakthrough has no draws and always ends.
    counts = quasar.load_game("breakthrough").new_initial_state().random_playouts(500, seed=1)
    assert counts["draws"] == 0 and counts["unfinished"] == 0
    assert counts["first"] > 0 and counts["second"] > 0

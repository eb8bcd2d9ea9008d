"""Searches from Python: both engines, their limits and reports, errors, and the GIL
released while they think."""

import threading

import pytest

import quasar


def start(board="6x6"):
    return quasar.load_game("breakthrough", board=board).new_initial_state()


def test_mcts_reports_its_move_visits_and_line():
    state = start()
    r = quasar.search(state, engine="mcts", sims=3000, seed=7)
    assert r.engine == "mcts" and r.nodes == 3000
    assert r.move == state.action_to_string(r.action)
    assert r.pv[0] == r.move
    visits = [v for (_, _, v, _) in r.root]
    assert visits == sorted(visits, reverse=True)
    assert sorted(m for (m, _, _, _) in r.root) == sorted(state.action_to_string(a) for a in state.legal_actions())
    assert list(r.visits) == [m for (m, _, _, _) in r.root]
    assert 0.0 <= r.value <= 1.0 and r.proven is None
    again = quasar.search(state, engine="mcts", sims=3000, seed=7)
    assert (again.move, again.root) == (r.move, r.root), "one thread and a seed repeat"


def test_alpha_beta_reports_depth_and_score():
    state = start()
    r = quasar.search(state, engine="ab:depth=4", time=30)
    assert r.engine == "ab" and r.depth == 4 and r.root == []
    assert r.pv[0] == r.move and len(r.pv) >= 1 and r.score is not None


@pytest.mark.parametrize("engine", ["mcts", "ab"])
def test_a_win_in_one_is_proven(engine):
    game = quasar.load_game("breakthrough", board="4x4")
    state = game.new_initial_state(position="4/W3/2B1/4 w")
    r = quasar.search(state, engine=engine, sims=500)
    assert (r.move, r.proven, r.plies) == ("a3-a4", "win", 1)
    state.apply_action(r.action)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_default_engines_are_the_games_own():
    assert start().default_engine() == "mcts"
    assert start("8x8").default_engine() == "mcts"
    # Boards of 8 rows without a shipped model play alpha-beta with MCTS's evaluation.
    assert start("7x8").default_engine() == "ab:eval=mcts"
    r = quasar.search(start("7x8"), time=0.05)
    assert r.engine == "ab"


def test_every_game_is_searched():
    for name, params in [("woodpush", {"width": 9}), ("chinese-checkers", {"pieces": 2}), ("checkers", {})]:
        state = quasar.load_game(name, **params).new_initial_state()
        for engine in ("mcts", "ab"):
            r = quasar.search(state, engine=engine, sims=300)
            assert r.action in state.legal_actions(), (name, engine)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"engine": "minimax"}, "unknown player kind"),
        ({"engine": "random"}, "is not a searcher"),
        ({"engine": "mcts:c=-1"}, "exploration constant must be a number from 0 to 100"),
        ({"time": 0.1, "sims": 10}, "not both"),
        ({"time": -1.0}, "above 0"),
        ({"time": float("nan")}, "above 0"),
        ({"sims": 0}, "at least 1"),
        ({"net": "nonsense.qsrmodel"}, "nonsense.qsrmodel: No such file"),
        ({"table": "/nonexistent/table"}, "/nonexistent/table: No such file"),
        ({"engine": "ab", "threads": 4}, "one thread"),
    ],
)
def test_bad_searches_raise_with_the_reason(kwargs, words):
    with pytest.raises(quasar.QuasarError, match=words):
        quasar.search(start(), **kwargs)


def test_a_finished_game_has_no_move():
    state = quasar.load_game("breakthrough", board="4x4").new_initial_state(position="W3/4/2B1/4 b")
    assert state.is_terminal()
    r = quasar.search(state, engine="mcts", sims=10)
    assert r.move is None and r.action is None


def test_python_runs_while_a_search_thinks():
    # With the GIL held for the whole search, the loop below would not run until it ends.
    counted = []
    done = threading.Event()

    def think():
        quasar.search(start(), engine="mcts", time=0.5)
        done.set()

    thread = threading.Thread(target=think)
    thread.start()
    steps = 0
    while not done.is_set():
        steps += 1
        if steps % 1000 == 0:
            counted.append(steps)
    thread.join()
    assert steps > 10_000

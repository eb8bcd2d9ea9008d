"""quasar beside OpenSpiel: the same Breakthrough rules move by move, and quasar's searcher
playing OpenSpiel's MCTS bot as a pyspiel bot. Skipped without `open_spiel`."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import quasar
from quasar.openspiel import QuasarBot, quasar_move_of, quasar_state_of, to_openspiel_action


@pytest.mark.parametrize("cols, rows", [(6, 6), (8, 8), (5, 7)])
def test_random_games_agree_move_by_move(cols, rows):
    os_game = pyspiel.load_game(f"breakthrough(rows={rows},columns={cols})")
    game = quasar.load_game("breakthrough", board=f"{cols}x{rows}")
    rng = random.Random(cols * rows)
    for _ in range(20):
        theirs, ours = os_game.new_initial_state(), game.new_initial_state()
        while True:
            assert theirs.is_terminal() == ours.is_terminal()
            if ours.is_terminal():
                assert theirs.returns() == ours.returns()
                break
            assert theirs.current_player() == ours.current_player()
            their_moves = sorted(quasar_move_of(theirs.action_to_string(a), rows) for a in theirs.legal_actions())
            our_moves = sorted(ours.action_to_string(a).replace("-", "").replace("x", "") for a in ours.legal_actions())
            assert their_moves == our_moves, ours.position()
            # The observations are equal: OpenSpiel's planes are its player 0's pieces, its
            # player 1's and the empty cells, from its top row (the first player's home),
            # which is quasar's row 1.
            obs = ours.observation_tensor()
            assert np.array_equal(np.array(theirs.observation_tensor()).reshape(obs.shape), obs)
            action = rng.choice(theirs.legal_actions())
            text = theirs.action_to_string(action)
            theirs.apply_action(action)
            ours.apply_action(next(a for a in ours.legal_actions()
                                   if ours.action_to_string(a).replace("-", "").replace("x", "") == quasar_move_of(text, rows)))
        assert quasar_state_of(theirs).position() == ours.position()


def test_quasar_plays_openspiels_mcts_bot():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("breakthrough(rows=6,columns=6)")
    rng = np.random.RandomState(3)
    theirs = mcts.MCTSBot(game, 2.0, 100, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    ours = QuasarBot(game, engine="mcts", sims=2000, seed=1)
    results = []
    for quasar_plays in (0, 1):
        state = game.new_initial_state()
        bots = [ours, theirs] if quasar_plays == 0 else [theirs, ours]
        while not state.is_terminal():
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        results.append(state.returns()[quasar_plays])
    assert len(results) == 2 and all(r in (-1.0, 1.0) for r in results)
    assert ours.last_result is not None and ours.last_result.engine == "mcts"


def test_the_bot_refuses_other_games():
    with pytest.raises(ValueError, match="breakthrough"):
        QuasarBot(pyspiel.load_game("tic_tac_toe"))


def test_moves_translate_both_ways():
    game = pyspiel.load_game("breakthrough")
    state = game.new_initial_state()
    assert quasar_move_of("a7b6", 8) == "a2b3" and quasar_move_of("c3d2*", 8) == "c6d7"
    action = to_openspiel_action(state, "a2-b3", 8)
    assert state.action_to_string(action) == "a7b6"

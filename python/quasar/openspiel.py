"""quasar's searchers as bots of OpenSpiel's Breakthrough.

OpenSpiel's Breakthrough is quasar's: the same rules on any board, its first player
(`b`, player 0) starting on the two top rows and moving down, with the rows counted from
the bottom. quasar's first player (White) starts on rows 1 and 2 and moves up, so a square
`c7` of OpenSpiel is `c2` of quasar on 8 rows: columns agree, rows are mirrored, and each
player keeps its number.

    >>> import pyspiel, quasar.openspiel
    >>> game = pyspiel.load_game("breakthrough(rows=6,columns=6)")
    >>> bot = quasar.openspiel.QuasarBot(game, engine="mcts", time=0.1)
    >>> action = bot.step(game.new_initial_state())
"""

from __future__ import annotations

from typing import Optional

from ._quasar import State, load_game, search

try:  # OpenSpiel is optional: the bot is then a plain object with the same methods.
    import pyspiel

    _Base = pyspiel.Bot
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None
    _Base = object


def _size(game) -> tuple:
    params = game.get_parameters()
    return int(params.get("columns", 8)), int(params.get("rows", 8))


def _square(square: str, rows: int) -> str:
    """An OpenSpiel square in quasar's rows, or the other way: the mirror is its own inverse."""
    return square[0] + str(rows + 1 - int(square[1:]))


def quasar_move_of(text: str, rows: int) -> str:
    """OpenSpiel's move text (`a7b6`, `a7b6*`) as quasar's `from` and `to` squares joined
    (`a2b3`), which `to_quasar_action` matches against the legal moves."""
    text = text.rstrip("*")
    split = next(i for i in range(1, len(text)) if text[i].isalpha())
    return _square(text[:split], rows) + _square(text[split:], rows)


def _plain(text: str) -> str:
    return text.replace("-", "").replace("x", "")


def to_quasar_action(state: State, openspiel_text: str, rows: int) -> int:
    """The quasar action of OpenSpiel's move text in `state`."""
    want = quasar_move_of(openspiel_text, rows)
    for action in state.legal_actions():
        if _plain(state.action_to_string(action)) == want:
            return action
    raise ValueError(f"OpenSpiel's move {openspiel_text} is not legal in quasar's {state.position()}")


def to_openspiel_action(os_state, quasar_text: str, rows: int) -> int:
    """The OpenSpiel action of quasar's move text in OpenSpiel's `os_state`."""
    want = _plain(quasar_text)
    for action in os_state.legal_actions():
        if quasar_move_of(os_state.action_to_string(action), rows) == want:
            return action
    raise ValueError(f"quasar's move {quasar_text} is not legal in OpenSpiel's state")


def quasar_state_of(os_state) -> State:
    """quasar's state of an OpenSpiel Breakthrough state, replayed from its history."""
    game = os_state.get_game()
    cols, rows = _size(game)
    state = load_game("breakthrough", board=f"{cols}x{rows}").new_initial_state()
    replay = game.new_initial_state()
    for action in os_state.history():
        text = replay.action_to_string(action)
        state.apply_action(to_quasar_action(state, text, rows))
        replay.apply_action(action)
    return state


class QuasarBot(_Base):
    """A quasar searcher as an OpenSpiel bot of Breakthrough: `step(state)` searches
    quasar's copy of the state and returns OpenSpiel's action. The keywords are those of
    `quasar.search` (`engine`, `time`, `sims`, `table`, `net`, `seed`, `threads`)."""

    def __init__(self, game, engine: Optional[str] = None, **search_options):
        if _Base is not object:
            _Base.__init__(self)
        if game.get_type().short_name != "breakthrough":
            raise ValueError(f"QuasarBot plays OpenSpiel's breakthrough, not {game.get_type().short_name}")
        self._rows = _size(game)[1]
        self._engine = engine
        self._options = search_options
        self.last_result = None

    def step(self, state) -> int:
        """The action quasar's search chooses in OpenSpiel's `state`."""
        mine = quasar_state_of(state)
        self.last_result = search(mine, engine=self._engine, **self._options)
        return to_openspiel_action(state, self.last_result.move, self._rows)

    def restart_at(self, state) -> None:
        """Nothing to forget: each step searches afresh."""

    def inform_action(self, state, player_id, action) -> None:
        """Nothing to follow: each step replays the state's history."""

    def restart(self) -> None:
        """Nothing to forget: each step searches afresh."""

    def provides_policy(self) -> bool:
        return False

    def provides_force_action(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False

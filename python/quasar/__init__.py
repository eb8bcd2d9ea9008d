"""quasar from Python: its games in OpenSpiel's shape, MCTS and alpha-beta searches,
endgame tables, matches and their records.

    >>> import quasar
    >>> game = quasar.load_game("breakthrough", board="6x6")
    >>> state = game.new_initial_state()
    >>> result = quasar.search(state, engine="mcts", sims=2000, seed=1)
    >>> state.apply_action(result.action)

The rules, searches and tables are quasar's Rust crates; nothing is re-implemented here.
"""

from ._quasar import (
    TERMINAL,
    Game,
    ProbeResult,
    QuasarError,
    SearchResult,
    SolveResult,
    State,
    Table,
    __version__,
    check_proof,
    load_game,
    registered_names,
    search,
    solve,
)
from .records import Game as RecordedGame, read_records, records_dataframe
from .arena import run_match, scores

__all__ = [
    "TERMINAL",
    "Game",
    "ProbeResult",
    "QuasarError",
    "RecordedGame",
    "SearchResult",
    "SolveResult",
    "State",
    "Table",
    "__version__",
    "check_proof",
    "load_game",
    "read_records",
    "records_dataframe",
    "registered_names",
    "run_match",
    "scores",
    "search",
    "solve",
]

"""Matches between players from Python, through the arena of the command line."""

from __future__ import annotations

import os
import tempfile
from typing import Callable, List, Optional, Sequence, Union

from ._quasar import Game as _Game, _run_match
from .records import Game as RecordedGame

Player = Union[str, Callable]


def run_match(
    game: _Game,
    players: Sequence[Player],
    games: int = 2,
    time: Optional[float] = None,
    sims: Optional[int] = None,
    record: Optional[Union[str, os.PathLike]] = None,
    seed: int = 1,
    jobs: int = 1,
    openings: Optional[Union[str, os.PathLike]] = None,
    opening_plies: int = 2,
    ply_cap: int = 1000,
    tolerance: float = 0.05,
) -> List[RecordedGame]:
    """Plays every pairing of `players` for `games` games each and returns the games.

    A player is a spec as `quasar arena --player` takes it (`"mcts"`, `"ab:eval=mcts"`,
    `"mcts:tb=tables/6x6-r4.d"`, `"random"`, `"gtp:./engine --gtp"`) or a Python callable
    that is given a `State` and returns an action number or a move's text. Each move is
    limited by `time` seconds (0.1 by default) or `sims` simulations, unless a spec sets
    its own. Games are appended to `record` (a JSON Lines file; a temporary one when
    `None`) as they finish, and a rerun with the same record plays only the missing ones.
    A callable that raises or answers an illegal move loses that game.
    """
    keep = record is not None
    if not keep:
        folder = tempfile.mkdtemp(prefix="quasar-match-")
        record = os.path.join(folder, "games.jsonl")
    try:
        lines = _run_match(
            game,
            list(players),
            os.fspath(record),
            games=games,
            time=time,
            sims=sims,
            seed=seed,
            jobs=jobs,
            openings=None if openings is None else os.fspath(openings),
            opening_plies=opening_plies,
            ply_cap=ply_cap,
            tolerance=tolerance,
        )
    finally:
        if not keep:
            try:
                os.remove(record)
            except FileNotFoundError:
                pass
            os.rmdir(os.path.dirname(record))
    return [RecordedGame.from_json(line) for line in lines]


def scores(games: Sequence[RecordedGame]) -> dict:
    """Each player's points and games over `games`: {spec: (points, games)}."""
    out: dict = {}
    for g in games:
        for spec in (g.first, g.second):
            points, played = out.get(spec, (0.0, 0))
            out[spec] = (points + g.score_of(spec), played + 1)
    return out

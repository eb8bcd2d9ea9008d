"""Match records (the arena's JSON Lines files) as Python objects and data frames."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from ._quasar import _read_records


@dataclass
class Game:
    """One recorded game: who played it, its moves and times, and how it ended."""

    game: str
    params: str
    player_a: str
    player_b: str
    number: int
    first: str
    second: str
    moves: List[str]
    times_ms: List[float]
    winner: str
    reason: str
    opening_moves: List[str] = field(default_factory=list)
    detail: Optional[str] = None
    search: List[Optional[Dict[str, Any]]] = field(default_factory=list)
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, text: str) -> "Game":
        """A game from one line of a record."""
        data = json.loads(text)
        names = cls.__dataclass_fields__
        known = {k: v for k, v in data.items() if k in names and k != "raw"}
        return cls(raw=data, **known)

    @property
    def winner_spec(self) -> Optional[str]:
        """The winning player's spec, `None` for a draw."""
        if self.winner == "first":
            return self.first
        if self.winner == "second":
            return self.second
        return None

    def score_of(self, spec: str) -> float:
        """The points `spec` took from this game: 1, 0.5 or 0."""
        if spec not in (self.first, self.second):
            raise ValueError(f"{spec!r} did not play this game ({self.first} vs {self.second})")
        won = self.winner_spec
        if won is None:
            return 0.5
        return 1.0 if won == spec else 0.0

    @property
    def slowest_ms(self) -> float:
        """The slowest move of the game, in milliseconds."""
        return max(self.times_ms, default=0.0)


def read_records(path: Union[str, os.PathLike]) -> List[Game]:
    """The games of a record file, each replayed from its start and checked against its
    result (a record that contradicts its moves raises `QuasarError`, naming its line)."""
    return [Game.from_json(line) for line in _read_records(os.fspath(path))]


def records_dataframe(games: Union[str, os.PathLike, List[Game]]):
    """The games (or a record file's) as a pandas DataFrame, one row a game: players,
    winner, reason, plies, mean and slowest move time. Needs pandas."""
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("records_dataframe needs pandas: pip install pandas") from e
    if not isinstance(games, list):
        games = read_records(games)
    rows = []
    for g in games:
        rows.append(
            {
                "game": g.game,
                "params": g.params,
                "number": g.number,
                "first": g.first,
                "second": g.second,
                "winner": g.winner,
                "winner_spec": g.winner_spec,
                "reason": g.reason,
                "plies": len(g.moves),
                "mean_ms": sum(g.times_ms) / len(g.times_ms) if g.times_ms else 0.0,
                "slowest_ms": g.slowest_ms,
            }
        )
    return pd.DataFrame(rows)

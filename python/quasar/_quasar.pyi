"""Types of quasar's extension module (the classes `quasar` re-exports)."""

import os
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

__version__: str
TERMINAL: int

class QuasarError(ValueError):
    """Bad input: an illegal action, a position of another game or size, a bad spec or table."""

class Game:
    """A game and size: makes states and says how actions and observations are shaped."""

    @property
    def name(self) -> str: ...
    @property
    def params(self) -> str: ...
    def new_initial_state(self, position: Optional[str] = None) -> State: ...
    def num_distinct_actions(self) -> int: ...
    def observation_tensor_shape(self) -> Tuple[int, int, int]: ...
    def observation_planes(self) -> List[str]: ...
    def num_players(self) -> int: ...

class State:
    """A position of a game, with the actions played since it was made."""

    def current_player(self) -> int: ...
    def legal_actions(self) -> List[int]: ...
    def action_to_string(self, *args: int) -> str: ...
    def string_to_action(self, *args: Union[int, str]) -> int: ...
    def apply_action(self, action: int) -> None: ...
    def apply_move(self, text: str) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> List[float]: ...
    def winner(self) -> Optional[int]: ...
    def clone(self) -> State: ...
    def get_game(self) -> Game: ...
    def position(self) -> str: ...
    def history(self) -> List[int]: ...
    def move_number(self) -> int: ...
    def observation_tensor(self, player: Optional[int] = None) -> np.ndarray: ...
    def random_playouts(self, games: int, seed: int = 0) -> Dict[str, int]: ...
    def default_engine(self) -> str: ...

class SearchResult:
    """What a search found."""

    engine: str
    move: Optional[str]
    action: Optional[int]
    value: Optional[float]
    pv: List[str]
    proven: Optional[str]
    plies: Optional[int]
    nodes: int
    depth: Optional[int]
    score: Optional[str]
    seconds: float
    root: List[Tuple[str, int, int, float]]
    @property
    def visits(self) -> Dict[str, int]: ...

class ProbeResult:
    """What a table says of a position."""

    result: str
    plies: Optional[int]
    move: Optional[str]

class Table:
    """An endgame table or database, opened once per game and size."""

    def __init__(self, path: Union[str, os.PathLike], game: Optional[Game] = None) -> None: ...
    @staticmethod
    def open(path: Union[str, os.PathLike], game: Optional[Game] = None) -> Table: ...
    def probe(self, state: State) -> Optional[ProbeResult]: ...
    @property
    def path(self) -> str: ...

class SolveResult:
    """An exact solution: who wins with perfect play, in how many plies, and how."""

    winner: Optional[int]
    plies: Optional[int]
    line: List[str]
    nodes: int
    seconds: float
    proof: Optional[str]
    records: Optional[int]

def solve(
    state: State,
    proof: Optional[Union[str, os.PathLike]] = None,
    table: Optional[Union[str, os.PathLike]] = None,
    memory: int = 256,
) -> SolveResult: ...
def check_proof(path: Union[str, os.PathLike]) -> Dict[str, Union[str, int, None]]: ...
def load_game(name: str, **params: Union[int, str]) -> Game: ...
def registered_names() -> List[str]: ...
def search(
    state: State,
    engine: Optional[str] = None,
    time: Optional[float] = None,
    sims: Optional[int] = None,
    table: Optional[Union[str, os.PathLike]] = None,
    net: Optional[str] = None,
    seed: int = 0,
    threads: Optional[int] = None,
) -> SearchResult: ...
def _run_match(
    game: Game,
    players: Sequence[Union[str, Callable[[State], Union[int, str]]]],
    record: str,
    games: int = 2,
    time: Optional[float] = None,
    sims: Optional[int] = None,
    seed: int = 1,
    jobs: int = 1,
    openings: Optional[str] = None,
    opening_plies: int = 2,
    ply_cap: int = 1000,
    tolerance: float = 0.05,
) -> List[str]: ...
def _read_records(path: str) -> List[str]: ...

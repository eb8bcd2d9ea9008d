//! The Examples blocks of the help screens that have no longer text of their own (perft,
//! show, bench and solve keep theirs beside their options).

/// `quasar --help`.
pub const QUASAR: &str = "\
Games (--game): breakthrough (the default), woodpush, chinese-checkers, checkers.

Examples:
  quasar bestmove --board 6x6 --time 200ms           a move for the 6x6 start in 200 ms
  quasar play --game woodpush                        play Woodpush against the engine
  quasar tablebase build --board 5x5 --rows 3 -o t.qtb
  quasar arena --player mcts --player random --games 4 --sims 200
  quasar solve --board 4x4                           Black wins in 14 plies
  quasar COMMAND --help                              each command's options and examples";

/// `quasar bestmove --help`.
pub const BESTMOVE: &str = "\
Examples:
  quasar bestmove --board 6x6 --time 200ms
  quasar bestmove --board 6x6 --sims 5000 --seed 3 --moves   every root move's statistics
  quasar bestmove --board 5x5 --tb t.qtb --every 2           a table, probed in playouts
  quasar bestmove --game woodpush --width 9 --engine ab --time 1s
  quasar bestmove --game chinese-checkers --pieces-per-side 3 --json
  quasar bestmove --board 6x6 --engine ab --depth 6 --info    a line per depth
  quasar bestmove --board 6x6 --sims 5000 --multipv 3        the 3 most visited moves
  quasar bestmove --board 8x8 --infinite --info              until Ctrl-C";

/// `quasar play --help`.
pub const PLAY: &str = "\
Sides (--human): each game's own names, their first letter, or first and second:
breakthrough white/black, woodpush left/right, chinese-checkers x/o, checkers black/white.

Examples:
  quasar play                                        you play White on 6x6
  quasar play --board 6x6 --human black --time 500ms
  quasar play --game checkers --human white --stats
  echo 'moves' | quasar play --game woodpush         moves from a pipe";

/// `quasar gtp --help`.
pub const GTP: &str = "\
Examples:
  quasar gtp                                         6x6 Breakthrough, 1 s a move
  quasar gtp --board 6x6 --tb t.qtb --time 100ms
  printf 'boardsize 6\\ngenmove w\\nquit\\n' | quasar gtp
  (echo 'lz-analyze 50'; sleep 2; echo quit) | quasar gtp   info lines for 2 s";

/// `quasar tablebase --help`.
pub const TABLEBASE: &str = "\
Examples:
  quasar tablebase build --board 5x5 --rows 3 -o t.qtb
  quasar tablebase info t.qtb --json
  quasar tablebase probe t.qtb --position 'B4/5/2W2/5/5 w'
  quasar tablebase verify t.qtb --samples 50
  quasar tablebase build --game woodpush --width 9 -o w9.qrt";

/// `quasar tablebase build --help`.
pub const BUILD: &str = "\
Examples:
  quasar tablebase build --board 6x6 --rows 4        slices, into tb-6x6-r4.d/
  quasar tablebase build --board 6x6 --rows 4 --whole one B-tree file, tb-6x6-r4.qtb
  quasar tablebase build --board 8x8 --rows 4 -o tb-8x8-r4.d --wave 0 --shard 1/8
  quasar tablebase build --game woodpush --width 20 --max-pieces 5
  quasar tablebase build --game chinese-checkers --pieces-per-side 2 -o cc-k2.qrt
  quasar tablebase build --game checkers --max-pieces 5 -o checkers-p5";

/// `quasar tablebase plan --help`.
pub const PLAN: &str = "\
Examples:
  quasar tablebase plan --board 8x8 --rows 4          every slice after its wave
  quasar tablebase plan --board 8x8 --rows 4 --wave 3
  quasar tablebase plan --game checkers --max-pieces 6";

/// `quasar tablebase info --help`.
pub const INFO: &str = "\
Examples:
  quasar tablebase info tb-6x6-r4.d
  quasar tablebase info w9.qrt --json                 one JSON object
  quasar tablebase info checkers-p5                   a directory of checkers databases";

/// `quasar tablebase probe --help`.
pub const PROBE: &str = "\
The answer has one shape for every game: the side to move's result, 'in N plies' when the
length is exact or 'within N plies' when it is a bound, a best move and the table's detail.

Examples:
  quasar tablebase probe tb-6x6-r4.d --position '6/6/2W3/6/6/6 w'
  quasar tablebase probe w9.qrt --position 'L.L...R.R L' --json
  quasar tablebase probe checkers-p5 --position 'W:WK14,K19:BK1'";

/// `quasar tablebase verify --help`.
pub const VERIFY: &str = "\
Examples:
  quasar tablebase verify tb-6x6-r4.d --samples 200 --seed 7
  quasar tablebase verify tb-8x8-r4.d --write-index    a sliced table's block index
  quasar tablebase verify cc-k2.qrt";

/// `quasar tablebase compress --help`.
pub const COMPRESS: &str = "\
Examples:
  quasar tablebase compress checkers-p5 -o checkers-p5.runs
  quasar tablebase compress checkers-p6 -o checkers-p6.runs --block 16384 --quiet
  quasar tablebase compress --board 6x6 tb-6x6-r4.d -o tb-6x6-r4.runs
  quasar tablebase probe tb-6x6-r4.runs --position 'B5/6/2W3/6/6/6 w'";

/// `quasar arena --help`.
pub const ARENA: &str = "\
Examples:
  quasar arena                                       the main job of Breakthrough
  quasar arena --player mcts --player random --games 4 --sims 200
  quasar arena --player mcts:c=0.4 --player mcts:c=0.7 --games 100 --time 100ms
  quasar arena --game woodpush --player ab --player mcts --games 20
  quasar arena --player mcts --player 'gtp:./engine --gtp' --shard 2/8 --out results
  quasar arena report results/games-shard-*-of-8.jsonl --out results";

/// `quasar arena report --help`.
pub const REPORT: &str = "\
Examples:
  quasar arena report results/games-shard-*-of-8.jsonl --out results
  quasar arena report run1/games.jsonl run2/games.jsonl --out both";

/// `quasar replay --help`.
pub const REPLAY: &str = "\
Examples:
  quasar replay arena-results/games.jsonl --index 3
  quasar replay arena-results/games.pgn
  quasar play --out game.pgn && quasar replay game.pgn";

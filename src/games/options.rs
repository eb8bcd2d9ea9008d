//! The options of `tablebase build`, `tablebase compress` and `solve`: `--game` and each
//! game's own options (from the list of games) around the options every game shares
//! ([`quasar_cli`]'s), which the registrations read.

use super::{CompressGameArgs, GameName, TableArgs};
use quasar_cli::{BuildOptions, CompressOptions, SolveOptions};

/// Options of `tablebase build` (and `plan`): the shared ones, then each game's own.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Game of the table
    #[arg(long, value_enum, default_value_t = GameName::default())]
    pub game: GameName,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub shared: BuildOptions,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub games: TableArgs,
}

/// Options of `tablebase compress`.
#[derive(clap::Args)]
pub struct CompressArgs {
    /// Game of the databases [default: the directory's own]
    #[arg(long, value_enum)]
    pub game: Option<GameName>,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub games: CompressGameArgs,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub shared: CompressOptions,
}

/// Solve a position exactly, or check a proof file.
#[derive(clap::Args)]
#[command(after_help = SOLVE_HELP)]
pub struct SolveArgs {
    /// The game
    #[arg(long, value_enum, default_value_t = GameName::default())]
    pub game: GameName,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub shared: SolveOptions,
}

const SOLVE_HELP: &str = "\
Finds the winner by proof-number search (df-pn), then the exact length of the game under
perfect play (the winner hurries, the loser delays) by a bounded search asked for growing
lengths. Finished games, wins in one, unstoppable threats and the table's sound claims end
the search. The proof file holds the winner's move at every node (the loser's moves are
all implied), written to disk as it is found and sorted by a hash of the position with an
index; --check replays it with the rules alone (records in parallel, --threads) and
re-derives every table claim by plain search. It proves the winner and the upper bound on
the length. In Woodpush, Chinese Checkers and checkers a draw's proof holds each side's
moves that keep the other from winning, and --check verifies that they answer every move.
Every game takes --within, --list-children, --shard with --out, and --merge.

Examples:
  quasar solve --board 4x4                          Black wins, 14 plies
  quasar solve --board 5x5 --out 5x5.proof          Black wins, 26 plies
  quasar solve --check 5x5.proof --threads 2
  quasar solve --check 5x6.proof --shard 3/8        one of 8 jobs, each checking an eighth
  quasar solve --board 5x6 --checkpoint C --out P3 --shard 3/8
                                                    one of 8 jobs writing the proof (each
                                                    from a copy of one solve's checkpoint)
  quasar solve --merge P1 P2 P3 ... --out 5x6.proof     the pieces into one proof
  quasar solve --board 5x5 --no-tb                  without any table
  quasar solve --board 5x5 --within 25              one bound: Black wins within 25 plies? no
  quasar solve --board 5x6 --list-children          a line per root move (MOVE<TAB>FEN),
                                                    to solve each child by its own job
  nice -n 19 quasar solve --board 6x5 --memory 4096 --checkpoint 6x5.ckpt --out 6x5.proof
                                                    a long solve that resumes when run again
  quasar solve --game checkers --position 'B:W18,K30:B14,K1' --tb ck2 --out ck.proof
                                                    over checkers' databases of 2 pieces
  quasar solve --game checkers --check ck.proof --tb ck2   with the same databases
  quasar solve --game woodpush --width 9 --out w9.proof     a draw, with its proof
  quasar solve --game woodpush --width 9 --out w9.2 --shard 2/3
                                                    one of 3 jobs writing the draw's proof
  quasar solve --game woodpush --merge w9.1 w9.2 w9.3 --out w9.proof
  quasar solve --game woodpush --width 7 --list-children    a line per move and its value
  quasar solve --board 6x5 --winner-only --out 6x5.proof    the winner and a proof of a
                                                    bound on the length, not the exact one
  quasar solve --tree t65 init --board 6x5 --job-nodes 5000000
                                                    a job-level proof search in folder t65:
  quasar solve --tree t65 next --jobs 4             the next jobs, to t65/jobs.txt,
  parallel -j 2 < t65/jobs.txt                      run by GNU parallel or a Slurm array,
  quasar solve --tree t65 feed                      their answers read back (then next ...)
  quasar solve --tree t65 proof --out 6x5.proof     once settled, the merged proof

SIGTERM or Ctrl-C (SIGINT) stops a solve within a second: with --checkpoint it saves the
checkpoint at once and exits with status 75 (run the same command to resume); without, it
exits with 128 + the signal's number (130, 143) and says that nothing was saved. A second
signal during the save ends it at once (the previous checkpoint stays intact).";

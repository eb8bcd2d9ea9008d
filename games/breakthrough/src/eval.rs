//! Breakthrough's evaluation for searches that stop early: material and advancement as in
//! Schadd's evaluation ("10 a piece, 2.5 a row", called efMS by Lanctot et al.), piece
//! safety, pieces kept on the home row, and the sound verdicts of pieces one step from
//! their goal row.

use crate::policy::{attacks, threats};
use crate::{Board, Move, Position};
use quasar_core::{Evaluation, GameResult, Side, Verdict};

/// A piece, in evaluation units; efMS values a row of advancement at a quarter of it.
pub const PIECE: i32 = 40;
/// One row of advancement.
pub const ROW: i32 = 10;
/// An attacked piece that no own piece defends (half a piece: it may be lost).
pub const HANGING: i32 = PIECE / 2;
/// A defended piece in the opponent's half (a tenth of a piece: a supported attacker).
pub const SUPPORTED: i32 = PIECE / 10;
/// A piece still on its own home row, in MCTS's evaluation (half a piece): the last line
/// against a runner. Without it the advancement term rewards every step forward alike,
/// and MCTS, whose playouts do not see the gaps that a deep search sees, empties its
/// home row twice as fast as alpha-beta does. A piece in a corner of the home row counts
/// half: it guards one cell ahead where the others guard two. Alpha-beta's evaluation
/// keeps the reference terms (efMS and piece safety) without it.
pub const HOME: i32 = PIECE / 2;

/// The masks one board's evaluation needs, computed once per board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakthroughEval {
    board: Board,
    rows: Rows,
    /// Per side and cell: the triangle ahead up to the goal row (rows `1..=d` ahead, at
    /// most as many columns aside as rows ahead), where an opponent piece could stop a
    /// runner.
    cone: [[u64; 64]; 2],
    /// The weight of a piece on its home row (0 in alpha-beta's evaluation, [`HOME`] in
    /// MCTS's).
    home: i32,
}

/// The row masks of one board that the score of a side's pieces reads: few enough to
/// compute at each playout's end as well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rows {
    height: u32,
    /// `row_bits[k]`: the cells whose 0-based row has bit `k` set, so that the sum of the
    /// rows of a set of pieces is `sum_k 2^k * popcount(pieces & row_bits[k])`.
    row_bits: [u64; 5],
    /// The cells of the opponent's half, per side (rows beyond the middle).
    far_half: [u64; 2],
    /// The home row, per side.
    home_row: [u64; 2],
    /// The home row's two corners, per side.
    home_corners: [u64; 2],
}

impl Rows {
    /// The masks of `board`.
    #[inline]
    fn new(board: Board) -> Rows {
        let h = board.height();
        let mut row_bits = [0u64; 5];
        let mut far_half = [0u64; 2];
        for row in 0..h {
            let mask = board.row_mask(row);
            for (k, bits) in row_bits.iter_mut().enumerate() {
                if row & (1 << k) != 0 {
                    *bits |= mask;
                }
            }
            // White's far half is the rows above the middle, Black's those below it.
            if 2 * row >= h {
                far_half[Side::First.index()] |= mask;
            }
            if 2 * (row + 1) <= h {
                far_half[Side::Second.index()] |= mask;
            }
        }
        let home_row = [board.row_mask(0), board.row_mask(h - 1)];
        let edges = board.cells() & !(board.not_first_col() & board.not_last_col());
        Rows {
            height: h,
            row_bits,
            far_half,
            home_row,
            home_corners: home_row.map(|r| r & edges),
        }
    }

    /// The sum of the 0-based rows of `pieces`.
    #[inline]
    fn row_sum(&self, pieces: u64) -> i32 {
        let mut sum = 0;
        for (k, bits) in self.row_bits.iter().enumerate() {
            sum += ((pieces & bits).count_ones() as i32) << k;
        }
        sum
    }

    /// The score of `side`'s pieces alone: material, advancement, safety and `home` a
    /// piece on its home row (half of it in a corner), given the cells `side` attacks
    /// (`defended`) and those its opponent attacks.
    #[inline]
    fn side_score(
        &self,
        pos: &Position,
        side: Side,
        home: i32,
        defended: u64,
        attacked: u64,
    ) -> i32 {
        let own = pos.pieces(side);
        let n = own.count_ones() as i32;
        let rows = self.row_sum(own);
        let advance = match side {
            Side::First => rows,
            Side::Second => (self.height as i32 - 1) * n - rows,
        };
        let hanging = (own & attacked & !defended).count_ones() as i32;
        let supported = (own & defended & self.far_half[side.index()]).count_ones() as i32;
        let on_home_row = (own & self.home_row[side.index()]).count_ones() as i32;
        let in_corners = (own & self.home_corners[side.index()]).count_ones() as i32;
        PIECE * n + ROW * advance - HANGING * hanging + SUPPORTED * supported + home * on_home_row
            - home / 2 * in_corners
    }

    /// The score of the side to move's pieces less its opponent's.
    #[inline]
    fn balance(&self, pos: &Position, home: i32) -> i32 {
        let me = pos.side();
        let opp = me.opponent();
        // Each side's attacks serve both scores.
        let (mine, theirs) = (attacks(pos, me), attacks(pos, opp));
        self.side_score(pos, me, home, mine, theirs) - self.side_score(pos, opp, home, theirs, mine)
    }
}

impl BreakthroughEval {
    /// Alpha-beta's evaluation of positions on `board`: material, advancement and safety.
    pub fn new(board: Board) -> BreakthroughEval {
        Self::with_home(board, 0)
    }

    /// MCTS's evaluation of positions on `board`: alpha-beta's, and [`HOME`] a piece on its
    /// own home row.
    pub fn for_mcts(board: Board) -> BreakthroughEval {
        Self::with_home(board, HOME)
    }

    /// The evaluation with `home` a piece on its own home row.
    pub fn with_home(board: Board, home: i32) -> BreakthroughEval {
        let h = board.height();
        let (w, nfc, nlc) = (board.width(), board.not_first_col(), board.not_last_col());
        let mut cone = [[0u64; 64]; 2];
        for side in [Side::First, Side::Second] {
            for sq in 0..board.num_cells() {
                let d = rows_to_goal(side, h, sq / w);
                let mut front = 1u64 << sq;
                for _ in 0..d {
                    front = match side {
                        Side::First => {
                            (front << w) | ((front & nfc) << (w - 1)) | ((front & nlc) << (w + 1))
                        }
                        Side::Second => {
                            (front >> w) | ((front & nfc) >> (w + 1)) | ((front & nlc) >> (w - 1))
                        }
                    };
                    cone[side.index()][sq as usize] |= front;
                }
            }
        }
        BreakthroughEval {
            board,
            rows: Rows::new(board),
            cone,
            home,
        }
    }

    /// The board this evaluation is for.
    pub fn board(&self) -> Board {
        self.board
    }
}

/// [`BreakthroughEval::with_home`]'s evaluation for the side to move without its cones
/// (which only its verdicts read), for playouts that end by the evaluation's sign.
#[inline]
pub fn safety_balance(pos: &Position, home: i32) -> i32 {
    Rows::new(pos.board()).balance(pos, home)
}

impl Evaluation<Position> for BreakthroughEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        debug_assert_eq!(pos.board(), self.board, "an evaluation is for one board");
        self.rows.balance(pos, self.home)
    }

    fn scale(&self) -> f64 {
        PIECE as f64
    }

    #[inline]
    fn is_tactical(&self, pos: &Position, mv: Move) -> bool {
        pos.is_capture(mv)
    }

    /// A piece one step from its goal wins next ply; the opponent's such pieces lose the
    /// game in two plies unless one capture removes them all. Only captures of the
    /// opponent's pieces stop them: no piece can move back onto its own home row to block.
    #[inline]
    fn verdict(&self, pos: &Position) -> Option<Verdict> {
        let me = pos.side();
        let opp = me.opponent();
        let theirs = pos.pieces(opp);
        // The captures' target cells: the opponent's pieces on cells the mover attacks.
        let caps = attacks(pos, me) & theirs;
        if threats(pos, me) != 0 || (theirs.count_ones() == 1 && caps != 0) {
            return Some(Verdict::WIN_IN_ONE);
        }
        let danger = threats(pos, opp);
        if danger != 0 && (danger.count_ones() > 1 || caps & danger == 0) {
            return Some(Verdict {
                result: GameResult::Loss,
                plies: 2,
            });
        }
        None
    }

    #[inline]
    fn forced_moves(&self, pos: &Position, moves: &mut Vec<Move>) -> bool {
        let me = pos.side();
        let danger = threats(pos, me.opponent());
        // With a win of its own at hand the side to move is not forced to defend.
        if danger == 0 || threats(pos, me) != 0 || pos.pieces(me.opponent()).count_ones() == 1 {
            return false;
        }
        pos.generate_moves(moves);
        moves.retain(|m| danger & (1u64 << m.to) != 0);
        if moves.is_empty() {
            // No capture answers the threat: every move loses alike, so all are searched.
            pos.generate_moves(moves);
        }
        true
    }

    /// The verdicts, and else a win by a runner (see [`BreakthroughEval::runner`]).
    #[inline]
    fn deep_verdict(&self, pos: &Position) -> Option<Verdict> {
        self.verdict(pos).or_else(|| {
            self.runner(pos).map(|d| Verdict {
                result: GameResult::Win,
                plies: 2 * d - 1,
            })
        })
    }

    fn name(&self) -> &'static str {
        if self.home == 0 {
            "efms+safety"
        } else {
            "efms+safety+home"
        }
    }
}

impl BreakthroughEval {
    /// The fewest moves of the side to move's unstoppable runner, if it has one: a piece
    /// `d >= 2` rows from its goal whose column ahead is empty, with no opponent piece in
    /// the triangle ahead of it (rows `1..=d` ahead, at most as many columns aside as rows
    /// ahead), while every opponent piece needs at least `d` moves to its own goal. Going
    /// straight, it reaches its goal on its `d`-th move (ply `2d - 1`): an opponent piece
    /// that could capture it or step in front of it in time lies in that triangle, and
    /// the opponent's `d - 1` moves meanwhile reach no goal.
    pub fn runner(&self, pos: &Position) -> Option<u32> {
        let b = self.board;
        let (w, h) = (b.width(), b.height());
        let me = pos.side();
        let theirs = pos.pieces(me.opponent());
        if theirs == 0 {
            return None;
        }
        let all = pos.white() | pos.black();
        // Moves the opponent's most advanced piece needs; a runner must need no more.
        let reach = match me {
            Side::First => theirs.trailing_zeros() / w,
            Side::Second => h - 1 - (63 - theirs.leading_zeros()) / w,
        };
        let cone = &self.cone[me.index()];
        // The cells with no piece straight ahead (a log-step fill of the pieces backwards
        // over their columns), and of those the rows `2..=reach` from the goal.
        let back = |x: u64, k: u32| match (me, k < 64) {
            (_, false) => 0,
            (Side::First, true) => x >> k,
            (Side::Second, true) => x << k,
        };
        let mut blocked = back(all, w);
        let mut k = w;
        while k < h * w {
            blocked |= back(blocked, k);
            k *= 2;
        }
        let near = match me {
            Side::First => b.cells() & !low_rows(h - 1 - reach, w) & low_rows(h - 2, w),
            Side::Second => low_rows(reach + 1, w) & !low_rows(2, w),
        };
        let mut candidates = pos.pieces(me) & near & !blocked;
        // Nearest the goal first: the first runner found is the fastest.
        while candidates != 0 {
            let sq = match me {
                Side::First => 63 - candidates.leading_zeros(),
                Side::Second => candidates.trailing_zeros(),
            };
            candidates &= !(1u64 << sq);
            if cone[sq as usize] & theirs == 0 {
                return Some(rows_to_goal(me, h, sq / w));
            }
        }
        None
    }
}

/// The rows between `row` and `side`'s goal row on a board `h` high.
#[inline]
fn rows_to_goal(side: Side, h: u32, row: u32) -> u32 {
    match side {
        Side::First => h - 1 - row,
        Side::Second => row,
    }
}

/// The cells of the lowest `rows` rows of a board `w` wide.
#[inline]
fn low_rows(rows: u32, w: u32) -> u64 {
    match rows * w {
        0 => 0,
        n if n >= 64 => u64::MAX,
        n => (1u64 << n) - 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quasar_core::Game;

    fn eval(fen: &str) -> i32 {
        let p = Position::from_fen(fen).unwrap();
        BreakthroughEval::new(p.board()).evaluate(&p)
    }

    /// The score written out cell by cell, as the documentation states it, with `home` a
    /// piece on its home row.
    fn by_hand(pos: &Position, home: i32) -> i32 {
        let b = pos.board();
        let score = |side: Side| {
            let own = pos.pieces(side);
            let defended = attacks(pos, side);
            let attacked = attacks(pos, side.opponent());
            let mut s = 0;
            for sq in 0..b.num_cells() as u8 {
                let bit = 1u64 << sq;
                if own & bit == 0 {
                    continue;
                }
                let row = b.row(sq) as i32;
                let adv = match side {
                    Side::First => row,
                    Side::Second => b.height() as i32 - 1 - row,
                };
                s += PIECE + ROW * adv;
                if attacked & bit != 0 && defended & bit == 0 {
                    s -= HANGING;
                }
                let far = match side {
                    Side::First => 2 * row >= b.height() as i32,
                    Side::Second => 2 * (row + 1) <= b.height() as i32,
                };
                if defended & bit != 0 && far {
                    s += SUPPORTED;
                }
                if adv == 0 {
                    // Half the weight in a corner.
                    let col = sq as u32 % b.width();
                    s += if col == 0 || col == b.width() - 1 {
                        home - home / 2
                    } else {
                        home
                    };
                }
            }
            s
        };
        score(pos.side()) - score(pos.side().opponent())
    }

    #[test]
    fn the_start_is_level_and_the_value_matches_the_definition() {
        for board in ["6x6", "8x8", "5x7", "7x5", "3x4"] {
            let b: Board = board.parse().unwrap();
            assert_eq!(eval(&Position::start(b).to_fen()), 0, "{board}");
        }
        // Positions along a seeded random game on several boards.
        let mut rng = quasar_core::SplitMix64::new(11);
        let mut moves = Vec::new();
        for board in ["6x6", "8x8", "5x7", "9x4"] {
            let b: Board = board.parse().unwrap();
            let e = BreakthroughEval::new(b);
            let m = BreakthroughEval::for_mcts(b);
            for _game in 0..20 {
                let mut p = Position::start(b);
                while p.outcome().is_none() {
                    assert_eq!(e.evaluate(&p), by_hand(&p, 0), "{p}");
                    assert_eq!(m.evaluate(&p), by_hand(&p, HOME), "{p}");
                    let safety = |home| safety_balance(&p, home);
                    assert_eq!(safety(0), by_hand(&p, 0), "{p}");
                    assert_eq!(safety(HOME), by_hand(&p, HOME), "{p}");
                    p.legal_moves(&mut moves);
                    let k = rng.below(moves.len());
                    p.play(moves[k]);
                }
            }
        }
    }

    #[test]
    fn colour_flipped_positions_score_the_same_for_their_movers() {
        let a = eval("6/6/2B3/1W4/6/6 w");
        let b = eval("6/6/4B1/3W2/6/6 b");
        assert_eq!(a, b);
    }

    /// True when the side to move can force a win within `plies` plies, by the rules alone.
    fn wins_within(pos: &Position, plies: u32, moves: &mut Vec<Vec<Move>>, ply: usize) -> bool {
        if plies == 0 {
            return false;
        }
        let mut mine = std::mem::take(&mut moves[ply]);
        pos.generate_moves(&mut mine);
        let won = mine.iter().any(|&mv| {
            let mut child = *pos;
            child.play(mv);
            if child.outcome().is_some() {
                return true;
            }
            if plies < 3 {
                return false;
            }
            let mut replies = std::mem::take(&mut moves[ply + 1]);
            child.generate_moves(&mut replies);
            let all = replies.iter().all(|&r| {
                let mut next = child;
                next.play(r);
                next.outcome().is_none() && wins_within(&next, plies - 2, moves, ply + 2)
            });
            moves[ply + 1] = replies;
            all
        });
        moves[ply] = mine;
        won
    }

    #[test]
    fn a_runner_wins_within_its_plies_by_brute_force() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut moves = vec![Vec::new(); 12];
        let mut found = [0u32; 4];
        for &(w, h) in &[(5, 5), (4, 6), (6, 5), (3, 7)] {
            let board = Board::new(w, h).unwrap();
            let e = BreakthroughEval::new(board);
            let cells = board.num_cells();
            let mut tried = 0;
            while tried < 3000 {
                // A few pieces a side, none on its own goal row.
                let (mut white, mut black) = (0u64, 0u64);
                for _ in 0..rng.random_range(1..=4) {
                    white |= 1u64 << rng.random_range(0..cells - w);
                }
                for _ in 0..rng.random_range(1..=4) {
                    black |= 1u64 << rng.random_range(w..cells);
                }
                let side = if rng.random_bool(0.5) {
                    Side::First
                } else {
                    Side::Second
                };
                let Ok(pos) = Position::from_parts(board, white, black & !white, side) else {
                    continue;
                };
                if pos.outcome().is_some() || e.verdict(&pos).is_some() {
                    continue;
                }
                tried += 1;
                let Some(d) = e.runner(&pos) else {
                    continue;
                };
                if d > 3 {
                    continue;
                }
                found[d as usize] += 1;
                assert!(
                    wins_within(&pos, 2 * d - 1, &mut moves, 0),
                    "{}: a runner of {d} moves, but no forced win within {} plies",
                    pos.to_fen(),
                    2 * d - 1
                );
                assert_eq!(
                    e.deep_verdict(&pos),
                    Some(Verdict {
                        result: GameResult::Win,
                        plies: 2 * d - 1
                    })
                );
            }
        }
        assert!(found[2] > 50 && found[3] > 50, "runners found: {found:?}");
        let p = |fen: &str| {
            let p = Position::from_fen(fen).unwrap();
            BreakthroughEval::new(p.board()).runner(&p)
        };
        // White's c3 and Black's c3 run two moves; the opponent's piece beside them is out
        // of reach.
        assert_eq!(p("5/B4/2W2/5/5 w"), Some(2));
        assert_eq!(p("5/5/2B2/W4/5 b"), Some(2));
        // Black's b4 captures on c3.
        assert_eq!(p("5/1B3/5/2W2/5 w"), None);
        // Black's a3 is two moves from its goal, White's c2 three.
        assert_eq!(p("5/5/B4/2W2/5 w"), None);
    }

    #[test]
    fn verdicts_follow_the_rules() {
        let p = |fen: &str| {
            let p = Position::from_fen(fen).unwrap();
            BreakthroughEval::new(p.board()).verdict(&p)
        };
        let win = Some(Verdict::WIN_IN_ONE);
        let loss = Some(Verdict {
            result: GameResult::Loss,
            plies: 2,
        });
        // White on row 5 of 6 steps onto row 6.
        assert_eq!(p("6/3W2/6/6/1B4/6 w"), win);
        // Black to move: White's row-5 piece wins next move and no Black piece attacks it.
        assert_eq!(p("B5/3W2/6/6/6/6 b"), loss);
        // Black's e6 piece can capture it: no verdict, and the capture is the one move.
        let pos = Position::from_fen("4B1/3W2/6/B5/6/5W b").unwrap();
        let e = BreakthroughEval::new(pos.board());
        assert_eq!(e.verdict(&pos), None);
        let mut moves = Vec::new();
        assert!(e.forced_moves(&pos, &mut moves));
        assert_eq!(
            moves.iter().map(|&m| pos.move_text(m)).collect::<Vec<_>>(),
            ["e6xd5"]
        );
        // Capturing the last opponent piece wins.
        assert_eq!(p("6/6/6/2B3/1W4/6 w"), win);
        // Nothing near a goal: no verdict, no forced move.
        let quiet = Position::from_fen("6/2B3/6/6/2W3/6 w").unwrap();
        assert_eq!(e.verdict(&quiet), None);
        assert!(!e.forced_moves(&quiet, &mut moves));
    }
}

//! The move to play in a position the databases know, under the draw rules of play.
//!
//! Win/draw/loss values alone give no direction: every winning move looks alike, and a
//! player that takes the first one shuffles its kings until the repetition or 40-move rule
//! draws the game (82 of 99 games that reached a database win did, before this module).
//! So a won position converts: a capture or promotion that keeps the win, else the winning
//! move with the shortest forced way to one (a bounded search in the slice), else the
//! winning move that makes most progress. A lost position resists: the losing move that
//! gives the opponent the most replies that throw the win away. A drawn one sets traps the
//! same way. A distance to conversion, where the databases keep one ([`Distance`]), ranks
//! winning and losing moves exactly instead.

use crate::board::{Board, Move};
use crate::db::{Database, Wdl};
use crate::play::Checkers;
use crate::position::Position;
use crate::slice::Slice;
use quasar_core::{Game, GameResult, Outcome, Side};
use std::collections::HashMap;

/// Plies for the side to move to leave a position's slice with the value the databases
/// give it (a win converted, a loss delayed), where a distance file knows them.
pub trait Distance: Send + Sync {
    /// The plies to leave `pos`'s slice, when known.
    fn distance(&self, pos: &Position) -> Option<u32>;
}

/// The distance files loaded into the databases (`Database::load_distances`); a slice
/// without one answers `None`, and the move is then chosen as without distances.
impl Distance for Database {
    fn distance(&self, pos: &Position) -> Option<u32> {
        Database::distance(self, &pos.board, pos.side).map(u32::from)
    }
}

/// The most plies the conversion search looks ahead.
const SEARCH_PLIES: u32 = 15;
/// The most positions the conversion search visits for one move (a few tens of ms).
const SEARCH_NODES: u64 = 200_000;

/// A move's value for the side that makes it, under the rules of play: the game's end, a
/// draw by a rule of play, else the databases' value; `None` where no database knows it.
fn value_after(db: &Database, g: &Checkers, mv: Move, me: Side) -> Option<(Wdl, Checkers)> {
    let mut c = g.clone();
    c.play(mv);
    let v = match c.outcome() {
        Some(Outcome::Win(w)) if w == me => Wdl::Win,
        Some(Outcome::Win(_)) => Wdl::Loss,
        Some(Outcome::Draw) => Wdl::Draw,
        None => flip(db.probe_position(&c.pos)?),
    };
    Some((v, c))
}

/// The value for the other side.
fn flip(w: Wdl) -> Wdl {
    match w {
        Wdl::Win => Wdl::Loss,
        Wdl::Loss => Wdl::Win,
        Wdl::Draw => Wdl::Draw,
    }
}

/// Orders values from the mover's view: win first.
fn rank(w: Wdl) -> u8 {
    match w {
        Wdl::Win => 0,
        Wdl::Draw => 1,
        Wdl::Loss => 2,
    }
}

/// The value of `g` for its side to move under the rules of play and the move to play, when
/// the databases know `g` and every move from it; `None` otherwise (the search decides).
pub fn choose(
    db: &Database,
    distance: Option<&dyn Distance>,
    g: &Checkers,
) -> Option<(GameResult, Move)> {
    if g.outcome().is_some() {
        return None;
    }
    db.probe_position(&g.pos)?;
    let me = g.side_to_move();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut children = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let (v, c) = value_after(db, g, mv, me)?;
        children.push((mv, v, c));
    }
    // The best value reachable under the rules of play (a repetition may cost a win).
    let best = children
        .iter()
        .map(|&(_, v, _)| v)
        .min_by_key(|&v| rank(v))?;
    children.retain(|&(_, v, _)| v == best);
    let mv = match best {
        Wdl::Win => convert(db, distance, g, &children),
        Wdl::Draw => trap(db, &children),
        Wdl::Loss => resist(db, distance, Slice::of(&g.pos.board), &children),
    };
    Some((best.result(), mv))
}

/// Whether `c` (reached by a move of `me`) left the slice of `from` or ended the game.
fn converts(from: Slice, c: &Checkers) -> bool {
    Slice::of(&c.pos.board) != from || c.outcome().is_some()
}

/// Among winning moves (`children`, non-empty): the fastest conversion.
fn convert(
    db: &Database,
    distance: Option<&dyn Distance>,
    g: &Checkers,
    children: &[(Move, Wdl, Checkers)],
) -> Move {
    let from = Slice::of(&g.pos.board);
    // A win on the board, then a capture (the more pieces the better), then a promotion.
    if let Some((mv, _, _)) = children
        .iter()
        .filter(|(_, _, c)| converts(from, c))
        .max_by_key(|(mv, _, c)| (c.outcome().is_some(), mv.jumps))
    {
        return *mv;
    }
    if let Some(d) = distance {
        if let Some((mv, _, _)) = children
            .iter()
            .filter_map(|(mv, v, c)| d.distance(&c.pos).map(|n| (*mv, *v, n)))
            .min_by_key(|&(_, _, n)| n)
        {
            return mv;
        }
    }
    let mut search = Conversion::new(db, from);
    for plies in 2..=SEARCH_PLIES {
        if let Some(k) = children
            .iter()
            .position(|(_, _, c)| search.defender(&c.pos, plies - 1))
        {
            return children[k].0;
        }
        if search.nodes >= SEARCH_NODES {
            break;
        }
    }
    // No forced conversion in sight: the move that makes most progress.
    children
        .iter()
        .min_by_key(|(_, _, c)| progress(&c.pos.board, g.side_to_move(), c.repetitions()))
        .expect("winning moves exist")
        .0
}

/// What a winning side wants to make smaller, in order: repetitions of the position (a
/// third one draws), men left to advance (a man's move restarts the 40-move count and
/// heads for a king), the opponent's mobility, and the distance from the winner's kings to
/// the opponent's pieces.
fn progress(b: &Board, me: Side, repetitions: usize) -> (usize, u32, u32, u32) {
    let mine = b.pieces(me);
    let theirs = b.pieces(me.opponent());
    let men = mine & !b.kings;
    // Rows a man still has to go: Black's men move down the board (to higher squares).
    let to_go: u32 = bits(men)
        .map(|s| {
            let row = s / 4;
            if me == Side::First {
                7 - row
            } else {
                row
            }
        })
        .sum();
    let mut buf = Vec::new();
    b.moves(me.opponent(), &mut buf);
    let mobility = buf.len() as u32;
    let near: u32 = bits(mine & b.kings)
        .map(|k| bits(theirs).map(|t| gap(k, t)).min().unwrap_or(0))
        .sum();
    (repetitions, to_go, mobility, near)
}

/// The squares of a bit set.
fn bits(mut set: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = set.trailing_zeros();
            set &= set - 1;
            s
        })
    })
}

/// King steps between two squares, ignoring the pieces (the larger of the row and
/// column distances).
fn gap(a: u32, b: u32) -> u32 {
    let (ra, ca) = crate::board::row_col(a as u8);
    let (rb, cb) = crate::board::row_col(b as u8);
    (ra - rb).unsigned_abs().max((ca - cb).unsigned_abs())
}

/// Among drawing moves: the one whose replies most often lose for the opponent.
fn trap(db: &Database, children: &[(Move, Wdl, Checkers)]) -> Move {
    best_by_replies(db, children, |v| v == Wdl::Win)
}

/// Among losing moves: the longest resistance by distance (a move that leaves the slice
/// resists no further, as the distances count), else the one that leaves the opponent the
/// most replies that do not win.
fn resist(
    db: &Database,
    distance: Option<&dyn Distance>,
    from: Slice,
    children: &[(Move, Wdl, Checkers)],
) -> Move {
    if let Some(d) = distance {
        let plies = |c: &Checkers| {
            if converts(from, c) {
                Some(0)
            } else {
                d.distance(&c.pos).map(|n| n + 1)
            }
        };
        let known: Option<Vec<(Move, u32)>> = children
            .iter()
            .map(|(mv, _, c)| plies(c).map(|n| (*mv, n)))
            .collect();
        if let Some((mv, _)) = known.and_then(|k| k.into_iter().rev().max_by_key(|&(_, n)| n)) {
            return mv;
        }
    }
    best_by_replies(db, children, |v| v != Wdl::Loss)
}

/// The move whose position leaves the opponent the largest share of replies after which
/// `good` holds of the value for `me`; ties: the fewest opponent captures, then the first.
fn best_by_replies(
    db: &Database,
    children: &[(Move, Wdl, Checkers)],
    good: impl Fn(Wdl) -> bool,
) -> Move {
    let mut replies = Vec::new();
    let score = |c: &Checkers, replies: &mut Vec<Move>| {
        c.legal_moves(replies);
        if replies.is_empty() {
            return (0, 0);
        }
        let them = c.side_to_move();
        let hits = replies
            .iter()
            .filter(|&&r| value_after(db, c, r, them).is_some_and(|(v, _)| good(flip(v))))
            .count();
        let captures = u32::from(replies[0].is_capture());
        // Shares compared as fractions over a common scale.
        ((hits * 1024 / replies.len()) as u32, captures)
    };
    let mut best = (children[0].0, (0, 0));
    for (k, (mv, _, c)) in children.iter().enumerate() {
        let (share, captures) = score(c, &mut replies);
        // More good replies first, then fewer captures for the opponent.
        let key = (share, u32::MAX - captures);
        if k == 0 || key > best.1 {
            best = (*mv, key);
        }
    }
    best.0
}

/// A bounded search for a forced conversion inside one slice: the winner plays only moves
/// the databases call winning, the loser any move; a capture, a promotion or the game's
/// end converts. Positions known to fail at a depth are remembered.
struct Conversion<'a> {
    db: &'a Database,
    slice: Slice,
    /// Winner-to-move positions with the deepest search that failed there.
    failed: HashMap<Position, u32>,
    moves: Vec<Vec<Move>>,
    nodes: u64,
}

impl<'a> Conversion<'a> {
    fn new(db: &'a Database, slice: Slice) -> Self {
        Conversion {
            db,
            slice,
            failed: HashMap::new(),
            moves: Vec::new(),
            nodes: 0,
        }
    }

    /// A move buffer for recursion depth `depth`.
    fn buffer(&mut self, depth: u32) -> Vec<Move> {
        let d = depth as usize;
        if self.moves.len() <= d {
            self.moves.resize_with(d + 1, Vec::new);
        }
        std::mem::take(&mut self.moves[d])
    }

    /// Whether every reply of the loser (to move at `pos`, in the slice) converts or leads
    /// to a position where the winner forces a conversion: `plies` counts this reply.
    fn defender(&mut self, pos: &Position, plies: u32) -> bool {
        self.nodes += 1;
        let mut buf = self.buffer(plies);
        pos.board.moves(pos.side, &mut buf);
        let mut ok = true;
        for &r in &buf {
            let c = pos.after(r);
            if Slice::of(&c.board) != self.slice {
                // The loser captured or crowned: every move of a lost position loses, so
                // the winner left the slice winning.
                continue;
            }
            if plies < 2 || self.nodes >= SEARCH_NODES || !self.attacker(&c, plies - 1) {
                ok = false;
                break;
            }
        }
        self.moves[plies as usize] = buf;
        ok
    }

    /// Whether the winner (to move at `pos`) has a winning move that converts, at once or
    /// by force within `plies` plies (this move counted).
    fn attacker(&mut self, pos: &Position, plies: u32) -> bool {
        if self.failed.get(pos).is_some_and(|&d| d >= plies) {
            return false;
        }
        self.nodes += 1;
        let mut buf = self.buffer(plies);
        pos.board.moves(pos.side, &mut buf);
        let mut found = false;
        for &m in &buf {
            let c = pos.after(m);
            if self.db.probe_position(&c) != Some(Wdl::Loss) {
                continue;
            }
            if Slice::of(&c.board) != self.slice || !c.board.has_move(c.side) {
                found = true;
                break;
            }
            if plies >= 3 && self.nodes < SEARCH_NODES && self.defender(&c, plies - 1) {
                found = true;
                break;
            }
        }
        self.moves[plies as usize] = buf;
        // A search cut by the node budget proves nothing.
        if !found && self.nodes < SEARCH_NODES {
            let e = self.failed.entry(*pos).or_insert(0);
            *e = (*e).max(plies);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::build_slice;
    use std::sync::Arc;

    /// Every slice of up to `pieces` pieces, built in memory.
    fn databases(pieces: u32) -> Database {
        let mut db = Database::new();
        for name in Slice::plan(pieces).waves().concat() {
            let s: Slice = name.parse().unwrap();
            let (t, _, _) = build_slice(s, &db, false);
            db.insert(Arc::new(t));
        }
        db
    }

    /// Plays `g` out with both sides choosing by [`choose`]; the outcome and the plies.
    fn play_out(db: &Database, mut g: Checkers) -> (Outcome, u32) {
        let mut plies = 0;
        loop {
            if let Some(o) = g.outcome() {
                return (o, plies);
            }
            let (_, mv) = choose(db, None, &g).expect("the databases know every position");
            g.play(mv);
            plies += 1;
        }
    }

    #[test]
    fn two_kings_beat_one_in_the_double_corner_within_the_draw_rules() {
        let db = databases(3);
        // White's lone king sits in its double corner (28/32); Black's kings stand far off.
        for fen in [
            "B:WK32:BK1,K2",
            "B:WK28:BK5,K9",
            "W:WK32:BK1,K6",
            "B:WK5:BK30,K31",
        ] {
            let g = Checkers::parse_position(fen).unwrap();
            assert_eq!(
                db.probe_position(&g.pos),
                Some(if g.side_to_move() == Side::First {
                    Wdl::Win
                } else {
                    Wdl::Loss
                }),
                "{fen}"
            );
            let (o, plies) = play_out(&db, g);
            assert_eq!(
                o,
                Outcome::Win(Side::First),
                "{fen} ended {o:?} after {plies} plies"
            );
        }
    }

    #[test]
    fn every_sampled_three_piece_win_is_converted() {
        let db = databases(3);
        let mut converted = 0;
        let mut longest = 0;
        // Every 173rd position of the slices with two pieces against one, either side to
        // move: the winner must win under the draw rules against a resisting defence.
        for name in ["b0k2-w0k1", "b1k1-w0k1", "b0k2-w1k0", "b2k0-w0k1"] {
            let s: Slice = name.parse().unwrap();
            let t = db.table(s).unwrap();
            for i in (0..t.index().size()).step_by(173) {
                let board = t.index().board(i);
                for side in [Side::First, Side::Second] {
                    if t.get(i, side) != Some(Wdl::Win) {
                        continue;
                    }
                    let g = Checkers::new(Position { board, side });
                    if g.outcome().is_some() {
                        continue;
                    }
                    let (o, plies) = play_out(&db, g.clone());
                    assert_eq!(o, Outcome::Win(side), "{} ended {o:?}", g.position_text());
                    converted += 1;
                    longest = longest.max(plies);
                }
            }
        }
        assert!(converted > 100, "{converted}");
        assert!(longest < 80, "{longest}");
    }

    #[test]
    fn a_lost_or_drawn_position_keeps_its_value_and_moves_legally() {
        let db = databases(3);
        // Black's lone king against two: lost; it must still move, and legally.
        let g = Checkers::parse_position("B:WK14,K15:BK1").unwrap();
        assert_eq!(db.probe_position(&g.pos), Some(Wdl::Loss));
        let (r, mv) = choose(&db, None, &g).unwrap();
        assert_eq!(r, GameResult::Loss);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert!(moves.contains(&mv));
        // One king each: drawn, and the move chosen keeps the draw.
        let g = Checkers::parse_position("B:WK14:BK1").unwrap();
        let (r, mv) = choose(&db, None, &g).unwrap();
        assert_eq!(r, GameResult::Draw);
        let mut c = g.clone();
        c.play(mv);
        assert_eq!(db.probe_position(&c.pos), Some(Wdl::Draw));
        // Outside the databases it knows nothing.
        assert_eq!(choose(&db, None, &Checkers::default()), None);
    }
}

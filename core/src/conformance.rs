//! The conformance suite every game runs: its [`Game`] implementation checked against an
//! independent second implementation of the rules (a [`Reference`]) and against the
//! contracts the searchers rely on.
//!
//! What it checks, on every position it visits:
//! - the position text: the reference writes the same text, and it reads back to an equal
//!   position with the same hash;
//! - the legal moves: the same set as the reference's (compared as move text), no
//!   duplicates, none once the game is over, and each move's text reads back to the move;
//! - the outcome agrees with the reference's;
//! - each symmetry the game offers maps the legal moves onto the image's legal moves, keeps
//!   (or, for a colour flip, swaps) the outcome, agrees with the reference's own image, and
//!   returns to the position after its order;
//! - mutated position and move text never panics, and what parses is consistent.
//!
//! And over whole trees and games: perft against the reference's perft at every depth up
//! to the one asked for; positions reached by different move orders compare equal and hash
//! equal; random games (engine and reference side by side) end within the ply cap.
//!
//! A game's test builds a [`Suite`] from its start positions, edge cases and random
//! placements, and asserts that [`Suite::run`] passes with enough coverage:
//!
//! ```ignore
//! let report = Suite::new(MyReference)
//!     .start(MyGame::start(), 5)
//!     .position(tricky_endgame, 6)
//!     .symmetry(Symmetry { name: "mirror", position: MyGame::mirror, mv: MyGame::mirror_move, swaps_sides: false, order: 2 })
//!     .run()?;
//! assert!(report.positions > 10_000);
//! ```

use crate::game::{perft, Game, Outcome, Side};
use crate::rng::SplitMix64;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A second implementation of a game's rules, written plainly and sharing no code with the
/// game; the suite compares the two through position and move text.
pub trait Reference {
    /// The reference's position.
    type Pos: Clone;
    /// The reference's move.
    type Move: Clone;

    /// Reads position text (the game's notation), or `None` when it does not describe a
    /// position.
    fn parse_position(&self, text: &str) -> Option<Self::Pos>;

    /// The position in the game's notation.
    fn position_text(&self, pos: &Self::Pos) -> String;

    /// Every legal move, in any order; none once the game is over.
    fn moves(&self, pos: &Self::Pos) -> Vec<Self::Move>;

    /// A move of `pos` in the game's notation.
    fn move_text(&self, pos: &Self::Pos, mv: &Self::Move) -> String;

    /// Plays a move that [`Reference::moves`] produced.
    fn play(&self, pos: &mut Self::Pos, mv: &Self::Move);

    /// `Some` once the game is over.
    fn outcome(&self, pos: &Self::Pos) -> Option<Outcome>;

    /// Leaves of the game tree `depth` plies deep, a finished game being one leaf.
    fn perft(&self, pos: &Self::Pos, depth: u32) -> u64 {
        if depth == 0 || self.outcome(pos).is_some() {
            return 1;
        }
        self.moves(pos)
            .iter()
            .map(|mv| {
                let mut child = pos.clone();
                self.play(&mut child, mv);
                self.perft(&child, depth - 1)
            })
            .sum()
    }

    /// The reference's own image of `pos` under the symmetry called `name`, when it has
    /// one; the suite then checks that the game's image agrees.
    fn symmetry(&self, name: &str, pos: &Self::Pos) -> Option<Self::Pos> {
        let _ = (name, pos);
        None
    }
}

/// A symmetry of a game: a map of positions and moves under which the rules look the same.
#[derive(Debug)]
pub struct Symmetry<G: Game> {
    /// Its name in failure messages and for [`Reference::symmetry`].
    pub name: &'static str,
    /// The image of a position.
    pub position: fn(&G) -> G,
    /// The image of a move of the given position (a move of the position's image).
    pub mv: fn(&G, G::Move) -> G::Move,
    /// Whether it exchanges the sides' roles (a colour flip): the side to move and the
    /// winner are swapped in the image.
    pub swaps_sides: bool,
    /// How many applications give the position back (2 for a mirror).
    pub order: u32,
}

/// Which property a [`Failure`] broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Perft differs from the reference's.
    Perft,
    /// The legal moves differ from the reference's, repeat, or exist in a finished game.
    Moves,
    /// The outcome differs from the reference's.
    Outcome,
    /// Position text differs from the reference's or does not read back.
    PositionText,
    /// A move's text does not read back to the move.
    MoveText,
    /// Equal positions hash differently, or positions with one text compare unequal.
    Hash,
    /// A random game ran past the ply cap.
    Playout,
    /// A symmetry does not map the game onto itself.
    Symmetry,
    /// Reading mutated text panicked or accepted something inconsistent.
    Parsing,
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Check::Perft => "perft",
            Check::Moves => "legal moves",
            Check::Outcome => "outcome",
            Check::PositionText => "position text",
            Check::MoveText => "move text",
            Check::Hash => "hash and equality",
            Check::Playout => "playouts end",
            Check::Symmetry => "symmetry",
            Check::Parsing => "parsing bad text",
        };
        f.write_str(name)
    }
}

/// The first disagreement the suite found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{check} check failed at '{position}': {detail}")]
pub struct Failure {
    /// The property broken.
    pub check: Check,
    /// The position's text.
    pub position: String,
    /// What differed.
    pub detail: String,
}

/// How much a passing run covered, so a test can insist that the checks really ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Positions compared with the reference one by one.
    pub positions: u64,
    /// Legal moves compared (and their text read back).
    pub moves: u64,
    /// Perft leaves counted by both implementations.
    pub perft_leaves: u64,
    /// Positions reached a second time by another move order.
    pub transpositions: u64,
    /// Random games played to their end.
    pub games: u64,
    /// Symmetric images checked.
    pub images: u64,
    /// Mutated texts read.
    pub mutations: u64,
}

/// A conformance run: what to check, built up with the methods below.
#[derive(Debug)]
pub struct Suite<G: Game, R: Reference> {
    reference: R,
    starts: Vec<(G, u32)>,
    positions: Vec<(G, u32)>,
    symmetries: Vec<Symmetry<G>>,
    games_per_start: u32,
    ply_cap: u32,
    transposition_nodes: usize,
    symmetry_perft_depth: u32,
    seed: u64,
}

impl<G: Game, R: Reference> Suite<G, R> {
    /// A suite with no positions yet, 20 random games per start, a 1000-ply cap and seed 1.
    pub fn new(reference: R) -> Self {
        Suite {
            reference,
            starts: Vec::new(),
            positions: Vec::new(),
            symmetries: Vec::new(),
            games_per_start: 20,
            ply_cap: 1000,
            transposition_nodes: 20_000,
            symmetry_perft_depth: 3,
            seed: 1,
        }
    }

    /// A start position: perft to `depth`, a search for transpositions, and random games
    /// from it.
    pub fn start(mut self, pos: G, perft_depth: u32) -> Self {
        self.starts.push((pos, perft_depth));
        self
    }

    /// A single position (an ending, a random placement): compared with the reference,
    /// perft to `depth`, and its symmetric images.
    pub fn position(mut self, pos: G, perft_depth: u32) -> Self {
        self.positions.push((pos, perft_depth));
        self
    }

    /// A symmetry the game offers.
    pub fn symmetry(mut self, symmetry: Symmetry<G>) -> Self {
        self.symmetries.push(symmetry);
        self
    }

    /// Random games played from each start.
    pub fn games_per_start(mut self, games: u32) -> Self {
        self.games_per_start = games;
        self
    }

    /// Plies a random game may last before the suite calls it endless.
    pub fn ply_cap(mut self, plies: u32) -> Self {
        self.ply_cap = plies;
        self
    }

    /// The seed of the random games and text mutations.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Runs every check; the first failure ends the run.
    pub fn run(&self) -> Result<Report, Failure> {
        let mut report = Report::default();
        let mut rng = SplitMix64::new(self.seed);
        for (pos, depth) in &self.positions {
            let r = self.reference_of(pos)?;
            self.compare(pos, &r, &mut report)?;
            self.compare_perft(pos, &r, *depth, &mut report)?;
            self.symmetric_perft(pos, *depth, &mut report)?;
            self.mutate_texts(pos, &mut rng, &mut report)?;
        }
        for (pos, depth) in &self.starts {
            let r = self.reference_of(pos)?;
            self.compare_perft(pos, &r, *depth, &mut report)?;
            self.symmetric_perft(pos, *depth, &mut report)?;
            self.transpositions(pos, &mut report)?;
            for _ in 0..self.games_per_start {
                self.random_game(pos, &r, &mut rng, &mut report)?;
            }
        }
        Ok(report)
    }

    fn reference_of(&self, pos: &G) -> Result<R::Pos, Failure> {
        let text = pos.position_text();
        self.reference
            .parse_position(&text)
            .ok_or_else(|| fail(Check::PositionText, pos, "the reference cannot read it"))
    }

    /// Everything about one position, against the reference and the contracts.
    fn compare(&self, pos: &G, r: &R::Pos, report: &mut Report) -> Result<(), Failure> {
        report.positions += 1;
        let text = pos.position_text();
        let ref_text = self.reference.position_text(r);
        if text != ref_text {
            return Err(fail(
                Check::PositionText,
                pos,
                format!("the reference writes '{ref_text}'"),
            ));
        }
        match G::parse_position(&text) {
            Ok(back) if back == *pos => {
                if back.hash() != pos.hash() {
                    return Err(fail(
                        Check::Hash,
                        pos,
                        "its text reads back to an equal position with another hash",
                    ));
                }
            }
            Ok(back) => {
                return Err(fail(
                    Check::PositionText,
                    pos,
                    format!("reads back as a different position, {back:?}"),
                ))
            }
            Err(e) => {
                return Err(fail(
                    Check::PositionText,
                    pos,
                    format!("does not read back: {e}"),
                ))
            }
        }
        let copy = pos.clone();
        if copy != *pos || copy.hash() != pos.hash() {
            return Err(fail(
                Check::Hash,
                pos,
                "a clone compares unequal or hashes differently",
            ));
        }
        let outcome = pos.outcome();
        let ref_outcome = self.reference.outcome(r);
        if outcome != ref_outcome {
            return Err(fail(
                Check::Outcome,
                pos,
                format!("the game says {outcome:?}, the reference {ref_outcome:?}"),
            ));
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if outcome.is_some() && !moves.is_empty() {
            return Err(fail(
                Check::Moves,
                pos,
                format!(
                    "the game is over ({outcome:?}) but has {} moves",
                    moves.len()
                ),
            ));
        }
        let distinct: HashSet<G::Move> = moves.iter().copied().collect();
        if distinct.len() != moves.len() {
            return Err(fail(Check::Moves, pos, "a move is listed twice"));
        }
        let mut texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
        for (&mv, t) in moves.iter().zip(&texts) {
            report.moves += 1;
            match pos.parse_move(t) {
                Ok(back) if back == mv => {}
                Ok(back) => {
                    return Err(fail(
                        Check::MoveText,
                        pos,
                        format!("'{t}' (the text of {mv:?}) reads back as {back:?}"),
                    ))
                }
                Err(e) => {
                    return Err(fail(
                        Check::MoveText,
                        pos,
                        format!("'{t}', the text of {mv:?}, is refused: {e}"),
                    ))
                }
            }
        }
        let mut ref_texts: Vec<String> = self
            .reference
            .moves(r)
            .iter()
            .map(|m| self.reference.move_text(r, m))
            .collect();
        texts.sort();
        ref_texts.sort();
        if texts != ref_texts {
            let missing: Vec<&String> = ref_texts.iter().filter(|t| !texts.contains(t)).collect();
            let extra: Vec<&String> = texts.iter().filter(|t| !ref_texts.contains(t)).collect();
            return Err(fail(
                Check::Moves,
                pos,
                format!("missing {missing:?}, not in the reference {extra:?} (game {texts:?}, reference {ref_texts:?})"),
            ));
        }
        for s in &self.symmetries {
            self.compare_image(pos, r, &moves, s, report)?;
        }
        Ok(())
    }

    /// One symmetry at one position.
    fn compare_image(
        &self,
        pos: &G,
        r: &R::Pos,
        moves: &[G::Move],
        s: &Symmetry<G>,
        report: &mut Report,
    ) -> Result<(), Failure> {
        report.images += 1;
        let bad = |detail: String| fail(Check::Symmetry, pos, format!("{}: {detail}", s.name));
        let image = (s.position)(pos);
        let swap = |side: Side| if s.swaps_sides { side.opponent() } else { side };
        if image.side_to_move() != swap(pos.side_to_move()) {
            return Err(bad(format!(
                "the image {image:?} has the wrong side to move"
            )));
        }
        let want = pos.outcome().map(|o| match o {
            Outcome::Win(side) => Outcome::Win(swap(side)),
            Outcome::Draw => Outcome::Draw,
        });
        if image.outcome() != want {
            return Err(bad(format!(
                "the image {image:?} ends {:?}, not {want:?}",
                image.outcome()
            )));
        }
        let mapped: HashSet<G::Move> = moves.iter().map(|&m| (s.mv)(pos, m)).collect();
        let mut image_moves = Vec::new();
        image.legal_moves(&mut image_moves);
        let image_set: HashSet<G::Move> = image_moves.iter().copied().collect();
        if mapped != image_set || mapped.len() != moves.len() {
            return Err(bad(format!(
                "the moves map onto {mapped:?}, but the image {image:?} has {image_moves:?}"
            )));
        }
        let mut back = image.clone();
        for _ in 1..s.order {
            back = (s.position)(&back);
        }
        if back != *pos {
            return Err(bad(format!("{} applications give {back:?}", s.order)));
        }
        if let Some(ref_image) = self.reference.symmetry(s.name, r) {
            let (got, want) = (
                image.position_text(),
                self.reference.position_text(&ref_image),
            );
            if got != want {
                return Err(bad(format!(
                    "the image is '{got}', the reference's '{want}'"
                )));
            }
        }
        Ok(())
    }

    fn compare_perft(
        &self,
        pos: &G,
        r: &R::Pos,
        depth: u32,
        report: &mut Report,
    ) -> Result<(), Failure> {
        for d in 0..=depth {
            let (ours, theirs) = (perft(pos, d), self.reference.perft(r, d));
            if ours != theirs {
                return Err(fail(
                    Check::Perft,
                    pos,
                    format!("perft {d} is {ours}, the reference counts {theirs}"),
                ));
            }
            report.perft_leaves += ours;
        }
        Ok(())
    }

    /// Symmetric positions have equal perft (up to a small depth: the move mapping is
    /// checked position by position elsewhere).
    fn symmetric_perft(&self, pos: &G, depth: u32, report: &mut Report) -> Result<(), Failure> {
        for s in &self.symmetries {
            let image = (s.position)(pos);
            for d in 0..=depth.min(self.symmetry_perft_depth) {
                let (a, b) = (perft(pos, d), perft(&image, d));
                if a != b {
                    return Err(fail(
                        Check::Symmetry,
                        pos,
                        format!(
                            "{}: perft {d} is {a} but {b} for the image {image:?}",
                            s.name
                        ),
                    ));
                }
                report.images += 1;
            }
        }
        Ok(())
    }

    /// Walks the tree breadth-first from `start` and checks that positions met twice (by
    /// text) are equal and hash equally.
    fn transpositions(&self, start: &G, report: &mut Report) -> Result<(), Failure> {
        let mut seen: HashMap<String, G> = HashMap::new();
        let mut frontier = vec![start.clone()];
        let mut moves = Vec::new();
        while !frontier.is_empty() && seen.len() < self.transposition_nodes {
            let mut next = Vec::new();
            for pos in frontier {
                pos.legal_moves(&mut moves);
                for &mv in &moves {
                    let mut child = pos.clone();
                    child.play(mv);
                    let text = child.position_text();
                    if let Some(earlier) = seen.get(&text) {
                        report.transpositions += 1;
                        if *earlier != child || earlier.hash() != child.hash() {
                            return Err(fail(
                                Check::Hash,
                                &child,
                                format!(
                                    "reached by two move orders, the positions differ ({earlier:?} and {child:?}) or hash differently"
                                ),
                            ));
                        }
                    } else if seen.len() < self.transposition_nodes {
                        seen.insert(text, child.clone());
                        next.push(child);
                    }
                }
            }
            frontier = next;
        }
        Ok(())
    }

    /// A uniformly random game from `start`, the reference playing along, every position
    /// compared.
    fn random_game(
        &self,
        start: &G,
        start_ref: &R::Pos,
        rng: &mut SplitMix64,
        report: &mut Report,
    ) -> Result<(), Failure> {
        let (mut pos, mut r) = (start.clone(), start_ref.clone());
        let mut moves = Vec::new();
        for _ in 0..self.ply_cap {
            self.compare(&pos, &r, report)?;
            if rng.below(8) == 0 {
                self.mutate_texts(&pos, rng, report)?;
            }
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                report.games += 1;
                return Ok(());
            }
            let mv = moves[rng.below(moves.len())];
            let text = pos.move_text(mv);
            let ref_move = self
                .reference
                .moves(&r)
                .into_iter()
                .find(|m| self.reference.move_text(&r, m) == text)
                .ok_or_else(|| {
                    fail(
                        Check::Moves,
                        &pos,
                        format!("the reference has no move '{text}'"),
                    )
                })?;
            pos.play(mv);
            self.reference.play(&mut r, &ref_move);
        }
        Err(fail(
            Check::Playout,
            &pos,
            format!("a random game is still going after {} plies", self.ply_cap),
        ))
    }

    /// Reads a few mutations of the position's text and of its moves' text: nothing may
    /// panic, a position read must read back the same, and a move read must be legal.
    fn mutate_texts(
        &self,
        pos: &G,
        rng: &mut SplitMix64,
        report: &mut Report,
    ) -> Result<(), Failure> {
        let text = pos.position_text();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut move_texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
        move_texts.push(String::new());
        for _ in 0..4 {
            report.mutations += 2;
            let t = mutate(&text, rng);
            let read = catch_unwind(AssertUnwindSafe(|| G::parse_position(&t)))
                .map_err(|_| fail(Check::Parsing, pos, format!("reading '{t}' panicked")))?;
            if let Ok(q) = read {
                let again = G::parse_position(&q.position_text());
                if again.as_ref() != Ok(&q) {
                    return Err(fail(
                        Check::Parsing,
                        pos,
                        format!("'{t}' reads as {q:?}, whose own text does not read back"),
                    ));
                }
            }
            let base = &move_texts[rng.below(move_texts.len())];
            let m = mutate(base, rng);
            let read = catch_unwind(AssertUnwindSafe(|| pos.parse_move(&m))).map_err(|_| {
                fail(
                    Check::Parsing,
                    pos,
                    format!("reading the move '{m}' panicked"),
                )
            })?;
            if let Ok(mv) = read {
                if !moves.contains(&mv) {
                    return Err(fail(
                        Check::Parsing,
                        pos,
                        format!("'{m}' reads as {mv:?}, which is not legal"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// One to three random edits (delete, replace, insert) of `text`, drawing from its own
/// characters and a few that often trip parsers.
fn mutate(text: &str, rng: &mut SplitMix64) -> String {
    let mut alphabet: Vec<char> = text.chars().collect();
    alphabet.extend(['0', '9', ' ', '/', '-', 'x', 'é', '\u{0}']);
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        let c = alphabet[rng.below(alphabet.len())];
        match rng.below(3) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => chars[at] = c,
            _ => chars.insert(at, c),
        }
    }
    chars.into_iter().collect()
}

fn fail<G: Game>(check: Check, pos: &G, detail: impl Into<String>) -> Failure {
    Failure {
        check,
        position: pos.position_text(),
        detail: detail.into(),
    }
}

pub mod perft_file;
#[cfg(test)]
mod tests;

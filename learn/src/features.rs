//! What a game tells the learner: the sparse binary features of a position, seen from its
//! side to move, and the identity a model trained on them carries.

use std::fmt;

/// The most features one position may have active.
pub const MAX_ACTIVE: usize = 256;

/// The game, the size and the feature set a model was trained for: a model is refused
/// for any other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The game's name (`breakthrough`).
    pub game: String,
    /// The size parameters as the game writes them (`8x8`).
    pub params: String,
    /// The feature set's name, with its version (`ntuple-2x3-v1`).
    pub features: String,
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({})", self.game, self.params, self.features)
    }
}

/// The active features of one position: indices into the model's weights, kept on the
/// stack so that evaluating a leaf allocates nothing.
#[derive(Clone, Debug)]
pub struct Active {
    idx: [u32; MAX_ACTIVE],
    len: usize,
}

impl Default for Active {
    fn default() -> Self {
        Active {
            idx: [0; MAX_ACTIVE],
            len: 0,
        }
    }
}

impl Active {
    /// Forgets the features of the last position.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds feature `i`; a feature set that activates more than [`MAX_ACTIVE`] is a bug
    /// of its game's code.
    #[inline]
    pub fn push(&mut self, i: u32) {
        self.idx[self.len] = i;
        self.len += 1;
    }

    /// The active features.
    #[inline]
    pub fn as_slice(&self) -> &[u32] {
        &self.idx[..self.len]
    }
}

/// A game's features for one size: sparse and binary, seen from the side to move, so that
/// a position and its colour-flipped twin activate the same features.
pub trait Features<G>: Send + Sync + fmt::Debug {
    /// The game, size and feature set these features are.
    fn identity(&self) -> Identity;

    /// The number of features (the model's weights).
    fn len(&self) -> usize;

    /// True when there are no features at all.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the features active in `pos` (not finished) into `out`, cleared first;
    /// each below [`Features::len`], at most [`MAX_ACTIVE`] of them.
    fn active(&self, pos: &G, out: &mut Active);

    /// The sum of `weights` over the features active in each child of `pos` (not
    /// finished), seen from that child's side to move: `each(i, sum)` for `pos` after
    /// `moves[i]`, in order, whether that child's game is over or not. `false`, with
    /// `each` never called, for a feature set that knows no faster way than
    /// [`Features::active`] of each child (the default).
    fn child_sums(
        &self,
        pos: &G,
        moves: &[G::Move],
        weights: &[f32],
        each: &mut dyn FnMut(usize, f32),
    ) -> bool
    where
        G: quasar_core::Game,
    {
        let _ = (pos, moves, weights, each);
        false
    }
}

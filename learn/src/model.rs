//! The linear model: one weight a feature and a bias, summed into the logit of the side to
//! move's winning chance.

use crate::features::Identity;

/// A trained (or new) model for one game, size and feature set.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// What it was trained for.
    pub identity: Identity,
    /// One weight a feature.
    pub weights: Vec<f32>,
    /// Added to every position's sum.
    pub bias: f32,
    /// The weight of the base: the logit of the game's hand-written evaluation, so that
    /// the features learn what it misses rather than all it knows.
    pub base_weight: f32,
}

impl Model {
    /// A model of zero weights (every position even) for `len` features.
    pub fn zeros(identity: Identity, len: usize) -> Model {
        Model {
            identity,
            weights: vec![0.0; len],
            bias: 0.0,
            base_weight: 0.0,
        }
    }

    /// The logit of the side to move's winning chance in a position with `active` features.
    #[inline]
    pub fn logit(&self, active: &[u32]) -> f32 {
        // Four running sums: one would make each load wait for the previous addition.
        let mut sums = [0.0f32; 4];
        let mut chunks = active.chunks_exact(4);
        for c in &mut chunks {
            for k in 0..4 {
                sums[k] += self.weights[c[k] as usize];
            }
        }
        for (k, &i) in chunks.remainder().iter().enumerate() {
            sums[k] += self.weights[i as usize];
        }
        self.bias + (sums[0] + sums[1]) + (sums[2] + sums[3])
    }

    /// The logit of a position with `active` features whose base logit is `base`.
    #[inline]
    pub fn logit_with(&self, active: &[u32], base: f32) -> f32 {
        self.logit(active) + self.base_weight * base
    }

    /// The side to move's winning chance in a position with `active` features and base
    /// logit `base`.
    #[inline]
    pub fn chance(&self, active: &[u32], base: f32) -> f32 {
        sigmoid(self.logit_with(active, base))
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

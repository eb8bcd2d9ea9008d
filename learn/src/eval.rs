//! A trained model as a search's evaluation: its logit of the mover's winning chance as
//! the value, the game's own evaluation for what a model cannot know (sound verdicts,
//! forced moves, which moves are tactical).

use crate::features::{Active, Features};
use crate::model::Model;
use quasar_core::{Evaluation, Game, Verdict, EVAL_LIMIT};
use std::sync::Arc;

/// Evaluation units a unit of logit: fine enough that alpha-beta tells close values apart.
pub const UNIT: f32 = 1000.0;

/// The logit of the winning chance `base` gives the side to move in `pos`: the base
/// feature of a model.
#[inline]
pub fn base_logit<G: Game>(base: &dyn Evaluation<G>, pos: &G) -> f32 {
    quasar_core::eval::logit(base.evaluate(pos), base.scale()) as f32
}

/// What a model over `features` with `base` as its base is trained for: the features'
/// identity, with the base evaluation's name.
pub fn identity<G: Game>(features: &dyn Features<G>, base: &dyn Evaluation<G>) -> crate::Identity {
    let mut id = features.identity();
    id.features = format!("{}+{}", id.features, base.name());
    id
}

/// A logit in evaluation units, inside the evaluation's bounds.
#[inline]
fn to_units(logit: f32) -> i32 {
    let limit = (EVAL_LIMIT - 1) as f32;
    (logit * UNIT).clamp(-limit, limit) as i32
}

/// A model over a game's features, with the game's hand-written evaluation behind it for
/// verdicts and move ordering.
#[derive(Debug)]
pub struct NetEvaluation<G: Game> {
    model: Model,
    features: Arc<dyn Features<G>>,
    base: Arc<dyn Evaluation<G>>,
}

impl<G: Game> NetEvaluation<G> {
    /// `model` over `features` (the caller checked they match), with `base`'s verdicts.
    pub fn new(
        model: Model,
        features: Arc<dyn Features<G>>,
        base: Arc<dyn Evaluation<G>>,
    ) -> NetEvaluation<G> {
        assert_eq!(
            model.weights.len(),
            features.len(),
            "a model is used with the features it was trained on"
        );
        NetEvaluation {
            model,
            features,
            base,
        }
    }

    /// The model's logit of the mover's winning chance in `pos`.
    #[inline]
    pub fn logit(&self, pos: &G) -> f32 {
        let mut active = Active::default();
        self.features.active(pos, &mut active);
        let base = if self.model.base_weight != 0.0 {
            base_logit(self.base.as_ref(), pos)
        } else {
            0.0
        };
        self.model.logit_with(active.as_slice(), base)
    }
}

impl<G: Game> Evaluation<G> for NetEvaluation<G> {
    #[inline]
    fn evaluate(&self, pos: &G) -> i32 {
        to_units(self.logit(pos))
    }

    /// From the parent's features where the feature set knows how (each child's differ
    /// from its parent's in a few), so that a new node's children cost a fraction of
    /// their evaluations one by one.
    fn evaluate_children(&self, pos: &G, moves: &[G::Move], out: &mut Vec<i32>) -> bool {
        out.clear();
        let model = &self.model;
        let base = self.base.as_ref();
        self.features
            .child_sums(pos, moves, &model.weights, &mut |i, sum| {
                let mut child = pos.clone();
                child.play(moves[i]);
                out.push(if child.outcome().is_some() {
                    0
                } else {
                    let b = if model.base_weight != 0.0 {
                        base_logit(base, &child)
                    } else {
                        0.0
                    };
                    to_units(model.bias + sum + model.base_weight * b)
                });
            })
    }

    /// A logit of ln 3 is a winning chance of three in four.
    fn scale(&self) -> f64 {
        UNIT as f64 * 3f64.ln()
    }

    #[inline]
    fn is_tactical(&self, pos: &G, mv: G::Move) -> bool {
        self.base.is_tactical(pos, mv)
    }

    #[inline]
    fn verdict(&self, pos: &G) -> Option<Verdict> {
        self.base.verdict(pos)
    }

    #[inline]
    fn deep_verdict(&self, pos: &G) -> Option<Verdict> {
        self.base.deep_verdict(pos)
    }

    #[inline]
    fn forced_moves(&self, pos: &G, moves: &mut Vec<G::Move>) -> bool {
        self.base.forced_moves(pos, moves)
    }

    #[inline]
    fn is_quiet(&self, pos: &G) -> bool {
        self.base.is_quiet(pos)
    }

    fn name(&self) -> &'static str {
        "learned"
    }
}

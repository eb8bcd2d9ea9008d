//! Fitting a model: logistic regression of the side to move's score on its active
//! features, by stochastic gradient descent with a step per weight that shrinks with the
//! gradients it has seen (AdaGrad), which suits sparse features: a pattern seen rarely
//! keeps a large step. Hand-written: the model is a sum of weights, and its gradient is
//! one subtraction, which a training framework would only wrap.

use crate::model::{sigmoid, Model};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Positions as their active features, with the score each should predict.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    idx: Vec<u32>,
    starts: Vec<usize>,
    bases: Vec<f32>,
    targets: Vec<f32>,
}

impl Dataset {
    /// An empty dataset.
    pub fn new() -> Dataset {
        Dataset {
            idx: Vec::new(),
            starts: vec![0],
            bases: Vec::new(),
            targets: Vec::new(),
        }
    }

    /// Adds a position with `active` features, base logit `base` and the score `target`
    /// in `[0, 1]`.
    pub fn push(&mut self, active: &[u32], base: f32, target: f32) {
        self.idx.extend_from_slice(active);
        self.starts.push(self.idx.len());
        self.bases.push(base);
        self.targets.push(target);
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// True without positions.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    fn get(&self, i: usize) -> (&[u32], f32, f32) {
        (
            &self.idx[self.starts[i]..self.starts[i + 1]],
            self.bases[i],
            self.targets[i],
        )
    }
}

/// The settings of a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// The base step size.
    pub rate: f32,
    /// The weight decay a step applies to the weights it touches.
    pub l2: f32,
    /// The seed of the order of positions in each epoch.
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            rate: 0.05,
            l2: 1e-6,
            seed: 1,
        }
    }
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// The epoch's number, from 1.
    pub number: u32,
    /// The mean cross-entropy over the training positions, as they were met in the epoch.
    pub train_loss: f64,
    /// The mean cross-entropy over the held-out positions after the epoch.
    pub valid_loss: f64,
}

/// A model being trained, with the gradient sums its steps shrink by.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// The model so far.
    pub model: Model,
    /// Epochs done.
    pub epochs: u32,
    sq: Vec<f32>,
    bias_sq: f32,
    base_sq: f32,
    config: TrainConfig,
}

/// The cross-entropy of predicting the chance `p` for the score `y`, in nats.
pub fn cross_entropy(p: f32, y: f32) -> f64 {
    let p = (p as f64).clamp(1e-7, 1.0 - 1e-7);
    let y = y as f64;
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

impl Trainer {
    /// Training from `model` (a new one of zeros, or one trained before).
    pub fn new(model: Model, config: TrainConfig) -> Trainer {
        let n = model.weights.len();
        Trainer {
            model,
            epochs: 0,
            sq: vec![0.0; n],
            bias_sq: 0.0,
            base_sq: 0.0,
            config,
        }
    }

    /// A trainer resumed after `epochs` epochs with these gradient sums.
    pub fn resume(
        model: Model,
        epochs: u32,
        sq: Vec<f32>,
        (bias_sq, base_sq): (f32, f32),
        config: TrainConfig,
    ) -> Trainer {
        assert_eq!(sq.len(), model.weights.len(), "one gradient sum a weight");
        Trainer {
            model,
            epochs,
            sq,
            bias_sq,
            base_sq,
            config,
        }
    }

    /// One pass over `train` in an order drawn from the seed and the epoch's number, then
    /// the loss on `valid`.
    pub fn epoch(&mut self, train: &Dataset, valid: &Dataset) -> Epoch {
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            self.config.seed ^ (self.epochs as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        order.shuffle(&mut rng);
        let (rate, l2) = (self.config.rate, self.config.l2);
        let mut loss = 0.0;
        for &i in &order {
            let (active, base, y) = train.get(i as usize);
            let p = self.model.chance(active, base);
            loss += cross_entropy(p, y);
            let g = p - y;
            for &f in active {
                let f = f as usize;
                let w = &mut self.model.weights[f];
                let grad = g + l2 * *w;
                self.sq[f] += grad * grad;
                *w -= rate * grad / (self.sq[f].sqrt() + 1e-8);
            }
            self.bias_sq += g * g;
            self.model.bias -= rate * g / (self.bias_sq.sqrt() + 1e-8);
            if base != 0.0 {
                let gb = g * base;
                self.base_sq += gb * gb;
                self.model.base_weight -= rate * gb / (self.base_sq.sqrt() + 1e-8);
            }
        }
        self.epochs += 1;
        Epoch {
            number: self.epochs,
            train_loss: loss / train.len().max(1) as f64,
            valid_loss: self.loss(valid),
        }
    }

    /// The model's mean cross-entropy on `data`.
    pub fn loss(&self, data: &Dataset) -> f64 {
        let mut sum = 0.0;
        for i in 0..data.len() {
            let (active, base, y) = data.get(i);
            sum += cross_entropy(sigmoid(self.model.logit_with(active, base)), y);
        }
        sum / data.len().max(1) as f64
    }
}

/// The feature-set suffix that marks a checkpoint: a model file whose weights are the
/// model's, then its gradient sums, then the bias's and the base's sums and the epochs
/// done.
const CHECKPOINT: &str = " checkpoint";

/// Writes `trainer`'s state to `path` (atomically), for [`load_checkpoint`].
pub fn save_checkpoint(
    path: &std::path::Path,
    trainer: &Trainer,
) -> Result<(), quasar_file::FileError> {
    let mut identity = trainer.model.identity.clone();
    identity.features.push_str(CHECKPOINT);
    let mut weights = trainer.model.weights.clone();
    weights.extend_from_slice(&trainer.sq);
    weights.push(trainer.bias_sq);
    weights.push(trainer.base_sq);
    weights.push(trainer.epochs as f32);
    crate::file::save(
        path,
        &Model {
            identity,
            weights,
            bias: trainer.model.bias,
            base_weight: trainer.model.base_weight,
        },
    )
}

/// The trainer saved at `path` for a model of `identity`; `None` when there is no file.
pub fn load_checkpoint(
    path: &std::path::Path,
    identity: &crate::features::Identity,
    config: TrainConfig,
) -> Result<Option<Trainer>, crate::file::NetError> {
    let mut want = identity.clone();
    want.features.push_str(CHECKPOINT);
    let saved = match crate::file::load(path, &want) {
        Ok(m) => m,
        Err(crate::file::NetError::File(e)) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e),
    };
    let n = (saved.weights.len().saturating_sub(3)) / 2;
    if saved.weights.len() != 2 * n + 3 {
        return Err(crate::file::NetError::File(
            quasar_file::FileError::Damaged {
                path: path.to_path_buf(),
                msg: "not a training checkpoint: delete it to start the fit afresh".into(),
            },
        ));
    }
    let (w, rest) = saved.weights.split_at(n);
    let model = Model {
        identity: identity.clone(),
        weights: w.to_vec(),
        bias: saved.bias,
        base_weight: saved.base_weight,
    };
    Ok(Some(Trainer::resume(
        model,
        rest[n + 2] as u32,
        rest[..n].to_vec(),
        (rest[n], rest[n + 1]),
        config,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::Identity;

    fn id() -> Identity {
        Identity {
            game: "toy".into(),
            params: "-".into(),
            features: "f".into(),
        }
    }

    /// Feature 0 wins three times in four, feature 1 one time in four: the fitted model
    /// predicts those rates, and its loss falls to the data's own entropy.
    #[test]
    fn the_fit_finds_the_rates_of_the_data() {
        let mut d = Dataset::new();
        for k in 0..400 {
            d.push(&[0], 0.0, if k % 4 == 0 { 0.0 } else { 1.0 });
            d.push(&[1], 0.0, if k % 4 == 0 { 1.0 } else { 0.0 });
        }
        let mut t = Trainer::new(Model::zeros(id(), 2), TrainConfig::default());
        let first = t.epoch(&d, &d);
        let mut last = first;
        for _ in 0..30 {
            last = t.epoch(&d, &d);
        }
        assert!(last.valid_loss < first.valid_loss);
        let p0 = t.model.chance(&[0], 0.0);
        let p1 = t.model.chance(&[1], 0.0);
        assert!(
            (p0 - 0.75).abs() < 0.03 && (p1 - 0.25).abs() < 0.03,
            "{p0} {p1}"
        );
        // The entropy of a 3:1 coin.
        let h = -(0.75f64 * 0.75f64.ln() + 0.25 * 0.25f64.ln());
        assert!(
            (last.valid_loss - h).abs() < 0.01,
            "{} {h}",
            last.valid_loss
        );
    }
}

#[cfg(test)]
mod checkpoint_tests {
    use super::*;
    use crate::features::Identity;

    #[test]
    fn a_checkpoint_resumes_the_same_training() {
        let id = Identity {
            game: "toy".into(),
            params: "-".into(),
            features: "f".into(),
        };
        let mut d = Dataset::new();
        for k in 0..50 {
            d.push(&[k % 3, 3], (k % 3) as f32 - 1.0, (k % 2) as f32);
        }
        let config = TrainConfig::default();
        let mut straight = Trainer::new(Model::zeros(id.clone(), 4), config);
        let mut stopped = Trainer::new(Model::zeros(id.clone(), 4), config);
        for _ in 0..2 {
            straight.epoch(&d, &d);
            stopped.epoch(&d, &d);
        }
        let dir = std::env::temp_dir().join(format!("learn-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.ckpt");
        save_checkpoint(&path, &stopped).unwrap();
        let mut resumed = load_checkpoint(&path, &id, config).unwrap().unwrap();
        assert_eq!(resumed.epochs, 2);
        let (a, b) = (straight.epoch(&d, &d), resumed.epoch(&d, &d));
        assert_eq!(a, b);
        assert_eq!(straight.model, resumed.model);
        let mut other = id.clone();
        other.params = "+".into();
        assert!(load_checkpoint(&path, &other, config).is_err());
        assert!(load_checkpoint(&dir.join("none"), &id, config)
            .unwrap()
            .is_none());
    }
}

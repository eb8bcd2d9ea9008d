//! Learned evaluations for any game: the game names sparse binary features of a position
//! (for its side to move), a linear model over them predicts the mover's winning chance,
//! training fits it to labelled positions (exact values from tables where there are any,
//! else search values and game outcomes), and the model travels as one checksummed file.
//!
//! The model is linear in its features on purpose: an n-tuple network of a few thousand
//! weights costs one table read per tuple, fast enough for every playout's end and every
//! alpha-beta leaf on one core, and trains in seconds on hundreds of thousands of positions.

#![forbid(unsafe_code)]

pub mod eval;
pub mod features;
pub mod file;
pub mod model;
pub mod sample;
pub mod train;

pub use eval::NetEvaluation;
pub use features::{Active, Features, Identity, MAX_ACTIVE};
pub use file::{load, save, NetError};
pub use model::Model;
pub use sample::{Sample, SampleError};
pub use train::{Dataset, Epoch, TrainConfig, Trainer};

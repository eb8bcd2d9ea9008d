//! Row-limited Breakthrough endgame tablebases: generation, Gödel numbering, storage and
//! probing, as `shared/spec/breakthrough-tablebase.md` defines them.

pub mod generate;
pub mod index;
pub mod key;
pub mod probe;
pub mod region;
pub mod store;
pub mod verify;

pub use generate::{generate, BuildReport, Generated};
pub use key::{Entry, ValueCodec};
pub use probe::{Tablebase, Unknown, Win};
pub use region::{Config, Limits, Region, RegionError};
pub use store::{Lookup, TableFile, TableFileError};

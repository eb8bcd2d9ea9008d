//! Row-limited Breakthrough endgame tablebases: generation, Gödel numbering, storage and
//! probing, as `docs/tablebases.md` defines them.
//!
//! ```no_run
//! use breakthrough::tablebase::Tablebase;
//! use breakthrough::Position;
//! use quasar_core::Oracle;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Checks the header and size and maps the file; every block is checked by its CRC
//! // the first time a probe reads it, and a damaged one is an error, never an answer.
//! let tb = Tablebase::open(std::path::Path::new("tb-6x6-r4.qtb"))?;
//! let pos = Position::from_fen("B5/6/2W3/6/6/6 w")?;
//! // As the MCTS sees it: Some only for a certain win of the side to move.
//! if let Some(win) = tb.probe(&pos) {
//!     println!("win in {:?} plies with {:?}", win.plies, win.best_move);
//! }
//! // For people: the win, or why the table cannot claim one.
//! match tb.explain(&pos) {
//!     Ok(w) => println!("win in {}", w.depth),
//!     Err(why) => println!("unknown: {why}"),
//! }
//! # Ok(()) }
//! ```

pub mod cache;
pub mod dense;
pub mod generate;
pub mod index;
pub mod key;
pub mod opened;
pub mod probe;
pub mod recurrence;
pub mod region;
pub mod resident;
pub mod slices;
pub mod store;
pub mod verify;

pub use generate::{build_slices, generate, BuildReport, Generated, SliceOutcome, SlicedReport};
pub use key::{Entry, ValueCodec};
pub use probe::{Tablebase, Unknown, Win};
pub use quasar_core::progress::{Progress, Silent};
pub use region::{Config, Limits, Region, RegionError};
pub use store::{Corrupt, Lookup, SlicedTable, TableFile, TableFileError};

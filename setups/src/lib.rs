//! Each game plugged into the engines and the arena through [`engine::setup::GameSetup`]:
//! its sizes and their text, the start and position text, the playout policy, its tables as
//! oracles, its evaluations and its engines' defaults. The command line and the Python
//! package reach the games through these setups alone, so what a game means to the engine
//! is written once.

#![forbid(unsafe_code)]

pub mod breakthrough;
pub mod checkers;
pub mod chinese_checkers;
pub mod warn;
pub mod woodpush;

pub use breakthrough::BreakthroughSetup;
pub use checkers::CheckersSetup;
pub use chinese_checkers::CcSetup;
pub use woodpush::WoodpushSetup;

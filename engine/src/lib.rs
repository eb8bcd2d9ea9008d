//! Players of any game built from settings: the engine settings and their keys, durations,
//! clocks and the time manager, learned-model specs, and the blunder guard.

#![forbid(unsafe_code)]

pub mod clock;
pub mod duration;
pub mod guard;
pub mod net;
pub mod settings;

//! Retrograde analysis for any game.

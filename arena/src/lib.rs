//! Matches between players, with colours swapped and games in parallel, and the statistics
//! and reports of their results.

//! Data from the paper the Woodpush tests check against, shared by the test files.

/// The paper's size-7 principal line; rows 15 and 16 lost a cell in the paper's text
/// (`R L . . . R` and `L . . . . R`), restored here as the only moves that fit.
pub const LINE_7: [&str; 26] = [
    "L.L.R.R", ".LL.R.R", ".LLR..R", "..LRL.R", "..LRLR.", ".LRL.R.", ".LRLR..", "LRL.R..",
    "LRLR...", ".RLRL..", "..RLRL.", ".RL.RL.", ".RL..RL", "RL...RL", "RL....R", "L.....R",
    "L....R.", ".L...R.", ".L..R..", "..L.R..", "..LR...", "...RL..", "....RL.", "....R.L",
    "...R..L", "...R...",
];

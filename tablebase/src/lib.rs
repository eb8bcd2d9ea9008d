//! Row-limited Breakthrough endgame tablebases: generation, Gödel numbering, storage and
//! probing, as `shared/spec/breakthrough-tablebase.md` defines them.

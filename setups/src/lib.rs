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

#[cfg(test)]
mod tests {
    use super::*;
    use engine::settings::options::OPTIONS;
    use engine::setup::GameSetup;

    /// The table of engine options calls a playout switch one game's (in its help and the
    /// arena's key list) exactly when that game's playouts alone take it.
    #[test]
    fn the_options_called_one_games_are_its_playouts_alone() {
        let games: [(&str, &[&str]); 4] = [
            ("Breakthrough", BreakthroughSetup::default().playout_keys()),
            ("Woodpush", WoodpushSetup::default().playout_keys()),
            ("Chinese Checkers", CcSetup::default().playout_keys()),
            ("checkers", CheckersSetup.playout_keys()),
        ];
        for option in OPTIONS {
            let takers: Vec<&str> = games
                .iter()
                .filter(|(_, keys)| keys.contains(&option.name))
                .map(|&(game, _)| game)
                .collect();
            match option.game {
                Some(game) => assert_eq!(takers, [game], "{}", option.name),
                None => assert_ne!(takers.len(), 1, "{} is one game's", option.name),
            }
        }
    }
}

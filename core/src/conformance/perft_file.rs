//! Perft counts kept as data: a game's file of positions, depths and leaf counts, checked
//! by one function so that every game reads its counts the same way.
//!
//! Each line is `POSITION<TAB>DEPTH<TAB>COUNT` (the position in the game's own text);
//! blank lines and lines starting with `#` are skipped.

use crate::game::{perft, Game};

/// One count of a perft file: the position, the depth and the leaves the file promises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftLine {
    /// The position as the file writes it.
    pub position: String,
    /// Plies.
    pub depth: u32,
    /// Leaves at that depth.
    pub count: u64,
}

/// The counts of a perft file's `text`; an error names the first line that is not one.
pub fn parse(text: &str) -> Result<Vec<PerftLine>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || {
            format!(
                "line {}: expected POSITION<TAB>DEPTH<TAB>COUNT: {line:?}",
                i + 1
            )
        };
        let mut fields = line.split('\t');
        let (Some(position), Some(depth), Some(count), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad());
        };
        out.push(PerftLine {
            position: position.to_string(),
            depth: depth.parse().map_err(|_| bad())?,
            count: count.parse().map_err(|_| bad())?,
        });
    }
    Ok(out)
}

/// Checks every count of a perft file's `text` whose count is at most `max_count` (deeper
/// ones are left to a longer run) against [`perft`]; returns how many were checked, or the
/// first disagreement.
pub fn check<G: Game>(text: &str, max_count: u64) -> Result<usize, String> {
    let mut checked = 0;
    for l in parse(text)? {
        if l.count > max_count {
            continue;
        }
        let pos = G::parse_position(&l.position)
            .map_err(|e| format!("{:?}: not a position: {e}", l.position))?;
        let got = perft(&pos, l.depth);
        if got != l.count {
            return Err(format!(
                "{:?} at depth {}: perft {got}, the file says {}",
                l.position, l.depth, l.count
            ));
        }
        checked += 1;
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::{Piles, MISSING_MOVE, NONE};

    const FILE: &str = "# two piles\n1 1 f\t1\t2\n\n1 2 f\t1\t3\n2 1 f\t2\t5\n";

    #[test]
    fn a_file_is_checked_line_by_line_and_a_wrong_count_is_named() {
        assert_eq!(check::<Piles<NONE>>(FILE, u64::MAX), Ok(3));
        // Counts past the limit are skipped.
        assert_eq!(check::<Piles<NONE>>(FILE, 4), Ok(2));
        // A rules bug shows as the first count that differs.
        let e = check::<Piles<MISSING_MOVE>>(FILE, u64::MAX).unwrap_err();
        assert!(e.contains("\"1 2 f\" at depth 1: perft 2"), "{e}");
        assert!(parse("1 1 f\t1").unwrap_err().contains("line 1"));
        assert!(parse("1 1 f\tx\t2").is_err());
        assert!(parse("1 1 f\t1\t2\t3").is_err());
    }
}

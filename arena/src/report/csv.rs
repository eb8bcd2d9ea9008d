//! The report as CSV: the rating list, the pairings and the cross table.

use super::{wl, Report};
use crate::stats::elo;
use std::fmt::Write;

/// The rating list as CSV.
pub fn ratings_csv(r: &Report) -> String {
    let mut out = String::from("rank,player,elo,elo_low,elo_high,games,score\n");
    for (k, row) in r.ratings.iter().enumerate() {
        let _ = writeln!(
            out,
            "{},{},{:.1},{:.1},{:.1},{},{}",
            k + 1,
            csv_field(&row.player),
            row.elo,
            row.elo_ci.low,
            row.elo_ci.high,
            row.games,
            csv_num(row.score)
        );
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv_num(x: Option<f64>) -> String {
    match x {
        Some(v) if v == f64::INFINITY => "inf".into(),
        Some(v) if v == f64::NEG_INFINITY => "-inf".into(),
        // Adding zero turns -0 into 0.
        Some(v) => format!("{:.6}", v + 0.0),
        None => String::new(),
    }
}

/// One CSV line per pairing.
pub fn pairings_csv(r: &Report) -> String {
    let mut out = String::from(
        "test,player_a,player_b,a_first_wins,a_first_losses,a_first_draws,b_first_wins,b_first_losses,b_first_draws,\
         a_wins,a_losses,draws,score,score_low,score_high,elo,elo_low,elo_high,los,a_mean_ms,a_max_ms,b_mean_ms,b_max_ms\n",
    );
    for s in &r.pairings {
        let e = elo(&s.total);
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.3},{:.3},{:.3},{:.3}",
            s.test,
            csv_field(&s.player_a),
            csv_field(&s.player_b),
            s.a_first.wins,
            s.a_first.losses,
            s.a_first.draws,
            s.b_first.wins,
            s.b_first.losses,
            s.b_first.draws,
            s.total.wins,
            s.total.losses,
            s.total.draws,
            csv_num(s.score),
            csv_num(s.score_ci.map(|c| c.low)),
            csv_num(s.score_ci.map(|c| c.high)),
            csv_num(e.map(|x| x.0)),
            csv_num(e.map(|x| x.1.low)),
            csv_num(e.map(|x| x.1.high)),
            csv_num(Some(s.los)),
            s.a_ms.mean,
            s.a_ms.max,
            s.b_ms.mean,
            s.b_ms.max
        );
    }
    out
}

/// The cross table as CSV: a header of players, then each player's score against each.
pub fn cross_csv(r: &Report) -> String {
    let mut out = String::from("player");
    for p in &r.players {
        let _ = write!(out, ",{}", csv_field(p));
    }
    out.push_str(",score\n");
    for (i, p) in r.players.iter().enumerate() {
        out.push_str(&csv_field(p));
        for cell in &r.cross[i] {
            let _ = write!(out, ",{}", cell.map_or(String::new(), |t| wl(&t)));
        }
        let _ = writeln!(out, ",{}", csv_num(r.overall[i].score()));
    }
    out
}

//! The paper's interleaved passes at widths 7, 9 and 11 next to the exact solve:
//! `cargo run --release -p woodpush --example paper`.
use woodpush::{solve, SolveOptions};
fn main() {
    for w in [7, 9, 11] {
        let o = SolveOptions {
            paper: true,
            ..SolveOptions::default()
        };
        let (_, r) = solve(w, o, &quasar_core::progress::Silent).unwrap();
        let p = r.paper.unwrap();
        println!("w={w} start={:?} draws={:?} paper: unscored={:?} standard={} avoidance={} reeval={} settled={} disagreements={} start={:?}",
            r.start_score, r.draws_per_side, p.report.unscored_by_mover, p.report.standard_passes, p.report.avoidance_passes,
            p.report.reevaluation_passes, p.report.reevaluation_settled, p.disagreements, p.start);
    }
}

//! Scratch: counts per width and ko enumeration.
use quasar_core::Side;
use retro::scored::solve_exact;
use retro::{Child, PerfectIndex, RetroGame, Reversed};
use woodpush::space::{KoStates, WoodpushSpace};
use woodpush::Position;

fn main() {
    for w in [7u32, 9, 11] {
        for ko in [KoStates::Reachable, KoStates::AnyPush] {
            let sp = WoodpushSpace::new(w, ko).unwrap();
            let n = PerfectIndex::size(&sp);
            let mut bad = 0;
            let mut buf = Vec::new();
            for p in 0..n {
                let pos = sp.unrank(p);
                assert_eq!(sp.rank(&pos), p);
                sp.successors(p, &mut buf);
                let mut mv = Vec::new();
                pos.moves_into(&mut mv);
                for (m, c) in mv.iter().zip(&buf) {
                    let child = pos.after(*m);
                    if !sp.contains(&child) {
                        bad += 1;
                        if bad < 3 {
                            println!(
                                "not contained: {} -> {}",
                                woodpush::notation::position_text(&pos),
                                woodpush::notation::position_text(&child)
                            );
                        }
                    }
                    if let Child::Pos(c) = c {
                        if sp.unrank(*c) != child && sp.contains(&child) {
                            println!("rank mismatch");
                        }
                    }
                }
            }
            let rev = Reversed::new(&sp).unwrap();
            let (ex, _) = solve_exact(&rev, &|_| {}).unwrap();
            // draws by (side, max pieces a side <= 2)
            let mut d = [[0u64; 2]; 2];
            let mut asym = 0;
            for p in 0..n {
                let pos = sp.unrank(p);
                if pos.board.is_over() || ex.score(p) != 0 {
                    continue;
                }
                let small = pos.board.left.count_ones() <= 2 && pos.board.right.count_ones() <= 2;
                d[pos.side.index()][small as usize] += 1;
                let _ = asym;
            }
            let start = sp.rank(&Position::start(w).unwrap());
            println!(
                "w={w} {ko:?} bad={bad} start={} draws all L={} R={} | <=2 a side L={} R={}",
                ex.score(start),
                d[0][0] + d[0][1],
                d[1][0] + d[1][1],
                d[0][1],
                d[1][1]
            );
            let _ = Side::First;
        }
    }
}

//! Match statistics: the Wilson score interval of the win rate (draws as half), the Elo
//! difference with its interval, the likelihood of superiority, and an SPRT stopping rule.

use quasar_core::GameResult;
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};
use std::ops::AddAssign;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one player against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score, a draw counting half; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// One game's result as a tally.
    pub fn of(result: GameResult) -> Tally {
        let mut t = Tally::default();
        match result {
            GameResult::Win => t.wins = 1,
            GameResult::Draw => t.draws = 1,
            GameResult::Loss => t.losses = 1,
        }
        t
    }

    /// The same games seen by the opponent.
    pub fn flip(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

impl AddAssign for Tally {
    /// Adds another tally's games to this one.
    fn add_assign(&mut self, other: Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// A closed interval `[low, high]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// The Wilson score interval of the score at normal quantile `z`, with `n` the number of
/// games and a draw counting half a win; `None` before any game.
pub fn wilson(t: &Tally, z: f64) -> Option<Interval> {
    let p = t.score()?;
    let n = t.games() as f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At a score of 0 or 1 one end is exactly 0 or 1; rounding would leave it a hair inside.
    Some(Interval {
        low: if p == 0.0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        high: if p == 1.0 {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    })
}

/// The Elo difference that predicts the mean score `p` (logistic model): infinite at 0 and 1.
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The mean score that an Elo difference predicts (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a tally with its 95% interval: the ends of the Wilson interval of
/// the score mapped through [`elo_from_score`] (so it is defined even at 100%).
pub fn elo(t: &Tally) -> Option<(f64, Interval)> {
    let p = t.score()?;
    let w = wilson(t, Z95)?;
    Some((
        elo_from_score(p),
        Interval {
            low: elo_from_score(w.low),
            high: elo_from_score(w.high),
        },
    ))
}

/// One player's rating in a [`ratings`] list.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// Elo relative to the anchor (0 for the anchor itself).
    pub elo: f64,
    /// The 95% interval of the Elo relative to the anchor (a point for the anchor).
    pub ci: Interval,
}

/// Maximum-likelihood Elo ratings of every player from all their games (the Bradley-Terry
/// model with draws as half a win, as Ordo and BayesElo fit it): `cross[i][j]` is player
/// i's results against player j. The player `anchor` is rated 0 and the intervals are 95%
/// intervals relative to it, from the curvature of the likelihood. Each pairing that played
/// counts one virtual draw besides its games (BayesElo's prior), so that a perfect score
/// gets a finite rating. `None` when some player is not linked to the anchor by games.
pub fn ratings(cross: &[Vec<Option<Tally>>], anchor: usize) -> Option<Vec<Rating>> {
    let n = cross.len();
    if anchor >= n {
        return None;
    }
    // Games and points of i against j, the virtual draw included.
    let mut games = vec![vec![0.0; n]; n];
    let mut points = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if let Some(t) = cross[i][j].filter(|t| t.games() > 0 && i != j) {
                games[i][j] = t.games() as f64 + 1.0;
                points[i][j] = t.wins as f64 + 0.5 * t.draws as f64 + 0.5;
            }
        }
    }
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let sigmoid = |d: f64| 1.0 / (1.0 + (-d).exp());
    // Newton's method on the concave log-likelihood in natural-log odds units.
    let mut x = vec![0.0; n];
    let mut info = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..100 {
        let mut grad = vec![0.0; free.len()];
        for row in info.iter_mut() {
            row.iter_mut().for_each(|v| *v = 0.0);
        }
        for (a, &i) in free.iter().enumerate() {
            for j in 0..n {
                if games[i][j] == 0.0 {
                    continue;
                }
                let p = sigmoid(x[i] - x[j]);
                grad[a] += points[i][j] - games[i][j] * p;
                let w = games[i][j] * p * (1.0 - p);
                info[a][a] += w;
                if let Some(b) = free.iter().position(|&f| f == j) {
                    info[a][b] -= w;
                }
            }
        }
        let step = solve(&info, &grad)?;
        let mut largest: f64 = 0.0;
        for (a, &i) in free.iter().enumerate() {
            x[i] += step[a];
            largest = largest.max(step[a].abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    let mut out = vec![
        Rating {
            elo: 0.0,
            ci: Interval {
                low: 0.0,
                high: 0.0
            },
        };
        n
    ];
    for (a, &i) in free.iter().enumerate() {
        let mut unit = vec![0.0; free.len()];
        unit[a] = 1.0;
        let variance = solve(&info, &unit)?[a];
        let half = Z95 * variance.max(0.0).sqrt() * scale;
        let elo = x[i] * scale;
        out[i] = Rating {
            elo,
            ci: Interval {
                low: elo - half,
                high: elo + half,
            },
        };
    }
    Some(out)
}

/// Solves `m x = v` by Gaussian elimination with partial pivoting; `None` when `m` is
/// singular (a player without games linking it to the others).
fn solve(m: &[Vec<f64>], v: &[f64]) -> Option<Vec<f64>> {
    let n = v.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(v)
        .map(|(row, &b)| {
            let mut r = row.clone();
            r.push(b);
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        let pivot = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot[c];
                for (x, p) in row[c..].iter_mut().zip(&pivot[c..]) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

/// The likelihood of superiority: the probability that the player is the stronger, from
/// wins and losses only (draws carry no information about which is stronger),
/// `Phi((W - L) / sqrt(W + L))`; one half with no decisive game.
pub fn los(t: &Tally) -> f64 {
    let decisive = (t.wins + t.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    normal_cdf((t.wins as f64 - t.losses as f64) / decisive.sqrt())
}

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// The hypotheses and error rates of a sequential probability ratio test on Elo.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo difference of the null hypothesis (no improvement).
    pub elo0: f64,
    /// Elo difference of the alternative (the improvement sought).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the SPRT concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtDecision {
    /// Neither bound reached: play on.
    Continue,
    /// The lower bound was reached: no gain of `elo1`.
    AcceptH0,
    /// The upper bound was reached: a gain of at least `elo0`.
    AcceptH1,
}

/// A bad SPRT setting; each message shows a good one.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// The hypotheses are not two finite Elo values in order.
    #[error("SPRT needs elo0 < elo1, both finite (got elo0={elo0}, elo1={elo1})")]
    Hypotheses {
        /// The null hypothesis' Elo.
        elo0: f64,
        /// The alternative's Elo.
        elo1: f64,
    },
    /// An error rate outside (0, 0.5).
    #[error("SPRT {name}={value}: it must lie strictly between 0 and 0.5")]
    ErrorRate {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// An item without `=`.
    #[error("bad SPRT setting '{0}': expected key=value, like elo0=0,elo1=50")]
    NotKeyValue(String),
    /// A value that is not a number.
    #[error("bad SPRT value in '{0}': expected a number")]
    NotNumber(String),
    /// A key other than elo0, elo1, alpha and beta.
    #[error("unknown SPRT key '{0}': use elo0, elo1, alpha, beta")]
    UnknownKey(String),
    /// elo0 or elo1 missing.
    #[error("SPRT needs elo0= and elo1=, for example elo0=0,elo1=50")]
    Missing,
}

impl Sprt {
    /// Checks the hypotheses and error rates.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(SprtError::Hypotheses { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtError::ErrorRate { name, value });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The log-likelihood ratio bounds `(lower, upper)`: `ln(beta/(1-alpha))` and
    /// `ln((1-beta)/alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised log-likelihood ratio of the results under the trinomial model with the
    /// normal approximation (as fishtest's logistic-Elo GSPRT computes it):
    /// `N (s1 - s0) (2 s - s0 - s1) / (2 var)` with `s` the mean score, `var` the variance of
    /// one game's score, and `s0, s1` the scores that `elo0, elo1` predict. While the results
    /// have no spread (all wins, say) `var` is that of a win-or-loss game at `(s0 + s1) / 2`.
    pub fn llr(&self, t: &Tally) -> f64 {
        let Some(s) = t.score() else { return 0.0 };
        let n = t.games() as f64;
        let var = (t.wins as f64 * (1.0 - s).powi(2)
            + t.draws as f64 * (0.5 - s).powi(2)
            + t.losses as f64 * s.powi(2))
            / n;
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        // All wins or all losses have no spread; then take the variance of a win-or-loss
        // game at the hypotheses' mean score, so that a one-sided run still decides.
        let var = if var > 0.0 {
            var
        } else {
            let mid = 0.5 * (s0 + s1);
            mid * (1.0 - mid)
        };
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The decision for these results.
    pub fn decide(&self, t: &Tally) -> SprtDecision {
        let llr = self.llr(t);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

impl std::str::FromStr for Sprt {
    type Err = SprtError;

    /// Reads `elo0=0,elo1=50[,alpha=0.05][,beta=0.05]`.
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(item.into()))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| SprtError::NotNumber(item.into()))?;
            match k.trim() {
                "elo0" => elo0 = Some(v),
                "elo1" => elo1 = Some(v),
                "alpha" => alpha = v,
                "beta" => beta = v,
                other => return Err(SprtError::UnknownKey(other.into())),
            }
        }
        match (elo0, elo1) {
            (Some(e0), Some(e1)) => Sprt::new(e0, e1, alpha, beta),
            _ => Err(SprtError::Missing),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Expected values were computed independently with Python 3's `math` and
    //! `statistics.NormalDist` from the textbook formulas (see each test).
    use super::*;

    fn t(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// A cross table from `(i, j, tally of i against j)` entries.
    fn cross(n: usize, entries: &[(usize, usize, Tally)]) -> Vec<Vec<Option<Tally>>> {
        let mut c = vec![vec![None; n]; n];
        for &(i, j, t) in entries {
            c[i][j] = Some(t);
            c[j][i] = Some(t.flip());
        }
        c
    }

    #[test]
    fn two_players_rate_as_their_score_says() {
        // 74 - 26 plus the virtual draw: 74.5 of 101; Elo 400 log10(p / (1 - p)), and the
        // interval from the binomial variance of the log odds, 1 / (n p (1 - p)).
        let r = ratings(&cross(2, &[(0, 1, t(74, 0, 26))]), 0).unwrap();
        let p: f64 = 74.5 / 101.0;
        let elo = 400.0 * (p / (1.0 - p)).log10();
        let half = Z95 * 400.0 / std::f64::consts::LN_10 / (101.0 * p * (1.0 - p)).sqrt();
        assert_eq!(r[0].elo, 0.0);
        assert!(close(r[1].elo, -elo, 1e-6), "{r:?} {elo}");
        assert!(close(r[1].ci.high - r[1].elo, half, 1e-6), "{r:?} {half}");
        // Anchored to the other player, the same difference the other way.
        let r = ratings(&cross(2, &[(0, 1, t(74, 0, 26))]), 1).unwrap();
        assert!(close(r[0].elo, elo, 1e-6));
    }

    #[test]
    fn three_players_rate_transitively_and_perfect_scores_stay_finite() {
        // Odds 3:1, 3:1 and 9:1 agree with ratings 0, -190.8, -381.7 (400 log10 3 apart).
        let c = cross(
            3,
            &[
                (0, 1, t(3000, 0, 1000)),
                (1, 2, t(3000, 0, 1000)),
                (0, 2, t(9000, 0, 1000)),
            ],
        );
        let r = ratings(&c, 0).unwrap();
        let step = 400.0 * 3f64.log10();
        assert!(close(r[1].elo, -step, 0.2), "{r:?}");
        assert!(close(r[2].elo, -2.0 * step, 0.2), "{r:?}");
        assert!(r[1].ci.low < r[1].elo && r[1].elo < r[1].ci.high);
        let perfect = ratings(&cross(2, &[(0, 1, t(10, 0, 0))]), 0).unwrap();
        assert!(
            perfect[1].elo.is_finite() && perfect[1].elo < -300.0,
            "{perfect:?}"
        );
        // A player linked to nobody by games has no rating.
        assert!(ratings(&cross(3, &[(0, 1, t(1, 0, 1))]), 0).is_none());
    }

    #[test]
    fn wilson_matches_the_textbook() {
        // Python: z=NormalDist().inv_cdf(0.975); p=292/400; n=400;
        // c=(p+z*z/(2n))/(1+z*z/n); h=z/(1+z*z/n)*sqrt(p*(1-p)/n+z*z/(4n*n))
        let w = wilson(&t(292, 0, 108), Z95).unwrap();
        assert!(close(w.low, 0.684457128729, 1e-8), "{w:?}");
        assert!(close(w.high, 0.771167215877, 1e-8), "{w:?}");
        // 7 wins, 2 draws, 1 loss: p = 0.8, n = 10.
        let w = wilson(&t(7, 2, 1), Z95).unwrap();
        assert!(close(w.low, 0.490162471537, 1e-8), "{w:?}");
        assert!(close(w.high, 0.943317848546, 1e-8), "{w:?}");
        // All wins: the upper end is exactly 1, the lower n/(n+z^2).
        let w = wilson(&t(20, 0, 0), Z95).unwrap();
        assert!(close(w.high, 1.0, 1e-12));
        assert!(close(w.low, 20.0 / (20.0 + Z95 * Z95), 1e-12));
        assert!(wilson(&t(0, 0, 0), Z95).is_none());
    }

    #[test]
    fn elo_matches_the_logistic_formula() {
        // 75% is 400*log10(3) = 190.848501887865 Elo.
        assert!(close(elo_from_score(0.75), 190.848501887865, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(score_from_elo(190.848501887865), 0.75, 1e-12));
        let (e, ci) = elo(&t(292, 0, 108)).unwrap();
        // Python: -400*log10(1/p-1) at p=0.73 and at the Wilson ends above.
        assert!(close(e, 172.783638385, 1e-6), "{e}");
        assert!(close(ci.low, 134.515151214, 1e-5), "{ci:?}");
        assert!(close(ci.high, 211.052125555, 1e-5), "{ci:?}");
        let (e, ci) = elo(&t(10, 0, 0)).unwrap();
        assert_eq!(e, f64::INFINITY);
        assert_eq!(ci.high, f64::INFINITY);
        // Python: the Wilson lower end n/(n+z^2) at n=10, as Elo.
        assert!(close(ci.low, 166.201527184, 1e-6), "{ci:?}");
    }

    #[test]
    fn los_matches_the_normal_distribution() {
        // Python: NormalDist().cdf((w-l)/sqrt(w+l)).
        assert!(close(los(&t(292, 5, 108)), 1.0, 1e-15));
        assert!(close(los(&t(197, 0, 203)), 0.382088577811, 1e-8));
        assert!(close(los(&t(12, 3, 8)), 0.814453315239, 1e-8));
        assert!(close(los(&t(0, 4, 0)), 0.5, 0.0));
        // The continued-fraction branch: (W-L)/sqrt(W+L) = 30/sqrt(50) = 4.2426 > 3*sqrt(2).
        assert!(close(1.0 - los(&t(40, 0, 10)), 1.10452485e-5, 1e-13));
        // The lower tail of the same.
        assert!(close(los(&t(10, 0, 40)), 1.10452485e-5, 1e-13));
    }

    #[test]
    fn z95_is_the_normal_quantile() {
        assert!(close(Normal::standard().inverse_cdf(0.975), Z95, 1e-9));
    }

    #[test]
    fn tallies_add_up() {
        let mut sum = Tally::of(GameResult::Win);
        sum += Tally::of(GameResult::Draw);
        sum += t(2, 0, 3);
        assert_eq!(sum, t(3, 1, 3));
        assert_eq!(
            Tally::of(GameResult::Loss).flip(),
            Tally::of(GameResult::Win)
        );
    }

    #[test]
    fn normal_cdf_is_accurate_across_the_range() {
        // Python: NormalDist().cdf(x).
        let cases = [
            (-6.0, 9.865876449133e-10),
            (0.0, 0.5),
            (-2.5, 0.006209665325776),
            (-1.0, 0.158655253931457),
            (0.3, 0.617911422188953),
            (1.959963984540054, 0.975),
            (4.0, 0.999968328758167),
        ];
        for (x, want) in cases {
            let got = normal_cdf(x);
            assert!(
                close(got, want, 1e-12 + 1e-10 * want),
                "Phi({x}) = {got}, want {want}"
            );
        }
    }

    #[test]
    fn sprt_llr_matches_a_second_implementation() {
        // Python (fishtest's LLR_logistic):
        // s0,s1 = [1/(1+10**(-e/400)) for e in (0,50)]; N=W+D+L; s=(W+D/2)/N;
        // var=(W*(1-s)**2+D*(0.5-s)**2+L*s*s)/N; N*(s1-s0)*(2*s-s0-s1)/(2*var)
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        assert!(close(sprt.llr(&t(60, 10, 40)), 1.980507137084, 1e-9));
        assert!(close(sprt.llr(&t(40, 10, 60)), -4.545558679078, 1e-9));
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944438979, 1e-9) && close(hi, 2.944438979, 1e-9));
        assert_eq!(sprt.decide(&t(60, 10, 40)), SprtDecision::Continue);
        assert_eq!(sprt.decide(&t(40, 10, 60)), SprtDecision::AcceptH0);
        assert_eq!(sprt.decide(&t(292, 0, 108)), SprtDecision::AcceptH1);
        // No spread: var = m(1-m) with m = (s0+s1)/2; Python gives these.
        assert!(
            close(sprt.llr(&t(30, 0, 0)), 4.001805545, 1e-8),
            "{}",
            sprt.llr(&t(30, 0, 0))
        );
        assert!(
            close(sprt.llr(&t(0, 0, 20)), -3.078525743, 1e-8),
            "{}",
            sprt.llr(&t(0, 0, 20))
        );
    }

    #[test]
    fn sprt_text_parses_and_refuses() {
        let s: Sprt = "elo0=0,elo1=50".parse().unwrap();
        assert_eq!(s, Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap());
        assert!("elo0=10,elo1=5".parse::<Sprt>().is_err());
        assert!("elo1=5".parse::<Sprt>().is_err());
        assert!("elo0=0,elo1=5,alpha=0.7".parse::<Sprt>().is_err());
        assert!("elo0=0,elo1=5,gamma=1".parse::<Sprt>().is_err());
    }
}

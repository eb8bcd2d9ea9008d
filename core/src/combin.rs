//! Binomial coefficients and the colex rank of a set of bits, among all sets of its size or
//! among the subsets of a domain mask: the combinatorial number system the games' perfect
//! indexes are built on (one table, shared, so no game keeps its own copy).

use crate::bits::{Bits, Bmi2};

/// The largest `n` with a row in [`BINOMIAL`]: every subset of a 64-bit board.
pub const MAX_N: usize = 64;

/// `BINOMIAL[n][k]` = C(n, k) for `n, k <= 64` (0 when `k > n`); every entry fits a `u64`
/// (the largest, C(64, 32), is about 1.8e18).
pub static BINOMIAL: [[u64; MAX_N + 1]; MAX_N + 1] = table();

const fn table() -> [[u64; MAX_N + 1]; MAX_N + 1] {
    let mut t = [[0u64; MAX_N + 1]; MAX_N + 1];
    let mut n = 0;
    while n <= MAX_N {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k), 0 when `k > n`; `n` at most 64.
#[inline]
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// The colex rank of `set` among the sets of as many bits: the sum of C(c, j) over its
/// `j`-th lowest set bit `c` (`j` from 1).
#[inline]
pub fn colex_rank(mut set: u64) -> u64 {
    let mut r = 0;
    let mut j = 1;
    while set != 0 {
        r += BINOMIAL[set.trailing_zeros() as usize][j];
        set &= set - 1;
        j += 1;
    }
    r
}

/// The set of `k` bits below bit `n` whose colex rank is `r` (`r < C(n, k)`).
#[inline]
pub fn colex_unrank(mut r: u64, k: u32, n: u32) -> u64 {
    let mut set = 0u64;
    let mut c = n as usize;
    for j in (1..=k as usize).rev() {
        // The largest c with C(c, j) <= r.
        c -= 1;
        while BINOMIAL[c][j] > r {
            c -= 1;
        }
        r -= BINOMIAL[c][j];
        set |= 1 << c;
    }
    set
}

/// The colex rank of `set` among the subsets of `domain` with as many members: the rank of
/// `set` once the cells of `domain` are renumbered 0, 1, 2, ... from the lowest, so equal to
/// `colex_rank(pext(set, domain))` (`set` must lie within `domain`).
#[inline]
pub fn colex_rank_in(set: u64, domain: u64) -> u64 {
    match Bmi2::detect() {
        // One instruction packs the set; the portable pext would walk the whole domain.
        Some(b) => colex_rank(b.pext(set, domain)),
        None => colex_rank_in_portable(set, domain),
    }
}

/// [`colex_rank_in`] without BMI2: each member's number within the domain counted directly.
#[inline]
fn colex_rank_in_portable(mut set: u64, domain: u64) -> u64 {
    let mut r = 0;
    let mut j = 1;
    while set != 0 {
        let below = (set & set.wrapping_neg()) - 1;
        r += BINOMIAL[(domain & below).count_ones() as usize][j];
        set &= set - 1;
        j += 1;
    }
    r
}

/// The subset of `domain` with `k` members and colex rank `r` among them (`r` below
/// C(|domain|, k)): the inverse of [`colex_rank_in`].
#[inline]
pub fn colex_unrank_in(r: u64, k: u32, domain: u64) -> u64 {
    match Bmi2::detect() {
        Some(b) => b.pdep(colex_unrank(r, k, domain.count_ones()), domain),
        None => colex_unrank_in_portable(r, k, domain),
    }
}

/// [`colex_unrank_in`] without BMI2: one pass down the domain's cells.
#[inline]
fn colex_unrank_in_portable(mut r: u64, k: u32, domain: u64) -> u64 {
    let mut set = 0u64;
    let mut d = domain;
    let mut p = domain.count_ones() as usize;
    for j in (1..=k as usize).rev() {
        // The largest p with C(p, j) <= r, walking the domain's cells down from the top
        // (cell p of the domain is then the highest left).
        loop {
            p -= 1;
            let top = 63 - d.leading_zeros();
            d &= !(1u64 << top);
            let c = BINOMIAL[p][j];
            if c <= r {
                r -= c;
                set |= 1u64 << top;
                break;
            }
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Portable;

    /// C(n, k) by the multiplicative formula, independent of the table's recurrence.
    fn direct(n: u64, k: u64) -> u128 {
        (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
    }

    #[test]
    fn the_table_equals_the_multiplicative_formula() {
        for n in 0..=64u32 {
            for k in 0..=64u32 {
                let want = if k > n { 0 } else { direct(n as u64, k as u64) };
                assert_eq!(binomial(n, k) as u128, want, "C({n}, {k})");
            }
        }
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
    }

    #[test]
    fn colex_ranks_every_small_set_once_in_order() {
        // Every 3-set of 10 bits, enumerated in colex order (by value of the mask, since
        // colex order is the numeric order of the masks), gets ranks 0, 1, 2, ...
        let sets: Vec<u64> = (0u64..1 << 10).filter(|m| m.count_ones() == 3).collect();
        assert_eq!(sets.len() as u64, binomial(10, 3));
        for (r, &s) in sets.iter().enumerate() {
            assert_eq!(colex_rank(s), r as u64);
            assert_eq!(colex_unrank(r as u64, 3, 10), s);
        }
    }

    #[test]
    fn colex_round_trips_on_wide_sets() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            x = crate::splitmix64(x);
            let k = x.count_ones();
            assert_eq!(colex_unrank(colex_rank(x), k, 64), x);
        }
    }

    #[test]
    fn ranks_within_a_domain_are_the_ranks_of_the_packed_sets() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..2000 {
            x = crate::splitmix64(x);
            let domain = x & crate::splitmix64(x ^ 0x55);
            let set = domain & crate::splitmix64(x ^ 0xAA);
            let packed = Portable.pext(set, domain);
            let r = colex_rank_in(set, domain);
            assert_eq!(r, colex_rank(packed), "{set:#x} in {domain:#x}");
            assert_eq!(colex_rank_in_portable(set, domain), r);
            let k = set.count_ones();
            assert_eq!(colex_unrank_in_portable(r, k, domain), set);
            assert!(r < binomial(domain.count_ones(), set.count_ones()));
            assert_eq!(colex_unrank_in(r, set.count_ones(), domain), set);
        }
    }

    #[test]
    fn every_subset_of_a_small_domain_has_its_own_rank() {
        let domain = 0b1011_0110_1101u64;
        let n = domain.count_ones();
        for k in 0..=n {
            let mut seen = vec![false; binomial(n, k) as usize];
            for packed in (0u64..1 << n).filter(|m| m.count_ones() == k) {
                let set = Portable.pdep(packed, domain);
                let r = colex_rank_in(set, domain) as usize;
                assert!(!seen[r], "rank {r} twice");
                seen[r] = true;
                assert_eq!(colex_unrank_in(r as u64, k, domain), set);
                assert_eq!(colex_rank_in_portable(set, domain), r as u64);
                assert_eq!(colex_unrank_in_portable(r as u64, k, domain), set);
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}

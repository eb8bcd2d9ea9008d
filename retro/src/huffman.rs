//! Canonical Huffman codes of limited length: built from symbol counts, stored as one code
//! length a symbol, and decoded by one table lookup a symbol (the table has an entry for
//! every bit pattern of the longest code, so no code needs a second step).

/// The longest code: a decoding table of 2^11 entries of 4 bytes stays in the first-level
/// cache, where each symbol's lookup is one step of a dependent chain.
pub const MAX_LEN: u32 = 11;

/// Why code lengths are not a code.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CodeError {
    /// A length past [`MAX_LEN`].
    #[error("a code length of {0} bits, past the longest of {MAX_LEN}")]
    TooLong(u8),
    /// The lengths claim more codes than there are bit patterns.
    #[error("the code lengths describe no prefix code")]
    Oversubscribed,
}

/// Code lengths (0: the symbol is not used) for `counts`, none longer than [`MAX_LEN`]:
/// Huffman's lengths, those past the limit shortened as JPEG's coder does (Annex K.3 of
/// ITU T.81), which keeps the code complete. A single used symbol gets one bit.
pub fn lengths(counts: &[u64]) -> Vec<u8> {
    let used: Vec<usize> = (0..counts.len()).filter(|&s| counts[s] > 0).collect();
    let mut out = vec![0u8; counts.len()];
    match used.len() {
        0 => return out,
        1 => {
            out[used[0]] = 1;
            return out;
        }
        _ => {}
    }
    // Huffman's merges over (count, node); a node's parent is recorded to find depths.
    let mut parent: Vec<usize> = vec![usize::MAX; used.len()];
    let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize)>> = used
        .iter()
        .enumerate()
        .map(|(k, &s)| std::cmp::Reverse((counts[s], k)))
        .collect();
    while heap.len() > 1 {
        let std::cmp::Reverse((a, x)) = heap.pop().expect("two nodes");
        let std::cmp::Reverse((b, y)) = heap.pop().expect("two nodes");
        let node = parent.len();
        parent.push(usize::MAX);
        parent[x] = node;
        parent[y] = node;
        heap.push(std::cmp::Reverse((a + b, node)));
    }
    let mut depth = vec![0u32; parent.len()];
    for n in (0..parent.len()).rev() {
        if parent[n] != usize::MAX {
            depth[n] = depth[parent[n]] + 1;
        }
    }
    // Counts of codes by length, the long ones folded up to the limit.
    let longest = used.len().max(64);
    let mut per_len = vec![0u64; longest + 1];
    for k in 0..used.len() {
        per_len[depth[k] as usize] += 1;
    }
    let limit = MAX_LEN as usize;
    for len in (limit + 1..per_len.len()).rev() {
        while per_len[len] > 0 {
            let mut j = len - 2;
            while per_len[j] == 0 {
                j -= 1;
            }
            per_len[len] -= 2;
            per_len[len - 1] += 1;
            per_len[j + 1] += 2;
            per_len[j] -= 1;
        }
    }
    // The shortest codes to the most frequent symbols.
    let mut by_count = used.clone();
    by_count.sort_by_key(|&s| (std::cmp::Reverse(counts[s]), s));
    let mut it = by_count.into_iter();
    for (len, &n) in per_len.iter().enumerate().take(limit + 1) {
        for _ in 0..n {
            out[it.next().expect("one length a symbol")] = len as u8;
        }
    }
    out
}

/// Each symbol's canonical code (the code in the low `len` bits) from its length: shorter
/// codes first, then by symbol.
pub fn codes(lengths: &[u8]) -> Result<Vec<(u32, u8)>, CodeError> {
    if let Some(&l) = lengths.iter().find(|&&l| l as u32 > MAX_LEN) {
        return Err(CodeError::TooLong(l));
    }
    let mut out = vec![(0u32, 0u8); lengths.len()];
    let mut next = 0u32;
    for len in 1..=MAX_LEN as u8 {
        for (s, &l) in lengths.iter().enumerate() {
            if l == len {
                if next >= 1 << len {
                    return Err(CodeError::Oversubscribed);
                }
                out[s] = (next, len);
                next += 1;
            }
        }
        next <<= 1;
    }
    Ok(out)
}

/// The decoding table: for each pattern of [`MAX_LEN`] bits, the symbol whose code starts
/// it and that code's length (`None` where no code does: damaged data).
pub fn decode_table(lengths: &[u8]) -> Result<Vec<Option<(u16, u8)>>, CodeError> {
    let mut table = vec![None; 1 << MAX_LEN];
    for (s, (code, len)) in codes(lengths)?.into_iter().enumerate() {
        if len == 0 {
            continue;
        }
        let shift = MAX_LEN - len as u32;
        let first = (code << shift) as usize;
        table[first..first + (1 << shift)].fill(Some((s as u16, len)));
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kraft(lengths: &[u8]) -> f64 {
        lengths
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| 0.5f64.powi(l as i32))
            .sum()
    }

    #[test]
    fn lengths_are_huffmans_within_the_limit() {
        // Counts 1, 1, 2, 4: Huffman gives 3, 3, 2, 1.
        assert_eq!(lengths(&[1, 1, 2, 4]), vec![3, 3, 2, 1]);
        assert_eq!(lengths(&[0, 5, 0]), vec![0, 1, 0]);
        assert_eq!(lengths(&[0, 0]), vec![0, 0]);
        // Fibonacci counts make a Huffman code as deep as the symbols are many; the limit
        // folds it, and the code stays complete.
        let mut fib = vec![1u64, 1];
        while fib.len() < 40 {
            fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
        }
        let l = lengths(&fib);
        assert!(l.iter().all(|&l| (1..=MAX_LEN as u8).contains(&l)));
        assert_eq!(kraft(&l), 1.0);
        // More frequent symbols never get longer codes.
        for s in 1..fib.len() {
            assert!(l[s] <= l[s - 1]);
        }
    }

    #[test]
    fn every_code_decodes_to_its_symbol() {
        let counts: Vec<u64> = (0..200).map(|s| (s * 7919 % 1000) as u64).collect();
        let l = lengths(&counts);
        let table = decode_table(&l).unwrap();
        for (s, (code, len)) in codes(&l).unwrap().into_iter().enumerate() {
            if len == 0 {
                assert_eq!(counts[s], 0);
                continue;
            }
            let at = (code << (MAX_LEN - len as u32)) as usize;
            assert_eq!(table[at], Some((s as u16, len)));
        }
    }

    #[test]
    fn damaged_lengths_are_refused() {
        assert_eq!(codes(&[12]), Err(CodeError::TooLong(12)));
        assert_eq!(codes(&[1, 1, 1]), Err(CodeError::Oversubscribed));
        // An incomplete code is a code; its unused patterns decode to nothing.
        let t = decode_table(&[2, 2, 2]).unwrap();
        assert!(t[(3 << (MAX_LEN - 2))..].iter().all(|e| e.is_none()));
    }
}

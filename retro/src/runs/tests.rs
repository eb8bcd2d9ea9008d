use super::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Values in runs of random lengths (some past 63 and past 64 + 127), a share of them
/// don't-care.
fn sample(rng: &mut Xoshiro256PlusPlus, len: u64, dont_care: f64) -> Vec<Option<u32>> {
    let mut out = Vec::new();
    while (out.len() as u64) < len {
        let v = rng.random_range(0..4u32);
        let n = match rng.random_range(0..4) {
            0 => rng.random_range(1..4),
            1 => rng.random_range(60..70),
            2 => rng.random_range(180..200),
            _ => rng.random_range(1..5000),
        };
        for _ in 0..n {
            out.push((!rng.random_bool(dont_care)).then_some(v));
        }
    }
    out.truncate(len as usize);
    out
}

#[test]
fn every_cared_value_reads_back_and_the_parts_check() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for (len, block, dont_care) in [
        (0, 64, 0.0),
        (1, 64, 0.0),
        (64, 64, 0.5),
        (65, 64, 0.0),
        (100_000, 4096, 0.0),
        (100_001, 1024, 0.3),
        (50_000, 1 << 16, 0.9),
        (10_000, 64, 1.0),
    ] {
        let values = sample(&mut rng, len, dont_care);
        let a = RunArray::encode(len, block, |i| values[i as usize]).unwrap();
        assert_eq!(a.len(), len);
        for (i, v) in values.iter().enumerate() {
            if let Some(v) = v {
                assert_eq!(a.get(i as u64), *v, "{len} {block} at {i}");
            }
        }
        let b = RunArray::from_parts(len, block, a.starts().to_vec(), a.bytes().to_vec(), None);
        assert_eq!(b.as_ref(), Ok(&a));
        let c = a.entropy_coded();
        for (i, v) in values.iter().enumerate() {
            if let Some(v) = v {
                assert_eq!(c.get(i as u64,), *v, "coded: {len} {block} at {i}");
            }
        }
        let lengths = c.code_lengths().map(|l| l.to_vec());
        let d = RunArray::from_parts(len, block, c.starts().to_vec(), c.bytes().to_vec(), lengths);
        assert_eq!(d.as_ref(), Ok(&c));
    }
}

#[test]
fn dont_cares_join_the_run_around_them() {
    // 1 1 ? ? 1 2 ? 2 in one block: two runs, two bytes.
    let values = [
        Some(1),
        Some(1),
        None,
        None,
        Some(1),
        Some(2),
        None,
        Some(2),
    ];
    let a = RunArray::encode(8, 64, |i| values[i as usize]).unwrap();
    assert_eq!(a.bytes(), &[1 << 6 | 4, 2 << 6 | 2]);
    // A block of don't-cares alone is one run: three full blocks of 64 (an escape and a
    // length byte each) and one of 8.
    let a = RunArray::encode(200, 64, |_| None).unwrap();
    assert_eq!(a.bytes().len(), 3 * 2 + 1);
    assert_eq!(a.stored_bytes(), 7 + 8 * 5);
}

#[test]
fn unchecked_parts_check_each_block_on_demand() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let (len, block) = (20_000u64, 1024u64);
    let values = sample(&mut rng, len, 0.0);
    let c = RunArray::encode(len, block, |i| values[i as usize])
        .unwrap()
        .entropy_coded();
    let code = RunCode::from_lengths(c.code_lengths().unwrap().to_vec()).unwrap();
    let parts = |bytes: Vec<u8>| {
        RunArray::from_coded_parts_unchecked(len, block, c.starts().to_vec(), bytes, &code)
    };
    let a = parts(c.bytes().to_vec()).unwrap();
    assert_eq!(a, c);
    assert!((0..a.blocks_count()).all(|b| a.check_block(b)));
    // Block 5's runs damaged: it alone fails its check; the others read right.
    let mut bytes = c.bytes().to_vec();
    let (lo, hi) = (c.starts()[5] as usize, c.starts()[6] as usize);
    bytes[lo..hi].fill(0xFF);
    let d = parts(bytes).unwrap();
    let bad: Vec<u64> = (0..d.blocks_count())
        .filter(|&b| !d.check_block(b))
        .collect();
    assert_eq!(bad, [5]);
    for i in (0..len).filter(|i| i / block != 5).step_by(7) {
        assert_eq!(Some(d.get(i)), values[i as usize]);
    }
    // The index is still checked whole.
    let mut starts = c.starts().to_vec();
    starts.swap(3, 4);
    let e = RunArray::from_coded_parts_unchecked(len, block, starts, c.bytes().to_vec(), &code);
    assert!(matches!(e, Err(RunsError::Index(_))));
}

#[test]
fn damaged_parts_are_refused() {
    let values: Vec<Option<u32>> = (0..1000).map(|i| Some((i / 70) % 3)).collect();
    let a = RunArray::encode(1000, 256, |i| values[i as usize]).unwrap();
    let (starts, bytes) = (a.starts().to_vec(), a.bytes().to_vec());
    assert_eq!(
        RunArray::from_parts(1000, 100, starts.clone(), bytes.clone(), None),
        Err(RunsError::Block(100))
    );
    assert!(RunArray::from_parts(1001, 256, starts.clone(), bytes.clone(), None).is_err());
    assert!(RunArray::from_parts(2000, 256, starts.clone(), bytes.clone(), None).is_err());
    let mut cut = bytes.clone();
    cut.pop();
    assert!(RunArray::from_parts(1000, 256, starts.clone(), cut, None).is_err());
    let mut longer = bytes.clone();
    longer[0] = longer[0].wrapping_add(1);
    assert_eq!(
        RunArray::from_parts(1000, 256, starts.clone(), longer, None),
        Err(RunsError::Runs(0))
    );
    let mut swapped = starts.clone();
    swapped.swap(1, 2);
    assert!(RunArray::from_parts(1000, 256, swapped, bytes.clone(), None).is_err());
    // An endless length: every continuation bit set.
    let endless = vec![ESCAPE; 1]
        .into_iter()
        .chain([0xFF; 20])
        .collect::<Vec<u8>>();
    assert!(RunArray::from_parts(64, 64, vec![0, 21], endless, None).is_err());
}

#[test]
fn coded_runs_are_smaller_and_damage_is_refused() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let values = sample(&mut rng, 200_000, 0.2);
    let a = RunArray::encode(200_000, 1024, |i| values[i as usize]).unwrap();
    let c = a.entropy_coded();
    assert!(c.bytes().len() < a.bytes().len());
    assert_eq!(c.entropy_coded(), c);
    let (starts, bytes) = (c.starts().to_vec(), c.bytes().to_vec());
    let lengths = c.code_lengths().unwrap().to_vec();
    let parts =
        |s: Vec<u64>, b: Vec<u8>, l: Vec<u8>| RunArray::from_parts(200_000, 1024, s, b, Some(l));
    assert!(parts(starts.clone(), bytes.clone(), lengths.clone()).is_ok());
    // Each block's end a byte early: its runs read past it.
    for b in 1..starts.len() - 1 {
        let mut s = starts.clone();
        s[b] -= 1;
        assert_eq!(
            parts(s, bytes.clone(), lengths.clone()),
            Err(RunsError::Runs(b as u64 - 1))
        );
    }
    // Lengths of another number of symbols, or of no prefix code.
    assert_eq!(
        parts(starts.clone(), bytes.clone(), lengths[1..].to_vec()),
        Err(RunsError::CodeSize(lengths.len() - 1))
    );
    let mut over = lengths.clone();
    over.iter_mut().for_each(|l| *l = 1);
    assert!(matches!(
        parts(starts.clone(), bytes.clone(), over),
        Err(RunsError::Code(_))
    ));
    // Runs as bytes read as a code, and a code cut short.
    assert!(parts(a.starts().to_vec(), a.bytes().to_vec(), lengths.clone()).is_err());
    let mut cut = bytes.clone();
    cut.pop();
    assert!(parts(starts, cut, lengths).is_err());
}

#[test]
fn one_code_serves_many_arrays_and_is_shared() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let one = sample(&mut rng, 50_000, 0.0);
    let other = sample(&mut rng, 30_000, 0.5);
    let a = RunArray::encode(50_000, 256, |i| one[i as usize]).unwrap();
    let b = RunArray::encode(30_000, 512, |i| other[i as usize]).unwrap();
    // A code fitted to `a` alone codes `b` too, every value read back.
    let mut counts = RunCounts::default();
    counts.add(&a);
    let code = counts.code();
    let bc = b.entropy_coded_with(&code);
    for (i, v) in other.iter().enumerate() {
        if let Some(v) = v {
            assert_eq!(bc.get(i as u64), *v);
        }
    }
    // Counting a coded array counts its runs as the array in bytes.
    let mut again = RunCounts::default();
    again.add(&a.entropy_coded());
    assert_eq!(again.0, counts.0);
    // Arrays read back with the same lengths share one decoding table.
    let ac = a.entropy_coded_with(&code);
    let parts = |x: &RunArray, len, block| {
        let l = x.code_lengths().map(|l| l.to_vec());
        RunArray::from_parts(len, block, x.starts().to_vec(), x.bytes().to_vec(), l).unwrap()
    };
    let (x, y) = (parts(&ac, 50_000, 256), parts(&bc, 30_000, 512));
    assert!(Arc::ptr_eq(
        x.code.as_ref().unwrap(),
        y.code.as_ref().unwrap()
    ));
    assert_eq!(ac.entropy_coded_with(&code), ac);
}

#[test]
fn a_block_read_apart_from_its_array_decodes_alike() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let values = sample(&mut rng, 10_000, 0.3);
    let a = RunArray::encode(10_000, 512, |i| values[i as usize])
        .unwrap()
        .entropy_coded();
    let code = RunCode::from_lengths(a.code_lengths().unwrap().to_vec()).unwrap();
    for (b, w) in a.starts().windows(2).enumerate() {
        // The block's bytes alone, at an offset, with the pad after them.
        let mut alone = vec![0xA5u8; 3];
        alone.extend_from_slice(&a.bytes()[w[0] as usize..w[1] as usize]);
        let end = alone.len() as u64;
        alone.extend([0; RUN_PAD]);
        // The last block holds what is left.
        let n = 512.min(10_000 - b as u64 * 512);
        assert!(code.check_block(&alone, 3, end, n), "block {b}");
        assert!(!code.check_block(&alone, 3, end - 1, n), "block {b}");
        for left in 0..n {
            let i = b as u64 * 512 + left;
            assert_eq!(code.get(&alone, 3, left), a.get(i), "position {i}");
        }
    }
}

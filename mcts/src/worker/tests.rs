use super::*;

#[test]
fn keep_one_loss_keeps_every_other_child_and_the_first_longest_loss() {
    let kids = |proofs: &[(Proof, u16)]| -> Vec<NewChild<usize>> {
        proofs
            .iter()
            .enumerate()
            .map(|(i, &(p, plies))| NewChild::new(i, p, plies))
            .collect()
    };
    let kept = |v: Vec<NewChild<usize>>| -> Vec<usize> { v.iter().map(|k| k.mv).collect() };
    let mut v = kids(&[
        (Proof::Loss, 3),
        (Proof::Unknown, 0),
        (Proof::Loss, 7),
        (Proof::Draw, 4),
        (Proof::Loss, 7),
        (Proof::Win, 5),
        (Proof::Loss, 1),
    ]);
    keep_one_loss(&mut v);
    assert_eq!(kept(v), vec![1, 2, 3, 5]);
    // Every child lost: the longest stays, so the parent's proof and plies are kept.
    let mut v = kids(&[(Proof::Loss, 2), (Proof::Loss, 9), (Proof::Loss, 4)]);
    keep_one_loss(&mut v);
    assert_eq!(kept(v), vec![1]);
    let mut v = kids(&[(Proof::Unknown, 0), (Proof::Win, 1)]);
    keep_one_loss(&mut v);
    assert_eq!(kept(v), vec![0, 1]);
}

#!/usr/bin/env bash
# Checkers positions of 7 to 10 pieces proven over the databases of at most 6 pieces (the
# checkers table of "What has been solved?" in docs/results.md): builds the databases once
# (about 16 min on 2 quiet cores, 1.3 GB), then for each position a proof capped at CAP
# seconds, and a check of every proof found. Finished databases are reused and a stopped
# build resumes; each search keeps a checkpoint (OUT/NAME.ckpt, saved every minute and when
# the cap stops it), so running the script again goes on where each search stopped.
# Usage: experiments/checkers-proofs.sh [OUT_DIR] [CAP]   (defaults: exp-checkers 300)
set -uo pipefail
out=${1:-exp-checkers}
cap=${2:-300}
q=${QUASAR:-target/release/quasar}
mkdir -p "$out"
"$q" tablebase build --game checkers --max-pieces 6 -o "$out/db6" --quiet || exit 1
i=0
while read -r name fen; do
  i=$((i + 1))
  echo "== $name $fen"
  timeout --preserve-status "$cap" "$q" solve --game checkers --position "$fen" \
    --tb "$out/db6" --memory 1024 --quiet --out "$out/$name.proof" \
    --checkpoint "$out/$name.ckpt" --checkpoint-every 60
  [ -s "$out/$name.proof" ] && "$q" solve --game checkers --check "$out/$name.proof" --tb "$out/db6"
done <<'POSITIONS'
sturges-10 B:W29,17,13,K7:B21,K19,15,10,6,5
bell-10 B:W26,23,21,20,19:B12,11,10,9,3
cresswell-10 B:W26,25,21,20,16:B14,8,7,5,3
random-7a B:W8,11,17:B4,21,K30,K32
random-7b B:WK1,K8,29:BK3,K4,K10,K20
random-8a B:WK3,K17,K21,29:B13,K23,24,K26
random-8b B:WK4,K16,18,19:B3,13,14,K30
random-9 W:WK2,8,K19,K25:B5,17,K23,27,K32
draw-7 B:W16,23,31:B3,10,17,19
draw-8 B:W11,17,20,32:B3,7,19,21
POSITIONS

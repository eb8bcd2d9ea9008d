#!/usr/bin/env bash
# Trains the learned evaluation of one Breakthrough board as the shipped models were
# trained: self-play of the default player without a model, a fit, a second generation
# played with the first model, and a fit on both generations.
#
#   experiments/train-breakthrough.sh BOARD OUT [SHARDS] [SIMS] [TABLE]
#
# BOARD is 6x6 or 8x8; OUT a folder (created) that receives the shards and the models;
# SHARDS the number of shards a generation (of 50 games; default 40); SIMS the simulations
# a move (default 3000 on 6x6, 2000 on 8x8); TABLE a table whose positions are labelled
# with their exact values (6x6: `quasar tablebase build --board 6x6 --rows 4 -o DIR`).
# Every step resumes: run it again after a stop and the finished shards and epochs stay.
# Set QUASAR to the binary (default: target/release/quasar), JOBS to the parallel jobs
# (default: the cores) and GENERATIONS to 1 to stop after the first model (default 2).
set -euo pipefail
board=${1:?usage: $0 BOARD OUT [SHARDS] [SIMS] [TABLE]}
out=${2:?usage: $0 BOARD OUT [SHARDS] [SIMS] [TABLE]}
shards=${3:-40}
case "$board" in
  6x6) sims=${4:-3000} ;;
  8x8) sims=${4:-2000} ;;
  *) echo "error: BOARD is 6x6 or 8x8, not '$board'" >&2; exit 2 ;;
esac
table=${5:-}
quasar=${QUASAR:-target/release/quasar}
jobs=${JOBS:-$(nproc)}
generations=${GENERATIONS:-2}
[[ "$generations" == 1 || "$generations" == 2 ]] || { echo "error: GENERATIONS is 1 or 2" >&2; exit 2; }
[[ -x "$quasar" ]] || { echo "error: $quasar is not a program: cargo build --release" >&2; exit 2; }
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "error: SHARDS '$shards' is not a positive number" >&2; exit 2; }
[[ "$sims" =~ ^[1-9][0-9]*$ ]] || { echo "error: SIMS '$sims' is not a positive number" >&2; exit 2; }
[[ -z "$table" || -e "$table" ]] || { echo "error: no table at $table" >&2; exit 2; }
mkdir -p "$out"
exact=()
[[ -n "$table" ]] && exact=(--exact "$table")

play() { # generation, extra engine options...
  local gen=$1; shift
  seq 0 $((shards - 1)) | xargs -P "$jobs" -I{} "$quasar" train play --board "$board" \
    --engine mcts --sims "$sims" --shards {} --out "$out/gen$gen" --quiet "${exact[@]}" "$@"
}

play 1 --net off
"$quasar" train fit --board "$board" "$out/gen1" -o "$out/gen1.qsrmodel" --epochs 30 \
  --curve "$out/gen1.csv" --quiet
if [[ "$generations" == 1 ]]; then
  echo "$out/gen1.qsrmodel"
  exit 0
fi
play 2 --net "$out/gen1.qsrmodel" --leaf eval
"$quasar" train fit --board "$board" "$out/gen1" "$out/gen2" -o "$out/gen2.qsrmodel" \
  --epochs 30 --curve "$out/gen2.csv" --quiet
echo "$out/gen2.qsrmodel"

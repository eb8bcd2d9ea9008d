#!/usr/bin/env bash
# Trains the learned evaluation of checkers as the shipped model was trained: self-play of
# the default player without an evaluation, a fit, a second generation played with the
# first model for priors and backups, and a fit on both generations. Every position of at
# most DB's pieces is labelled with the databases' exact value, the rest with the search's
# value and the game's outcome.
#
#   experiments/train-checkers.sh DB OUT [SHARDS] [SIMS]
#
# DB the endgame databases (`quasar tablebase build --game checkers --max-pieces 5 -o DB`);
# OUT a folder (created) that receives the shards and the models; SHARDS the shards of the
# first generation (of 20 games; default 80), the second has half as many; SIMS the
# simulations a move (default 1000). Every step resumes: run it again after a stop and the
# finished shards and epochs stay. Set QUASAR to the binary (default:
# target/release/quasar), JOBS to the parallel jobs (default: the cores) and GENERATIONS
# to 1 to stop after the first model (default 2).
set -euo pipefail
db=${1:?usage: $0 DB OUT [SHARDS] [SIMS]}
out=${2:?usage: $0 DB OUT [SHARDS] [SIMS]}
shards=${3:-80}
sims=${4:-1000}
quasar=${QUASAR:-target/release/quasar}
jobs=${JOBS:-$(nproc)}
generations=${GENERATIONS:-2}
[[ "$generations" == 1 || "$generations" == 2 ]] || { echo "error: GENERATIONS is 1 or 2" >&2; exit 2; }
[[ -x "$quasar" ]] || { echo "error: $quasar is not a program: cargo build --release" >&2; exit 2; }
[[ -e "$db" ]] || { echo "error: no databases at $db" >&2; exit 2; }
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "error: SHARDS '$shards' is not a positive number" >&2; exit 2; }
[[ "$sims" =~ ^[1-9][0-9]*$ ]] || { echo "error: SIMS '$sims' is not a positive number" >&2; exit 2; }
mkdir -p "$out"

play() { # generation, shards, extra engine options...
  local gen=$1 n=$2
  shift 2
  seq 0 $((n - 1)) | xargs -P "$jobs" -I{} "$quasar" train play --game checkers \
    --engine mcts --sims "$sims" --games 20 --shards {} --out "$out/gen$gen" --quiet \
    --exact "$db" "$@"
}

play 1 "$shards" --net off --imb 0 --prior 0
"$quasar" train fit --game checkers "$out/gen1" -o "$out/gen1.qsrmodel" --epochs 30 \
  --curve "$out/gen1.csv" --quiet
if [[ "$generations" == 1 ]]; then
  echo "$out/gen1.qsrmodel"
  exit 0
fi
play 2 $(((shards + 1) / 2)) --net "$out/gen1.qsrmodel" --imb 0.25 --prior 10
"$quasar" train fit --game checkers "$out/gen1" "$out/gen2" -o "$out/gen2.qsrmodel" \
  --epochs 30 --curve "$out/gen2.csv" --quiet
echo "$out/gen2.qsrmodel"

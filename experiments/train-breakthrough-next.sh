#!/usr/bin/env bash
# Trains the next generation of a Breakthrough model, as the shipped 8x8 model was trained:
# self-play of the default player (MCTS with the model NET, its leaves scored by it) at a
# fixed number of simulations a move, each searched position labelled with the search's
# value, and a fit whose targets are those values mixed with the games' outcomes by
# OUTCOME_WEIGHT.
#
#   experiments/train-breakthrough-next.sh BOARD OUT [NET] [SHARDS] [SIMS] [OUTCOME_WEIGHT]
#
# BOARD is WxH (8x8 for the shipped model); OUT a folder (created) that receives the shards
# and OUT/model.qsrmodel; NET the model the players use (default: builtin, the one shipped
# for BOARD; the shipped 8x8 model was played from the first 8x8 generation, which
# `experiments/train-breakthrough-ab.sh 8x8 OUT` makes); SHARDS the shards of 50 games
# (default 100); SIMS the simulations a move (default 800: about 13 s a shard of 8x8 on
# one core); OUTCOME_WEIGHT the outcome's share of each target, 0 to 1 (default 0).
# Every step resumes: run it again after a stop and the finished shards and epochs stay.
# Set QUASAR to the binary (default: target/release/quasar) and JOBS to the parallel jobs
# (default: the cores).
set -euo pipefail
usage="usage: $0 BOARD OUT [NET] [SHARDS] [SIMS] [OUTCOME_WEIGHT]"
board=${1:?$usage}
out=${2:?$usage}
net=${3:-builtin}
shards=${4:-100}
sims=${5:-800}
weight=${6:-0}
quasar=${QUASAR:-target/release/quasar}
jobs=${JOBS:-$(nproc)}
[[ -x "$quasar" ]] || { echo "error: $quasar is not a program: cargo build --release" >&2; exit 2; }
[[ "$net" == builtin || -f "$net" ]] || { echo "error: NET '$net' is neither builtin nor a model file" >&2; exit 2; }
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "error: SHARDS '$shards' is not a positive number" >&2; exit 2; }
[[ "$sims" =~ ^[1-9][0-9]*$ ]] || { echo "error: SIMS '$sims' is not a positive number" >&2; exit 2; }
[[ "$weight" =~ ^(0(\.[0-9]+)?|1(\.0+)?)$ ]] || { echo "error: OUTCOME_WEIGHT '$weight' is not a number from 0 to 1" >&2; exit 2; }
mkdir -p "$out"
seq 0 $((shards - 1)) | xargs -P "$jobs" -I{} "$quasar" train play --board "$board" \
  --engine mcts --net "$net" --leaf eval --sims "$sims" --games 50 --shards {} --out "$out/shards" --quiet
"$quasar" train fit --board "$board" "$out/shards" -o "$out/model.qsrmodel" --epochs 20 \
  --outcome-weight "$weight" --curve "$out/model.csv" --quiet
echo "$out/model.qsrmodel"

#!/usr/bin/env bash
# Trains a Breakthrough evaluation from alpha-beta's values, as the first generation of the
# shipped 8x8 model was trained (experiments/train-breakthrough-next.sh makes the second):
# self-play of alpha-beta with the home row to a fixed depth, each searched position
# labelled with the search's value, and a fit whose targets are those values (on 8x8 an
# outcome many moves away says little of a position: targets of the outcome alone make a
# model that loses to the hand-written evaluation).
#
#   experiments/train-breakthrough-ab.sh BOARD OUT [SHARDS] [DEPTH] [OUTCOME_WEIGHT]
#
# BOARD is WxH (8x8 for the first generation); OUT a folder (created) that receives the
# shards and OUT/model.qsrmodel; SHARDS the shards of 50 games (default 71, shards 0 to
# 70); DEPTH the search's depth (default 5); OUTCOME_WEIGHT the outcome's share of each
# target, 0 to 1 (default 0, the first generation, which MCTS played best with; 0.2 made
# the model alpha-beta played best with at equal nodes). The depth alone ends each search (a
# budget of 10 s a move is never reached), so the shards do not depend on the machine's
# load; the first generation's shards had the 100 ms default, which a loaded machine reached
# now and then, so a rerun gives a model of the same kind, not the same bytes. Every step
# resumes: run it again after a stop and the finished shards and epochs stay. Set QUASAR
# to the binary (default: target/release/quasar) and JOBS to the parallel jobs (default:
# the cores).
set -euo pipefail
usage="usage: $0 BOARD OUT [SHARDS] [DEPTH] [OUTCOME_WEIGHT]"
board=${1:?$usage}
out=${2:?$usage}
shards=${3:-71}
depth=${4:-5}
weight=${5:-0}
quasar=${QUASAR:-target/release/quasar}
jobs=${JOBS:-$(nproc)}
[[ -x "$quasar" ]] || { echo "error: $quasar is not a program: cargo build --release" >&2; exit 2; }
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "error: SHARDS '$shards' is not a positive number" >&2; exit 2; }
[[ "$depth" =~ ^[1-9][0-9]*$ ]] || { echo "error: DEPTH '$depth' is not a positive number" >&2; exit 2; }
[[ "$weight" =~ ^(0(\.[0-9]+)?|1(\.0+)?)$ ]] || { echo "error: OUTCOME_WEIGHT '$weight' is not a number from 0 to 1" >&2; exit 2; }
mkdir -p "$out"
seq 0 $((shards - 1)) | xargs -P "$jobs" -I{} "$quasar" train play --board "$board" \
  --engine ab --eval mcts --depth "$depth" --time 10s --games 50 --shards {} --out "$out/shards" --quiet
"$quasar" train fit --board "$board" "$out/shards" -o "$out/model.qsrmodel" --epochs 20 \
  --outcome-weight "$weight" --curve "$out/model.csv" --quiet
echo "$out/model.qsrmodel"

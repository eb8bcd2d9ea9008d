#!/usr/bin/env bash
# The strength ladder of docs/results/archive/strength-breakthrough.md: the default MCTS player against the
# alpha-beta player on Breakthrough, one thread each, colours alternated, openings of 2
# random plies. Each match is a separate arena run that resumes from its record, so a
# stopped run goes on where it stopped and the matches can be spread over machines (one line
# of `match` each).
# Usage: experiments/strength.sh [OUT_DIR] [GAMES] [JOBS]   (defaults: exp-strength 200 1)
# JOBS above 1 plays games at once: use no more than half the cores, so that the two
# players of a game never wait for each other's processor.
set -euo pipefail
out=${1:-exp-strength}
games=${2:-200}
jobs=${3:-1}
q=${QUASAR:-target/release/quasar}
match() { # name, board, time, players...
  local name=$1 board=$2 time=$3
  shift 3
  local players=()
  for p in "$@"; do players+=(--player "$p"); done
  "$q" arena --board "$board" --time "$time" --games "$games" --jobs "$jobs" \
    --openings-plies 2 --seed 1 --quiet "${players[@]}" --out "$out/$name"
}
for board in 8x8 6x6; do
  for time in 100ms 1s; do
    match "$board-$time-mcts-ab" "$board" "$time" mcts ab
  done
done
# Elo against time for both families: each against itself at double the time.
for board in 8x8 6x6; do
  match "$board-ab-200ms-100ms" "$board" 100ms ab:time=200ms ab
  match "$board-mcts-200ms-100ms" "$board" 100ms mcts:time=200ms mcts
done

#!/usr/bin/env bash
# The matches behind the strength tables of docs/results.md: the default player (MCTS with
# the shipped model) on 6x6 and 8x8 Breakthrough, at 100 ms and 1 s a move, against
# alpha-beta with the hand-written evaluation, alpha-beta with the same model, and itself
# without the model; then each family with the model against itself without it. One thread
# a player, colours alternated, the bundled openings. Each match is its own arena run that
# resumes from its record, so a stopped run goes on where it stopped, and the lines of
# `match` can be spread over machines.
#
#   experiments/strength-default.sh [OUT] [GAMES] [JOBS] [PATTERN]
#
# OUT a folder (default exp-default); GAMES a match (default 200); JOBS the games played at
# once (default 1): players do not think on the opponent's time, so one game keeps one core
# busy, and JOBS up to the cores keeps every move within its budget on a quiet machine;
# PATTERN (a bash glob, default *) keeps the matches whose name matches, for example
# '8x8-1s-*'. Set QUASAR to the binary (default: target/release/quasar).
set -euo pipefail
out=${1:-exp-default}
games=${2:-200}
jobs=${3:-1}
pattern=${4:-*}
q=${QUASAR:-target/release/quasar}
[[ -x "$q" ]] || { echo "error: $q is not a program: cargo build --release" >&2; exit 2; }
[[ "$games" =~ ^[1-9][0-9]*$ ]] || { echo "error: GAMES '$games' is not a positive number" >&2; exit 2; }
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "error: JOBS '$jobs' is not a positive number" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)

match() { # name, board, time, players...
  local name=$1 board=$2 time=$3
  shift 3
  # shellcheck disable=SC2053 # the pattern is a glob on purpose
  [[ "$name" == $pattern ]] || return 0
  local players=()
  for p in "$@"; do players+=(--player "$p"); done
  echo "== $name" >&2
  "$q" arena --board "$board" --time "$time" --games "$games" --jobs "$jobs" \
    --openings "$here/openings/breakthrough-$board.txt" --quiet "${players[@]}" \
    --out "$out/$name"
}

for board in 6x6 8x8; do
  # The strongest hand-written alpha-beta: the home row weighs on 8x8, not on 6x6.
  hand=ab
  [[ "$board" == 8x8 ]] && hand=ab:eval=mcts
  for time in 100ms 1s; do
    match "$board-$time-mcts-ab" "$board" "$time" mcts "$hand"
    match "$board-$time-mcts-abnet" "$board" "$time" mcts ab:net=builtin
    match "$board-$time-mcts-mctsoff" "$board" "$time" mcts mcts:net=off
    match "$board-$time-abnet-ab" "$board" "$time" ab:net=builtin "$hand"
  done
done

#!/usr/bin/env bash
# Reproduces the README's Woodpush figures: the paper's widths 7, 9 and 11 solved whole, the
# width-20 endgame table of at most 5 pieces, and the match of the engine with that table
# against the engine without it, three pieces a side on 20 cells, at a time and at two
# simulation budgets per move. (Widths 5 to 14 and the solvers' speed:
# `cargo bench -p woodpush --bench solve -- --max-width 14`.)
# Usage: experiments/woodpush.sh [OUT_DIR] [GAMES] [TIME]   (defaults: exp-woodpush 200 10ms)
set -euo pipefail
out=${1:-exp-woodpush}
games=${2:-200}
time=${3:-10ms}
q=${QUASAR:-target/release/quasar}
mkdir -p "$out/tables"
for w in 7 9 11; do
  "$q" tablebase build --game woodpush --width "$w" -o "$out/tables/woodpush-w$w.qrt" --quiet
done
t=$out/tables/woodpush-w20-p5.qrt
"$q" tablebase build --game woodpush --width 20 --max-pieces 5 -o "$t" --quiet
match() { # name, limit option and value
  "$q" arena --game woodpush --width 20 --pieces-per-side 3 --games "$games" "$2" "$3" --jobs 2 \
    --openings-plies 2 --seed 1 --quiet --player "mcts:tb=$t" --player mcts \
    --out "$out/$1"
}
match time-$time --time "$time"
match sims-300 --sims 300
match sims-3000 --sims 3000

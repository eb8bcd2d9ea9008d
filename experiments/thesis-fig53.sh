#!/usr/bin/env bash
# Reproduces the thesis' Figure 5.3 on 6x6 (no TB vs no TB; 3-, 4- and 5-row tables vs no
# TB), the sound probe rule against the race rule, and probing at expansion only against
# probing every playout ply, at equal time per move.
# Usage: experiments/thesis-fig53.sh [OUT_DIR] [GAMES] [TIME]   (defaults: exp 200 50ms)
set -euo pipefail
out=${1:-exp}
games=${2:-200}
time=${3:-50ms}
q=${QUASAR:-target/release/quasar}
mkdir -p "$out/tables"
build() { # rows, extra options, file
  [ -f "$out/tables/$3" ] || "$q" tablebase build --board 6x6 --rows "$1" $2 -o "$out/tables/$3" --quiet
}
build 3 "" 6x6-r3.qtb
build 4 "" 6x6-r4.qtb
build 5 "--max-white 5 --max-black 5" 6x6-r5-w5b5.qtb
match() { # name, player A, player B
  "$q" arena --board 6x6 --games "$games" --time "$time" --tolerance 250ms --jobs 2 \
    --openings-plies 2 --seed 1 --quiet --player "$2" --player "$3" --out "$out/$1"
}
t=$out/tables
match 1-notb-vs-notb "mcts:c=0.7" "mcts"
match 2-r3-vs-notb "mcts:tb=$t/6x6-r3.qtb" "mcts"
match 3-r4-vs-notb "mcts:tb=$t/6x6-r4.qtb" "mcts"
match 4-r5-vs-notb "mcts:tb=$t/6x6-r5-w5b5.qtb" "mcts"
match 5-r4-sound-vs-race "mcts:tb=$t/6x6-r4.qtb" "mcts:tb=$t/6x6-r4.qtb,rule=race"
match 6-r4-expansion-vs-every-ply "mcts:tb=$t/6x6-r4.qtb,every=0" "mcts:tb=$t/6x6-r4.qtb"

#!/usr/bin/env bash
# An arena match spread over JOBS jobs of GNU parallel (Debian package `parallel`), then
# one report of the whole match. Each job plays its share (`--shard i/JOBS`) into its own
# record OUT/games-shard-i-of-JOBS.jsonl; a rerun skips finished games, so a killed run
# loses nothing. On one machine, give each job `--jobs 1` (or cores/JOBS) so that the
# shards do not share cores under a time limit.
#
#   scripts/arena-parallel.sh JOBS OUT [quasar arena options...]
#   scripts/arena-parallel.sh 2 results --player mcts:sims=400 --player random --games 20 --jobs 1
#
# QUASAR names the binary (default: quasar on the PATH). Add --sshloginfile to the
# parallel line to spread the jobs over machines that share OUT.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 JOBS OUT [quasar arena options...]" >&2
    exit 2
fi
jobs=$1 out=$2
shift 2
quasar=${QUASAR:-quasar}
mkdir -p "$out"
# -q keeps each option one word (a gtp: player's command line has spaces); {} is i. The
# shares' own tables go to OUT/shards.txt; standard output gets the whole match's report.
seq 1 "$jobs" | parallel -q -j "$jobs" --halt now,fail=1 \
    "$quasar" arena "$@" --quiet --out "$out" --shard "{}/$jobs" >"$out/shards.txt"
records=()
for i in $(seq 1 "$jobs"); do
    records+=("$out/games-shard-$i-of-$jobs.jsonl")
done
"$quasar" arena report "${records[@]}" --out "$out"

#!/bin/sh
# Builds the checkers endgame databases of 1 to N pieces into DIR with JOBS jobs a wave,
# through GNU parallel (Debian package `parallel`): wave after wave, job i of JOBS running
# `quasar tablebase build --wave W --shard i/JOBS`. Finished slices are skipped, so a killed
# run is simply started again. DIR may be a shared directory (NFS) that several machines
# use: run this on one, or give each machine its own i with --shard by hand.
#
#   scripts/checkers-tablebase-parallel.sh N DIR [JOBS]
#   QUASAR=target/release/quasar LOOP=1 scripts/...   # plain shell jobs instead of parallel
set -eu
N=${1:?usage: $0 PIECES DIR [JOBS]}
DIR=${2:?usage: $0 PIECES DIR [JOBS]}
JOBS=${3:-$(nproc)}
Q=${QUASAR:-quasar}
mkdir -p "$DIR"
for w in $("$Q" tablebase plan --game checkers --max-pieces "$N" | cut -f1 | uniq); do
    if [ "${LOOP:-0}" = 1 ]; then
        pids=""
        i=1
        while [ "$i" -le "$JOBS" ]; do
            "$Q" tablebase build --game checkers --max-pieces "$N" -o "$DIR" --wave "$w" --shard "$i/$JOBS" --quiet &
            pids="$pids $!"
            i=$((i + 1))
        done
        for p in $pids; do wait "$p"; done
    else
        seq 1 "$JOBS" | parallel -j "$JOBS" --halt now,fail=1 \
            "$Q" tablebase build --game checkers --max-pieces "$N" -o "$DIR" --wave "$w" --shard "{}/$JOBS" --quiet
    fi
done

#!/usr/bin/env bash
# A job-level proof search to the end on this machine: starts the tree in DIR (unless it
# holds one: then it goes on with it), then loops `next` -> GNU parallel -> `feed` until the
# root is settled, writes the merged proof and checks it. Stopping it (Ctrl-C, or SIGTERM to
# the script) at any point loses at most the running jobs' current runs (a stopped job's
# checkpoint stays): run it again to go on. INIT_OPTIONS go to `init` (the position,
# --memory, --job-nodes, --job-runs, ...).
# Usage: experiments/jobtree.sh DIR CORES [INIT_OPTIONS...]
#   e.g. experiments/jobtree.sh t6x5 2 --board 6x5 --job-nodes 5000000 --memory 256
# A Slurm cluster runs each batch as an array instead of parallel:
#   sbatch --wait --array=1-$(wc -l < DIR/jobs.txt) --wrap 'sed -n "${SLURM_ARRAY_TASK_ID}p" DIR/jobs.txt | sh'
set -euo pipefail
dir=$1
cores=$2
shift 2
q=${QUASAR:-target/release/quasar}
case $cores in
'' | *[!0-9]* | 0) echo "jobtree.sh: CORES must be a whole number of 1 or more, not '$cores'" >&2; exit 2 ;;
esac
command -v parallel >/dev/null || {
  echo "jobtree.sh needs GNU parallel (apt-get install parallel)" >&2
  exit 1
}
start=$(date +%s)
# Ctrl-C (or SIGTERM to the script: run in the background, it cannot take SIGINT) stops
# the batch and the loop with it: parallel, told so, signals its running jobs, and what
# they had saved stays. parallel runs in the background so that the signal is taken at
# once, not after the batch; only it is signalled, never a caller sharing the group.
batch=
stop() {
  trap '' INT TERM
  [ -z "$batch" ] || kill -TERM "$batch" 2>/dev/null || true
  wait
  echo "stopped: run the same command to go on" >&2
  exit 130
}
trap stop INT TERM
[ -f "$dir/tree" ] || "$q" solve --tree "$dir" init "$@"
while true; do
  "$q" solve --tree "$dir" next --jobs "${JOBS:-$((2 * cores))}" >/dev/null
  [ -s "$dir/jobs.txt" ] || break
  # A failed job leaves its error for `feed` to report; the loop then stops there.
  parallel -j "$cores" <"$dir/jobs.txt" &
  batch=$!
  wait "$batch" || true
  batch=
  fed=$("$q" solve --tree "$dir" feed)
  printf '%s\n' "$fed" | sed -n '1p;$p'
  # Jobs that left no answer (each failed before its first save): going on would issue
  # them again forever.
  case $fed in
  "fed 0 answers"*)
    echo "no job of the batch answered: see $dir/jobs.txt and run one of its lines" >&2
    exit 1
    ;;
  esac
done
"$q" solve --tree "$dir" status
"$q" solve --tree "$dir" proof --out "$dir/whole.proof"
echo "wall to the proof: $(($(date +%s) - start)) s"
"$q" solve --check "$dir/whole.proof" --threads "$cores"

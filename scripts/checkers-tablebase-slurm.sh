#!/bin/sh
# Submits the checkers endgame databases of 1 to N pieces to Slurm: one job array a wave
# (`sbatch --array=1-T`, task i building `--wave W --shard i/T`), each wave starting when
# the one before has finished well (`--dependency=afterok`). DIR must be a directory every
# node sees; finished slices are skipped, so resubmitting after a failure loses nothing.
#
#   scripts/checkers-tablebase-slurm.sh N DIR [TASKS] [extra sbatch options...]
#   e.g. scripts/checkers-tablebase-slurm.sh 7 /shared/checkers 64 --partition=long --mem=8G
set -eu
N=${1:?usage: $0 PIECES DIR [TASKS] [sbatch options]}
DIR=${2:?usage: $0 PIECES DIR [TASKS] [sbatch options]}
TASKS=${3:-16}
shift 2
[ $# -gt 0 ] && shift
Q=${QUASAR:-quasar}
mkdir -p "$DIR"
PLAN=$("$Q" tablebase plan --game checkers --max-pieces "$N")
prev=""
for w in $(printf '%s\n' "$PLAN" | cut -f1 | uniq); do
    slices=$(printf '%s\n' "$PLAN" | awk -F'\t' -v w="$w" '$1 == w' | wc -l)
    tasks=$(( slices < TASKS ? slices : TASKS ))
    dep=""
    [ -n "$prev" ] && dep="--dependency=afterok:$prev"
    prev=$(sbatch --parsable $dep --array=1-"$tasks" --job-name="checkers-w$w" "$@" \
        --wrap="$Q tablebase build --game checkers --max-pieces $N -o $DIR --wave $w --shard \${SLURM_ARRAY_TASK_ID}/$tasks --quiet")
    prev=${prev%%;*}
    echo "wave $w: $slices slices, job array $prev ($tasks tasks)"
done

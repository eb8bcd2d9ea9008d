#!/usr/bin/env bash
# An arena match spread over a Slurm job array of JOBS tasks, then one report job that
# starts when every task has succeeded (--dependency=afterok). Task i plays its share
# (`--shard i/JOBS`) into its own record OUT/games-shard-i-of-JOBS.jsonl in the shared
# directory OUT; resubmitting skips finished games, so a killed task loses nothing.
#
#   scripts/arena-slurm.sh JOBS OUT [quasar arena options...]     (submits; prints job ids)
#   QUASAR=$HOME/bin/quasar SBATCH_OPTS="--time=2:00:00 --cpus-per-task=4" \
#       scripts/arena-slurm.sh 32 /shared/match --player mcts:time=1s --player mcts:time=1s,c=0.4 \
#       --games 400 --jobs 4
#
# QUASAR names the binary as the compute nodes see it (default: quasar on the PATH);
# SBATCH_OPTS adds options to both submissions (partition, time, cores). Slurm runs this
# same script for each task (--task) and for the report (--report).
set -euo pipefail
quasar=${QUASAR:-quasar}
case ${1:-} in
--task)
    jobs=$2 out=$3
    shift 3
    exec "$quasar" arena "$@" --quiet --out "$out" --shard "$SLURM_ARRAY_TASK_ID/$jobs"
    ;;
--report)
    jobs=$2 out=$3
    records=()
    for i in $(seq 1 "$jobs"); do
        records+=("$out/games-shard-$i-of-$jobs.jsonl")
    done
    exec "$quasar" arena report "${records[@]}" --out "$out"
    ;;
esac
if [ $# -lt 2 ]; then
    echo "usage: $0 JOBS OUT [quasar arena options...]" >&2
    exit 2
fi
jobs=$1 out=$2
shift 2
mkdir -p "$out"
# shellcheck disable=SC2086 # SBATCH_OPTS is a list of options
array=$(sbatch --parsable ${SBATCH_OPTS:-} --array="1-$jobs" --job-name=arena \
    --output="$out/slurm-%A_%a.out" "$0" --task "$jobs" "$out" "$@")
array=${array%%;*} # --parsable prints "id;cluster" on multi-cluster sites
# shellcheck disable=SC2086
report=$(sbatch --parsable ${SBATCH_OPTS:-} --dependency="afterok:$array" \
    --job-name=arena-report --output="$out/slurm-report-%j.out" "$0" --report "$jobs" "$out")
echo "submitted array $array (tasks 1-$jobs) and report ${report%%;*}; the report lands in $out"

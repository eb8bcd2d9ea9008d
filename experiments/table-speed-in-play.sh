#!/usr/bin/env bash
# Simulations a second the default 6x6 player keeps with its four-row table probed at every
# playout ply (its default on 6x6), against the same player without a table: `quasar
# bestmove` from the start, from balanced openings 3 plies in and from four middle games,
# each position searched with and without the table in turn, so that a machine's drift
# hurts both alike. Rates are per wall-clock second: run it on an otherwise idle machine.
# Usage: experiments/table-speed-in-play.sh DIR [SECONDS] [REPEATS] [OPENINGS]
#   DIR: the table, from `quasar tablebase build --board 6x6 --rows 4 -o DIR`
#   defaults: 1 second a search (the default node budget fills after about 1.5 s, and a
#   full tree stops expanding), 3 repeats, the first 4 of openings/breakthrough-6x6.txt
# Extra options for both players go in QUASAR_OPTS ("--imb 0 --prior 0": the bare search
# of the `tablebase_search` bench). BASELINE_TB=OTHER gives the first column the table
# OTHER instead of none (a compressed table against its plain form); TABLE_OPTS are options
# for the second column alone ("--table-cache 0.6": a compressed table read through a
# cache of 0.6 MiB against itself whole, with BASELINE_TB=DIR). Prints each
# position's median rates, its share, and the mean share.
set -euo pipefail
dir=${1:?usage: $0 DIR [SECONDS] [REPEATS] [OPENINGS]}
secs=${2:-1}
repeats=${3:-3}
openings=${4:-4}
usage() {
  echo "error: $1; usage: $0 DIR [SECONDS] [REPEATS] [OPENINGS]" >&2
  exit 2
}
[[ $secs =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage "SECONDS must be a number of seconds, not '$secs'"
[[ $repeats =~ ^[1-9][0-9]{0,3}$ ]] || usage "REPEATS must be 1 to 9999, not '$repeats'"
[[ $openings =~ ^[0-9]{1,2}$ ]] || usage "OPENINGS must be 0 to 99, not '$openings'"
if [[ ! -e $dir ]]; then
  echo "error: $dir: no such table; build it with: quasar tablebase build --board 6x6 --rows 4 -o $dir" >&2
  exit 2
fi
q=${QUASAR:-target/release/quasar}
[[ -x $q ]] || usage "$q is not built; run: cargo build --release (or set QUASAR)"
read -r -a opts <<<"${QUASAR_OPTS:-}"
read -r -a table_opts <<<"${TABLE_OPTS:-}"
positions=("BBBBBB/BBBBBB/6/6/WWWWWW/WWWWWW w")
while IFS= read -r line; do
  positions+=("$line")
done < <(grep -v '^#' openings/breakthrough-6x6.txt | head -n "$openings")
# Middle games: 10 uniformly random plies in, none decided by the table at its root.
positions+=(
  "1BBBBB/BB1B2/1BBBB1/WW2W1/1WWWWW/W1WW1W w"
  "1BBBBB/BBB1B1/3B1B/1B1W2/WWWW1W/WW1WWW w"
  "B1BBB1/BBB1BB/2BBWB/1W1W2/W1W1WW/WWWW1W w"
  "B1BBBB/BB2BB/WBB3/1W1B1W/WW1WW1/W1WWWW w"
)
rate() { # position, extra options...: simulations a second of one search
  local pos=$1
  shift
  "$q" bestmove --board 6x6 --position "$pos" --time "${secs}s" "${opts[@]}" "$@" |
    awk '$1 == "simulations" { gsub(/\(/, "", $6); print $6 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
base=()
label="no table"
if [[ -n ${BASELINE_TB:-} ]]; then
  base=(--tb "$BASELINE_TB" --every 1)
  label=$(basename "$BASELINE_TB")
fi
printf '%-44s %12s %12s %7s\n' position "$label" "$(basename "$dir")" share
shares=()
for pos in "${positions[@]}"; do
  without=() with=()
  for ((r = 0; r < repeats; r++)); do
    without+=("$(rate "$pos" "${base[@]}")")
    with+=("$(rate "$pos" --tb "$dir" --every 1 "${table_opts[@]}")")
  done
  a=$(printf '%s\n' "${without[@]}" | median)
  b=$(printf '%s\n' "${with[@]}" | median)
  share=$(awk -v a="$a" -v b="$b" 'BEGIN { print 100 * b / a }')
  shares+=("$share")
  printf '%-44s %12.0f %12.0f %6.1f%%\n' "$pos" "$a" "$b" "$share"
done
printf '%-44s %12s %12s %6.1f%%\n' "mean of the positions" "" "" \
  "$(printf '%s\n' "${shares[@]}" | awk '{ t += $1 } END { print t / NR }')"

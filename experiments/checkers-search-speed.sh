#!/usr/bin/env bash
# Search speed of two quasar binaries on checkers: MCTS's simulations and alpha-beta's
# nodes a second, each of the twelve positions of openings/checkers-middle-games.txt
# searched by both binaries in turn (so that a machine's drift hurts both alike), the best
# of REPEATS rounds kept for each. Prints each position's rates and the second binary's
# share, then the median share of each search. Rates are per wall-clock second: run it on
# an otherwise idle machine.
# Usage: experiments/checkers-search-speed.sh OLD NEW [SECONDS] [REPEATS]
set -euo pipefail
usage() {
  echo "error: $1; usage: $0 OLD NEW [SECONDS] [REPEATS]" >&2
  exit 2
}
old=${1:-}
new=${2:-}
secs=${3:-1}
repeats=${4:-2}
[[ -x $old && -x $new ]] || usage "OLD and NEW must be quasar programs"
[[ $secs =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage "SECONDS must be a number of seconds, not '$secs'"
[[ $repeats =~ ^[1-9][0-9]{0,2}$ ]] || usage "REPEATS must be 1 to 999, not '$repeats'"
positions="$(dirname "$0")/../openings/checkers-middle-games.txt"
rate() { # binary engine position
  "$1" bestmove --game checkers --engine "$2" --time "${secs}s" --position "$3" --info 2>&1 |
    sed -n 's/.*(\([0-9]*\) per second.*/\1/p' | tail -1
}
for engine in mcts ab; do
  shares=()
  while read -r fen; do
    [[ -z $fen || $fen == \#* ]] && continue
    a=0 b=0
    for _ in $(seq "$repeats"); do
      x=$(rate "$old" "$engine" "$fen")
      y=$(rate "$new" "$engine" "$fen")
      ((x > a)) && a=$x
      ((y > b)) && b=$y
    done
    share=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
    shares+=("$share")
    printf '%-5s %-60s %10d %10d %s\n' "$engine" "$fen" "$a" "$b" "$share"
  done <"$positions"
  printf '%s\n' "${shares[@]}" | sort -n | awk -v e="$engine" '{ s[NR] = $1 }
    END { m = NR % 2 ? s[(NR + 1) / 2] : (s[NR / 2] + s[NR / 2 + 1]) / 2;
          printf "%s: median share %.3f (%.3f to %.3f)\n", e, m, s[1], s[NR] }'
done

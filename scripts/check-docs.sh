#!/usr/bin/env bash
# Checks the user documentation (README.md, docs/, each crate's README.md):
#
# 1. Text: it describes what quasar does, not how it was made. A line fails when it speaks
#    of work periods (sessions, rounds), people (we, I, our, engineers), issue or item
#    numbers (#12, issue 12), scratch paths (/tmp/, /work/), clock times of runs (12:47,
#    UTC), or points outside the repository (../shared, .dev/, seed files).
#    The code (Rust, shell, TOML, Python files) is held to two of these rules: no issue
#    numbers and no paths outside the repository.
# 2. Examples: every line of the README and docs that starts with `$ ` and names `quasar`
#    is run as written, with the release binary first on PATH, in a fresh empty folder per
#    page (so a page's later lines may use what its earlier lines wrote), each under a
#    timeout. Lines of a page run in order; a non-zero exit fails the check.
#    Not run, by design: commands without the `$ ` mark, which build large tables or run
#    for minutes or hours (the 6x6 and 8x8 four-row tables, 6x5 and 5x6 solves, the
#    matches of docs/results.md, cluster recipes), and the two set-up commands at the top
#    of the README (the first builds the 6x6 four-row table; the second is CI itself).
#
# Usage: scripts/check-docs.sh [--text-only]
# QUASAR=path overrides the binary (default target/release/quasar, brought up to date first).
set -uo pipefail
cd "$(dirname "$0")/.."

pages=(README.md CHANGELOG.md)
while IFS= read -r f; do pages+=("$f"); done < <(find docs -name '*.md' | sort)
while IFS= read -r f; do pages+=("$f"); done < <(ls */README.md games/*/README.md 2>/dev/null | sort)

fail=0
say() { printf '%s\n' "$*" >&2; }

# --- 1. text ---------------------------------------------------------------------------
# Each entry: a description, then an extended regular expression (grep -E, case-sensitive).
rules=(
  "a work period"            '\b([Ss]essions?|[Ss]prints?|work periods?|(first|second|third|fourth|fifth|sixth|next|last|this|previous|earlier|later) round)\b'
  "people"                   '\b([Ww]e|[Oo]ur|[Oo]urs|us|[Mm]y|me|[Ee]ngineers?|the lead|teammates?|[Hh]elpers)\b|(^|[ (])I( |\x27|$)'
  "an issue or item number"  '(^|[^&A-Za-z0-9])#[0-9]+\b|\b([Ii]ssues?|[Ii]tems?|PR|[Tt]ickets?) #?[0-9]+\b'
  "a scratch path"           '(^|[^A-Za-z0-9_.])/(tmp|work|scratch|home/[a-z])/'
  "a clock time of a run"    '(^|[^=:0-9])([01]?[0-9]|2[0-3]):[0-5][0-9]([^:0-9]|$)|\bUTC\b'
  "a path outside the repository" '\.\./shared|\bshared/(spec|seeds)|(^|[^A-Za-z0-9])\.dev/|\bseeds?/[0-9]{3}|\bseed [0-9]{3}\b'
)
for page in "${pages[@]}"; do
  for ((i = 0; i < ${#rules[@]}; i += 2)); do
    hits=$(grep -nE -- "${rules[i + 1]}" "$page" || true)
    if [ -n "$hits" ]; then
      while IFS= read -r h; do say "$page:${h%%:*}: ${rules[i]}: ${h#*:}"; done <<<"$hits"
      fail=1
    fi
  done
done
[ "$fail" = 0 ] && say "text: ${#pages[@]} pages clean"

# The code's comments hold to the two rules a reader cannot check from the docs alone:
# no issue numbers, no pointers outside the repository (the project's own docs instead).
code_rules=(
  "an issue number"               '\b([Ii]ssues?|PR|[Tt]ickets?) #?[0-9]+\b'
  "a path outside the repository" "${rules[11]}"
)
code_fail=0
while IFS= read -r f; do
  for ((i = 0; i < ${#code_rules[@]}; i += 2)); do
    hits=$(grep -nE -- "${code_rules[i + 1]}" "$f" || true)
    if [ -n "$hits" ]; then
      while IFS= read -r h; do say "$f:${h%%:*}: ${code_rules[i]}: ${h#*:}"; done <<<"$hits"
      code_fail=1
    fi
  done
done < <(git ls-files '*.rs' '*.sh' '*.toml' '*.py' | grep -vx 'scripts/check-docs.sh')
[ "$code_fail" = 0 ] && say "text: the code's comments clean"
[ "$code_fail" = 0 ] || fail=1

# Every relative link and anchor of the documentation resolves.
python3 "$(dirname "$0")/check-links.py" || fail=1

[ "${1:-}" = "--text-only" ] && exit "$fail"

# --- 2. examples -------------------------------------------------------------------------
# The release binary is brought up to date (a no-op when it is), so that a stale build
# never checks the examples; QUASAR names another binary and skips the build.
bin=${QUASAR:-target/release/quasar}
if [ -z "${QUASAR:-}" ]; then
  say "building the release binary for the examples"
  cargo build --release --quiet || exit 1
fi
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
ln -s "$(realpath "$bin")" "$bindir/quasar"
ran=0
start=$SECONDS
for page in "${pages[@]}"; do
  cmds=$(awk '/^```/ { fence = !fence; next } fence && /^\$ / && /quasar/ { sub(/^\$ /, ""); print }' "$page")
  [ -z "$cmds" ] && continue
  work=$(mktemp -d "$bindir/page.XXXX")
  while IFS= read -r cmd; do
    ran=$((ran + 1))
    if ! out=$(cd "$work" && PATH="$bindir:$PATH" timeout 60 bash -c "$cmd" 2>&1 </dev/null); then
      say "$page: example failed: $cmd"
      say "$(printf %s "$out" | tail -c 2000)"
      fail=1
    fi
  done <<<"$cmds"
done
say "examples: $ran run in $((SECONDS - start)) s"
exit "$fail"

#!/usr/bin/env bash
# Replays every replay file in DIR N times (default 100) and checks that each
# replay reproduces its bug with a byte-identical report (the interleaving,
# per goroutine steps, message). Prints one line per file.
# Usage: scripts/replay100.sh DIR [N]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1; n=${2:-100}
go build -o /tmp/period-replay100 ./cmd/period
total=0; good=0
for f in "$dir"/*.period; do
  ref=$(/tmp/period-replay100 replay -v "$f" | grep -v '^\(ok\|FAIL\) ' | sed 's/[0-9.]*s)$//' || true)
  same=0
  for i in $(seq "$n"); do
    out=$(/tmp/period-replay100 replay -v "$f" | grep -v '^\(ok\|FAIL\) ' | sed 's/[0-9.]*s)$//') && code=0 || code=$?
    if [ "$code" = 1 ] && [ "$out" = "$ref" ]; then same=$((same+1)); fi
  done
  total=$((total+1)); [ "$same" = "$n" ] && good=$((good+1))
  printf '%-50s %d/%d identical reproductions\n' "$(basename "$f")" "$same" "$n"
done
echo "files fully reproduced: $good/$total"

#!/usr/bin/env bash
# Wall-time ratio of `period test -strategy random -budget N` over
# `go test -count=N` on the correct tests of the examples (both run all N
# executions: no bug stops either early). Build time is excluded on both
# sides: the test binaries are built first, then timed.
# Usage: scripts/overhead.sh [N]   (default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
go build -o /tmp/period-overhead ./cmd/period
printf '%-14s %-22s %10s %10s %7s\n' example test native_s period_s ratio
for dir in examples/*/; do
  pkg=$(basename "$dir")
  tests=$(grep -h -A1 'period:want none' "$dir"*_test.go | sed -n 's/^func \(Test[A-Za-z0-9_]*\)(.*/\1/p' | paste -sd'|' -)
  [ -z "$tests" ] && continue
  run="^($tests)\$"
  (cd examples && go test -c -o /tmp/native-$pkg.test "./$pkg" >/dev/null)
  t0=$(date +%s.%N)
  # Tests that sleep for real are slow natively (Period's time is virtual): cap them.
  (cd "$dir" && timeout 120 /tmp/native-$pkg.test -test.run "$run" -test.count "$n" >/dev/null) || true
  t1=$(date +%s.%N)
  # period: its own build is reported as an event; time the exploration only.
  out=$(/tmp/period-overhead test -json -race=false -strategy random -budget "$n" -run "$run" "./$dir" 2>/dev/null || true)
  explore=$(printf '%s\n' "$out" | python3 -c 'import sys,json
tot=0
for l in sys.stdin:
    try: o=json.loads(l)
    except Exception: continue
    if o.get("Action")=="summary": tot+=o.get("Elapsed",0)
print(tot)')
  native=$(echo "$t1 - $t0" | bc -l)
  printf '%-14s %-22s %10.3f %10.3f %7.1f\n' "$pkg" "${tests:0:22}" "$native" "$explore" "$(echo "$explore / $native" | bc -l)"
done

#!/usr/bin/env bash
# gobench.sh: run Period on GoBench's GoKer kernels (real blocking and
# non-blocking bugs extracted from Kubernetes, etcd, gRPC, Docker, Istio,
# Knative, CockroachDB, Hugo...; github.com/timmyyuan/gobench) and say, per
# kernel, whether a verdict of the bug's class was found.
#
#   scripts/gobench.sh [-budget N] [-strategy S] [-o DIR] [GOBENCH_CHECKOUT]
#
# Without a checkout, the repository is cloned into a scratch directory.
# The kernels are copied into one scratch module whose go line is 1.21 (they
# were written before Go 1.22's per-iteration loop variables, and some bugs
# need the old semantics). A blocking kernel counts as found with a deadlock,
# leak or hang; a non-blocking one with a race, panic or fail. DIR (default
# /tmp/period-gobench) receives the JSON lines and summary.txt.
set -euo pipefail
budget=1000 strategy=period out=/tmp/period-gobench
while [ $# -gt 0 ]; do
  case "$1" in
    -budget) budget=$2; shift 2 ;;
    -strategy) strategy=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    *) break ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
src=${1:-}
if [ -z "$src" ]; then
  git clone --quiet --depth 1 https://github.com/timmyyuan/gobench "$scratch/gobench"
  src=$scratch/gobench
fi
mkdir -p "$out" "$scratch/mod"
(cd "$src/gobench/goker" && find blocking nonblocking -name '*_test.go') | while read -r f; do
  mkdir -p "$scratch/mod/$(dirname "$f")"
  cp "$src/gobench/goker/$f" "$scratch/mod/$f"
done
printf 'module goker\n\ngo 1.21\n' > "$scratch/mod/go.mod"
(cd "$root" && go build -o "$out/period" ./cmd/period)
(cd "$scratch/mod" && "$out/period" test -json -budget "$budget" -strategy "$strategy" -p 1 -timeout 3m \
  -o "$out/replays" ./... > "$out/results.jsonl" 2> "$out/stderr.txt") || true
grep '"Action":"summary"' "$out/results.jsonl" | while read -r line; do
  pkg=$(sed -E 's/.*"Package":"goker\/([^"]*)".*/\1/' <<<"$line")
  kinds=$(grep -oE '"Kind":"[a-z]+"' <<<"$line" | sort -u | sed -E 's/"Kind":"([a-z]+)"/\1/' | paste -sd, - || true)
  case "$pkg" in
    blocking/*) want='deadlock|leak|hang' ;;
    *) want='race|panic|fail' ;;
  esac
  if grep -qE "$want" <<<"$kinds"; then found=found; else found=missed; fi
  printf '%-36s %-7s %s\n' "$pkg" "$found" "${kinds:--}"
done | sort > "$out/summary.txt"
echo "found $(grep -c ' found ' "$out/summary.txt") of $(wc -l < "$out/summary.txt") kernels; $out/summary.txt"

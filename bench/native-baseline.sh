#!/usr/bin/env bash
# native-baseline.sh measures how often Go's own scheduler exposes each bug:
# every Test function of every package under the current module is run RUNS
# times, each in a fresh process with a short timeout, and the outcomes are
# counted (a hang means a native deadlock, which `go test` never reports).
#
#   cd bench && ./native-baseline.sh [-n RUNS] [-t TIMEOUT] [PKG_DIR...]
#
# Output: one line per test: package, test, period:want kind, then counts of
# pass / fail / panic (panic or fatal error) / hang.
set -euo pipefail
runs=200
timeout=300ms
while getopts n:t: opt; do
	case $opt in
	n) runs=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
	mapfile -t dirs < <(go list -f '{{.Dir}}' ./... | sed "s|^$PWD/||")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-16s %-24s %-9s %5s %5s %5s %5s\n' package test want pass fail panic hang
for d in "${dirs[@]}"; do
	bin=$tmp/$(basename "$d").test
	go test -c -o "$bin" "./$d" >/dev/null
	[ -x "$bin" ] || continue
	for test in $("$bin" -test.list '^Test' | grep '^Test'); do
		want=$(grep -h -B1 "^func $test(" "$d"/*_test.go | sed -n 's|^// period:want ||p')
		pass=0 fail=0 panic=0 hang=0
		for _ in $(seq "$runs"); do
			if out=$("$bin" -test.run "^$test\$" -test.count=1 -test.timeout="$timeout" 2>&1); then
				pass=$((pass + 1))
			elif grep -q 'test timed out' <<<"$out"; then
				hang=$((hang + 1))
			elif grep -qE '^(panic|fatal error):' <<<"$out"; then
				panic=$((panic + 1))
			else
				fail=$((fail + 1))
			fi
		done
		printf '%-16s %-24s %-9s %5d %5d %5d %5d\n' "$(basename "$d")" "$test" "$want" $pass $fail $panic $hang
	done
done

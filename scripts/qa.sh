#!/usr/bin/env bash
# qa.sh: run Period on published modules whose suites pass under go test, and
# tally build failures and verdicts by kind (issue: real suites).
#
#   scripts/qa.sh [-budget N] [-strategy S] [-skip REGEXP] [-timeout D] [-run REGEXP] [-o DIR] [MODULES_FILE]
#
# MODULES_FILE lists module@version, one a line (# comments); default
# ../shared/qa/modules.txt, else the list below. Each module is fetched with
# `go mod download` through the module proxy, copied into a scratch
# directory (the module cache is never written), made writable, tidied, and
# explored with `period test -json ./...`. DIR (default /tmp/period-qa)
# receives one JSON-lines file per module, its stderr, and summary.md.
# -run is period test's -run (leave out a module's big tests); -strategy is
# period test's -strategy (default: period's own default).
set -euo pipefail
budget=20 skip='ants' timeout=15m out=/tmp/period-qa run='' strategy=''
while [ $# -gt 0 ]; do
  case "$1" in
    -budget) budget=$2; shift 2 ;;
    -skip) skip=$2; shift 2 ;;
    -timeout) timeout=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -run) run=$2; shift 2 ;;
    -strategy) strategy=$2; shift 2 ;;
    *) break ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$root/../shared/qa/modules.txt}
if [ -f "$list" ]; then
  mods=$(grep -v '^#' "$list" | grep -v '^[[:space:]]*$')
else
  mods="github.com/alitto/pond@v1.9.2 github.com/gammazero/workerpool@v1.3.0
github.com/hashicorp/golang-lru/v2@v2.0.7 golang.org/x/time@v0.16.0
github.com/eapache/go-resiliency@v1.7.0 github.com/bep/debounce@v1.2.1
github.com/benbjohnson/clock@v1.3.5 go.uber.org/goleak@v1.3.0
github.com/avast/retry-go/v4@v4.6.1"
fi
# A module's zip leaves out the nested modules its go.work lists (samber/do's
# examples): go test fails on such a workspace too, so the module is tested
# alone, as its own CI does with GOWORK=off.
export GOWORK=off
mkdir -p "$out"
period="$out/period"
(cd "$root" && go build -o "$period" ./cmd/period)
scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch"; rm -rf "$scratch"' EXIT
summary="$out/summary.md"
printf '| module | build | tests | fail | panic | deadlock | leak | hang | race | unconfirmed | abandoned | cut | seconds |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n' > "$summary"
for m in $mods; do
  if [ -n "$skip" ] && echo "$m" | grep -Eq "$skip"; then
    echo "skip $m"; continue
  fi
  name=$(echo "$m" | tr '/@+' '___')
  info=$(go mod download -json "$m" 2>&1 || true)
  dir=$(echo "$info" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [ -z "$dir" ]; then
    # Not served, or it needs a newer Go: a row that says so, and the next module.
    why=$(echo "$info" | sed -n 's/^[[:space:]]*"Error": "\(.*\)",*$/\1/p' | head -1 | tr '|' '/' | cut -c1-80)
    echo "| $m | download failed: ${why:-no directory} | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |" >> "$summary"
    tail -1 "$summary"
    continue
  fi
  # The copy's directory is named as a clone's would be (the module path's
  # last element that is not a major version): tests that print
  # "dir/file.go:line" callers (charmbracelet/log) expect that name.
  leaf=$(echo "${m%@*}" | tr '/' '\n' | grep -Ev '^v[0-9]+$' | tail -1)
  work="$scratch/$name/$leaf"
  mkdir -p "$scratch/$name"
  cp -r "$dir" "$work" && chmod -R u+w "$work"
  # A module published without go.mod (older than modules) gets one, as a user would make.
  [ -f "$work/go.mod" ] || (cd "$work" && go mod init "${m%@*}" >/dev/null 2>&1 || true)
  # Replacements by a directory of the repository (../.., ./sub) point
  # outside the module's zip: go test fails on them there too. The
  # published versions of those modules stand in, as for any user of the
  # module outside its repository.
  for r in $(cd "$work" && go mod edit -json | python3 -c 'import json,sys; print(" ".join(r["Old"]["Path"] + ("@" + r["Old"]["Version"] if r["Old"].get("Version") else "") for r in json.load(sys.stdin).get("Replace") or [] if r["New"]["Path"].startswith((".", "/"))))'); do
    (cd "$work" && go mod edit -dropreplace "$r")
  done
  (cd "$work" && go mod tidy >/dev/null 2>&1 || true)
  start=$(date +%s)
  set +e
  (cd "$work" && timeout "$timeout" "$period" test -json -budget "$budget" ${strategy:+-strategy "$strategy"} ${run:+-run "$run"} -o "$out/$name.replays" ./... > "$out/$name.json" 2> "$out/$name.err")
  rc=$?
  set -e
  secs=$(( $(date +%s) - start ))
  python3 - "$out/$name.json" "$m" "$rc" "$secs" "$out/$name.err" >> "$summary" <<'PY'
import json, sys
path, mod, rc, secs, err = sys.argv[1:6]
kinds = dict.fromkeys("fail panic deadlock leak hang race".split(), 0)
tests = unconf = aband = cut = 0
for line in open(path):
    try:
        s = json.loads(line)
    except ValueError:
        continue
    if s.get("Action") != "summary":
        continue
    tests += 1
    unconf += s.get("Unconfirmed", 0); aband += s.get("Abandoned", 0); cut += s.get("Cut", 0)
    if s.get("Interrupted"):
        # The module's time ran out before its confirmation: its bugs are
        # listed unconfirmed, and counted so here.
        unconf += len(s.get("Bugs") or [])
        continue
    for b in s.get("Bugs") or []:
        kinds[b["Kind"]] = kinds.get(b["Kind"], 0) + 1
build = "ok"
if rc == "2":
    build = "error: " + (open(err).read().strip().splitlines() or ["?"])[-1][:80].replace("|", "/")
elif rc == "124":
    build = "timeout"
print(f"| {mod} | {build} | {tests} | " + " | ".join(str(kinds[k]) for k in "fail panic deadlock leak hang race".split()) + f" | {unconf} | {aband} | {cut} | {secs} |")
PY
  tail -1 "$summary"
done
echo "wrote $summary"

#!/usr/bin/env bash
# Counts the instructions per operation (callgrind's Ir) of the cases that the targets of issues
# 21, 32 and 34 name and of the baselines they are divided by, and writes them to
# Benchmarks/instructions.json as {case id: Ir per operation}. figures.py and
# `events-benchmark --instructions=PATH` put them beside the wall-time ratios of the targets table.
#
#   bash Benchmarks/instructions.sh [BINARY [OUTPUT]]
#
# BINARY: a release build of events-benchmark (default: build one with SwiftPM). OUTPUT: where
# to write the JSON (default Benchmarks/instructions.json). Needs valgrind (apt-get install
# valgrind) and python3.
#
# Each case runs twice under callgrind, `single CASE K` and `single CASE 2K`, counting only
# inside runMeasuredLoop; the figure is the difference over K, so what the loop does once (its
# first call's lazy initialisation, the growth of a list to its steady size) cancels out.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-}
output=${2:-$root/Benchmarks/instructions.json}

if ! command -v valgrind >/dev/null; then
  echo "error: valgrind is not installed (apt-get install valgrind)" >&2
  exit 1
fi
if [ -z "$binary" ]; then
  swift build -c release --package-path "$root/Benchmarks" >&2
  binary=$root/Benchmarks/.build/release/events-benchmark
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The toolchain's DWARF 5 debug information is more than valgrind 3.19 can read.
cp "$binary" "$work/events-benchmark"
# One hash seed for every run: Set and Dictionary probe lengths (the registry's, the keyed
# table's) then repeat from run to run, and so do the counts.
export SWIFT_DETERMINISTIC_HASHING=1
strip --strip-debug "$work/events-benchmark"

# Case id and K. Cases whose operation reaches 1,000 observers take fewer iterations; the churn
# cases take enough to include their amortised purges many times.
cases=(
  "churn.nc/1000 4000"
  "churn.subscribe/1000 4000"
  "churn.register/1000 4000"
  "churn.handler/1000 4000"
  "churn.broadcaster/1000 4000"
  "churn.raii/1000 4000"
  "churn.post.subscribe/1000 400"
  "churn.post.broadcaster/1000 400"
  "baseline.weak/1000 400"
  "nc.object/1 4000"
  "raii.object/1 4000"
  "nc.others/1000 4000"
  "raii.others/1000 4000"
  "keyed.post/1 4000"
  "keyed.post/10 4000"
  "receiver.check/1 4000"
)
for n in 0 1 10 100 1000; do
  iterations=$((n >= 100 ? 400 : 4000))
  cases+=("baseline.mutex/$n $iterations" "event.subscribe/$n $iterations")
done

# Prints the Ir that callgrind collected inside runMeasuredLoop for `single $1 $2`.
collected() {
  valgrind --tool=callgrind --toggle-collect='*runMeasuredLoop*' \
    --callgrind-out-file="$work/callgrind.out" "$work/events-benchmark" single "$1" "$2" \
    >/dev/null 2>"$work/valgrind.log" || {
    cat "$work/valgrind.log" >&2
    exit 1
  }
  awk '/^totals:/ { print $2; found = 1; exit } END { if (!found) exit 1 }' "$work/callgrind.out"
}

: >"$work/counts"
for entry in "${cases[@]}"; do
  read -r id iterations <<<"$entry"
  once=$(collected "$id" "$iterations")
  twice=$(collected "$id" $((iterations * 2)))
  echo "$id $iterations $once $twice" >>"$work/counts"
  echo "$id: $(((twice - once) / iterations)) Ir/op" >&2
done

python3 - "$work/counts" "$output" <<'EOF'
import json
import sys

counts = {}
with open(sys.argv[1], encoding="utf-8") as file:
    for line in file:
        case, iterations, once, twice = line.split()
        counts[case] = round((int(twice) - int(once)) / int(iterations), 1)
with open(sys.argv[2], "w", encoding="utf-8") as file:
    json.dump(counts, file, indent=2, sort_keys=True)
    file.write("\n")
print(f"wrote {sys.argv[2]}", file=sys.stderr)
EOF

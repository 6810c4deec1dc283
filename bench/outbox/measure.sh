#!/bin/sh
# Instructions per transaction, plain and with `emit`, under callgrind (see enqueue.ts).
set -eu
cd "$(dirname "$0")/../.."
N=${N:-2000}
out=$(mktemp -d)
for variant in plain emit; do
  fifo="$out/$variant.in"; mkfifo "$fifo"
  valgrind --tool=callgrind --callgrind-out-file="$out/$variant.%p" node build/bench/outbox/enqueue.js "$variant" "$N" < "$fifo" > "$out/$variant.log" 2>/dev/null &
  vg=$!
  exec 3> "$fifo"
  until grep -q warm "$out/$variant.log" 2>/dev/null; do sleep 1; done
  callgrind_control -z "$vg" > /dev/null
  echo go >&3
  until grep -q done "$out/$variant.log" 2>/dev/null; do sleep 1; done
  callgrind_control -d "$vg" > /dev/null
  echo go >&3
  exec 3>&-
  wait "$vg" || true
  dump=$(ls -t "$out"/$variant.*.[0-9]* 2>/dev/null | head -1)
  total=$(grep -m1 '^summary:' "$dump" | awk '{print $2}')
  echo "$variant $(( total / N ))"
done
rm -rf "$out"

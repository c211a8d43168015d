#!/usr/bin/env bash
# SIGKILL (or SIGSTOP, with SIGNAL=STOP) one node under `mqroute load`: the README's three nodes on loopback
# (host + two devices on one shared --data directory), 2 clones x iodepth 16 4k randrw with crc32c verification of
# every read, 20 s; device B (VICTIM=device, the default) or the host (VICTIM=host) gets the signal 5 s in. Prints the load's report: every request must end exactly once
# (the job's own check; a duplicate or lost one is a "violation:" line and exit 1), the load must end by itself,
# and reads must return what was acknowledged (verify errors 0). Usage: bench/scripts/kill-a-device.sh [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
SIGNAL=${SIGNAL:-KILL}
W=${1:-$(mktemp -d)}
BASE=${BASE_PORT:-25620}
mkdir -p "$W/data"
[ -f "$W/keys/keys.conf" ] || ./mqroute keys "$W/keys" >/dev/null
SEEDS=127.0.0.1:$BASE,127.0.0.1:$((BASE + 1)),127.0.0.1:$((BASE + 2))
pids=()
cleanup() { for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill -9 "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
./mqroute node --role host --port "$BASE" --keys "$W/keys" --seeds "$SEEDS" >"$W/host.log" 2>&1 &
host=$!
pids+=($host)
./mqroute node --role device --port $((BASE + 1)) --keys "$W/keys" --seeds "$SEEDS" --data "$W/data" >"$W/device-a.log" 2>&1 &
pids+=($!)
./mqroute node --role device --port $((BASE + 2)) --keys "$W/keys" --seeds "$SEEDS" --data "$W/data" --first-queue 16 >"$W/device-b.log" 2>&1 &
victim=$!
pids+=($victim)
[ "${VICTIM:-device}" = host ] && victim=$host
cat >"$W/job.fio" <<'JOB'
[global]
ioengine=io_uring
rw=randrw
bs=4k
size=64m
verify=crc32c
time_based
runtime=20s

[load]
iodepth=16
numjobs=2
JOB
start=$(date +%s.%N)
./mqroute load --seeds 127.0.0.1:$BASE --keys "$W/keys" "$W/job.fio" --out "$W/out" >"$W/load.log" 2>&1 &
load=$!
# the load has started once its clones run: wait for the header, then 5 s more
for _ in $(seq 1 600); do grep -q "job clone" "$W/load.log" 2>/dev/null && break; sleep 0.1; done
sleep 5
kill -"$SIGNAL" "$victim"
echo "signal $SIGNAL to ${VICTIM:-device} (pid $victim) at $(awk "BEGIN{print $(date +%s.%N) - $start}") s"
if [ "$SIGNAL" = STOP ]; then sleep 10; kill -CONT "$victim"; echo "SIGCONT after 10 s"; fi
signalled=$(date +%s.%N)
rc=0
# when the run itself ended: its summary line is printed before the client leaves the cluster
( for _ in $(seq 1 12000); do grep -q "^summary" "$W/load.log" 2>/dev/null && break; sleep 0.01; done
  echo "summary printed $(awk "BEGIN{print $(date +%s.%N) - $signalled}") s after the signal" ) &
watcher=$!
timeout 120 tail -s 0.02 --pid=$load -f /dev/null || { echo "load did not end within 120 s after the signal"; rc=1; }
sleep 0.1; kill "$watcher" 2>/dev/null || true; wait "$watcher" 2>/dev/null || true
wait "$load" || rc=$?
now=$(date +%s.%N)
echo "load ended at $(awk "BEGIN{print $now - $start}") s, $(awk "BEGIN{print $now - $signalled}") s after the signal, exit $rc"
grep -E "^summary|^verify|^violation|ENOTCONN" "$W/load.log" || true
echo "logs and report: $W"
exit $rc

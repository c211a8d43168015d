#!/usr/bin/env bash
# Runs/minute of one experiment sweep (issue #20): locally (--parallel = processors), then with `mqroute run
# --cluster` on 1, 2 and 3 worker processes on this machine (loopback, mutual TLS), each worker with SLOTS runs at
# once (default 0: one per processor, so 3 workers on 2 cores oversubscribe them). Prints one row per setup: the
# sweep's wall time as the client measures it (from handing out the first run to the last result; the client's
# JVM start and cluster join not included; "total" includes them), runs/minute, and the order and result sizes.
# TINY=1 makes every run 1 ms of simulated time, so the difference to the local run is the per-run overhead of
# shipping a run (order in, parse on the worker, result out). Every digest must equal the local one.
# Usage: bench/scripts/sweep-scaling.sh [WORKDIR]   (REPS=12 RUNTIME=100ms SLOTS=0 WORKERS="1 2 3" TINY=0
# LOCAL_PARALLEL=processors)
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${1:-$(mktemp -d)}
BASE=${BASE_PORT:-25650}
REPS=${REPS:-12}
RUNTIME=${RUNTIME:-100ms}
[ "${TINY:-0}" = 1 ] && RUNTIME=1ms
SLOTS=${SLOTS:-0}
PAR=${LOCAL_PARALLEL:-$(nproc)}
JAR=cli/target/mqroute.jar
./mqroute --version >/dev/null # builds the jar when it is missing or stale
mkdir -p "$W"
[ -f "$W/keys/keys.conf" ] || java -jar "$JAR" keys "$W/keys" >/dev/null
echo "mqroute.cluster.worker.slots = $SLOTS" >"$W/worker.conf"
cat >"$W/sweep.conf" <<CONF
name = sweep-scaling
seed = 7
replications = $REPS
machine { numa-nodes = 1, cores-per-node = 2 }
queues { kind = per-cpu, ring-size = 8 }
device = "dpu(1us, 20us, 0.25)"
workload = """
[global]
ioengine=io_uring
rw=randread
bs=4k
size=64m
runtime=$RUNTIME
time_based
[j]
iodepth=2
"""
variants = [
  { name = a, router.selector = static-cpu }
  { name = b, router.selector = reduced-v3 }
]
CONF
RUNS=$((2 * REPS))
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
now() { date +%s.%N; }

printf '%-10s %5s %9s %9s %8s %s\n' setup runs "sweep s" "total s" runs/min digest
t0=$(now)
java -jar "$JAR" run "$W/sweep.conf" --brief --parallel "$PAR" --out "$W/local" >"$W/local.txt" 2>"$W/local.err"
t1=$(now)
local_digest=$(sed -n 's/^digest: //p' "$W/local.txt")
awk -v r=$RUNS -v a="$t0" -v b="$t1" -v d="$local_digest" -v p="$PAR" \
  'BEGIN { printf "%-10s %5d %9s %9.1f %8.0f %s\n", "local/" p, r, "-", b - a, r * 60 / (b - a), d }'

for n in ${WORKERS:-1 2 3}; do
  pids=()
  seeds=127.0.0.1:$BASE
  for ((i = 0; i < n; i++)); do
    java -jar "$JAR" node --role worker --port $((BASE + i)) --seeds "$seeds" --keys "$W/keys" \
      --config "$W/worker.conf" >"$W/worker-$n-$i.log" 2>&1 &
    pids+=($!)
  done
  # every worker Up in the first one's view
  for _ in $(seq 1 300); do
    up=$(curl -s "http://127.0.0.1:$((BASE + 1000))/status" 2>/dev/null |
      python3 -c 'import json,sys; print(sum(m["status"] == "Up" for m in json.load(sys.stdin)["nodes"]))' 2>/dev/null || echo 0)
    [ "$up" = "$n" ] && break
    sleep 0.2
  done
  t0=$(now)
  java -jar "$JAR" run "$W/sweep.conf" --brief --out "$W/cluster-$n" --cluster "$seeds" --keys "$W/keys" \
    >"$W/cluster-$n.txt" 2>"$W/cluster-$n.err"
  t1=$(now)
  digest=$(sed -n 's/^digest: //p' "$W/cluster-$n.txt")
  last=$(grep '^sweep: .* runs done' "$W/cluster-$n.err" | tail -1)
  sweep_s=$(sed -n 's/.*; \([0-9.]*\) s, orders.*/\1/p' <<<"$last")
  awk -v r=$RUNS -v s="$sweep_s" -v a="$t0" -v b="$t1" -v d="$digest" -v n="$n" \
    'BEGIN { printf "%-10s %5d %9.1f %9.1f %8.0f %s\n", "workers/" n, r, s, b - a, r * 60 / s, d }'
  [ "$digest" = "$local_digest" ] || { echo "digest differs from the local run's" >&2; exit 1; }
  sed -n 's/.*\(orders of .*\)/  \1/p' <<<"$last"
  sed -n 's/^sweep: \(shipping .*\)/  \1/p' "$W/cluster-$n.err"
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.2; done; done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) processors"

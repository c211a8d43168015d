#!/usr/bin/env bash
# How often a device under `file-io = auto` sends its I/O to the blocking pool, and what the machine does meanwhile
# (BENCHMARKS.md "Asking the page cache"). For each JAR given, in turn: a host (NBD on loopback) and one device
# (file backend) over mutual TLS, fio's nbd engine at iodepth 32 for RUNTIME seconds (after a 3 s warm-up), then one
# line: IOPS, the device's `file-io-to-pool` count from /metrics, the machine's idle share over the run (/proc/stat),
# and each node thread's run time and run delay (time runnable but waiting for a CPU, /proc/PID/task/TID/schedstat)
# over the middle 4 s.
#
# Usage: bench/scripts/file-io-punts.sh JAR [JAR ...]
# Env:   RUNTIME=8 SIZE=256m WORK=DIR CONF=FILE (HOCON every node also reads, e.g. mqroute.cluster.device.file-io = inline)
#        DROP=1: drop the page cache (as root) after the warm-up, so that the measured run starts cold: the device
#        must then go to the pool while its reads miss
set -euo pipefail
RUNTIME=${RUNTIME:-8}
SIZE=${SIZE:-256m}
W=${WORK:-$(mktemp -d /tmp/file-io-punts.XXXXXX)}
[ $# -gt 0 ] || { echo "usage: $0 JAR [JAR ...]" >&2; exit 2; }
for t in fio nbdinfo java python3 curl; do
  command -v "$t" >/dev/null || { echo "file-io-punts: $t is not installed" >&2; exit 2; }
done
for k in /sys/kernel/mm/damon/admin/kdamonds/*/state; do
  [ -r "$k" ] && [ "$(cat "$k")" = on ] &&
    echo "file-io-punts: warning: DAMON is on ($k) and pages the file out (real misses); as root: echo off > $k" >&2
done
mkdir -p "$W/data"
bytes=$(python3 -c "import sys;s=sys.argv[1].lower();m={'k':1<<10,'m':1<<20,'g':1<<30};print(int(s[:-1])*m[s[-1]] if s[-1] in m else int(s))" "$SIZE")
f="$W/data/f-0"
[ -f "$f" ] && [ "$(stat -c %s "$f")" = "$bytes" ] || head -c "$bytes" /dev/urandom >"$f"
[ -f "$W/keys/keys.conf" ] || java -jar "$1" keys "$W/keys" >/dev/null
echo "mqroute.cluster.device.file-max-bytes = $bytes" >"$W/node.conf"
[ -z "${CONF:-}" ] || cat "$CONF" >>"$W/node.conf"

pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
free_port() {
  python3 -c 'import socket,random
while True:
    p=random.randrange(10000,31000)
    try:
        s=socket.socket(); s.bind(("127.0.0.1",p)); s.close(); print(p); break
    except OSError: pass'
}
snap() { # pid tid run_ns delay_ns of each node's threads
  local p t
  for p in "$@"; do for t in /proc/"$p"/task/*; do
    [ "$(cat "$t/comm" 2>/dev/null)" = mqroute-node-1- ] && echo "$p $(cat "$t/schedstat")"
  done; done 2>/dev/null || true
}
cpu() { grep '^cpu ' /proc/stat; }

for jar in "$@"; do
  cat "$f" >/dev/null
  hp=$(free_port); dp=$(free_port); hm=$(free_port); dm=$(free_port); np=$(free_port)
  java -XX:+UseParallelGC -jar "$jar" node --role host --port "$hp" --management-port "$hm" --seeds "127.0.0.1:$hp" \
    --keys "$W/keys" --config "$W/node.conf" --nbd "127.0.0.1:$np" --export-size "$bytes" >"$W/host.log" 2>&1 &
  hpid=$!; pids+=("$hpid")
  java -XX:+UseParallelGC -jar "$jar" node --role device --port "$dp" --management-port "$dm" --seeds "127.0.0.1:$hp" \
    --keys "$W/keys" --config "$W/node.conf" --data "$W/data" >"$W/device.log" 2>&1 &
  dpid=$!; pids+=("$dpid")
  for _ in $(seq 1 1200); do
    curl -sf "http://127.0.0.1:$hm/status" 2>/dev/null | grep -q '"queues":\[{' &&
      nbdinfo --size "nbd://127.0.0.1:$np" >/dev/null 2>&1 && break
    kill -0 "$hpid" 2>/dev/null || { echo "host died: $W/host.log" >&2; exit 1; }
    sleep 0.1
  done
  fio --name=w --ioengine=nbd --uri="nbd://127.0.0.1:$np" --rw=randread --bs=4k --size="$bytes" --iodepth=32 \
    --time_based --runtime=3 >/dev/null 2>&1 || true
  [ "${DROP:-0}" = 1 ] && { sync; echo 3 >/proc/sys/vm/drop_caches; }
  c0=$(cpu)
  (sleep $((RUNTIME / 2 - 2)); snap "$hpid" "$dpid" >"$W/s0"; sleep 4; snap "$hpid" "$dpid" >"$W/s1") &
  fio --name=m --ioengine=nbd --uri="nbd://127.0.0.1:$np" --rw=randread --bs=4k --size="$bytes" --iodepth=32 \
    --time_based --runtime="$RUNTIME" --output-format=json 2>/dev/null | sed -n '/^{/,$p' >"$W/fio.json"
  wait %% 2>/dev/null || true
  c1=$(cpu)
  punts=$(curl -s "http://127.0.0.1:$dm/metrics" | awk -F' ' '/event="file-io-to-pool"/ {print $2}')
  python3 - "$jar" "$W" "${punts:-0}" "$c0" "$c1" <<'PY'
import json, sys
jar, w, punts, c0, c1 = sys.argv[1:]
iops = json.load(open(w + "/fio.json"))["jobs"][0]["read"]["iops"]
d = [int(b) - int(a) for a, b in zip(c0.split()[1:], c1.split()[1:])]
idle = 100.0 * d[3] / sum(d)
def snap(f):
    r = {}
    for l in open(f):
        p, run, delay, _ = l.split()
        r.setdefault(p, [0, 0]); r[p][0] += int(run); r[p][1] += int(delay)
    return r
a, b = snap(w + "/s0"), snap(w + "/s1")
threads = ", ".join("run %.2f s waited %.2f s" % ((b[p][0] - a[p][0]) / 1e9, (b[p][1] - a[p][1]) / 1e9)
                    for p in b if p in a)
print(f"{jar}: {iops:,.0f} IOPS, file-io-to-pool {punts}, idle {idle:.0f} %, node threads over 4 s (host, device): {threads}")
PY
  kill -TERM "$hpid" "$dpid" 2>/dev/null || true
  wait "$hpid" "$dpid" 2>/dev/null || true
  pids=()
done

#!/usr/bin/env bash
# fio's nbd engine through mqroute vs the same fio job against `nbdkit file`, side by side in one run (issue #17
# item 3). One file, in the page cache, served by
#   - nbdkit:  nbdkit -f -i 127.0.0.1 -p PORT file FILE
#   - for each JAR given: a host node (`node --role host --nbd 127.0.0.1:PORT`) and one device node (`--data DIR`,
#     the file backend on FILE) of that jar, joined over mutual TLS (TRANSPORT=tls, the default, keys made for the
#     run) or plain tcp (TRANSPORT=tcp)
# and then, ROUNDS times, interleaved (nbdkit, jar 1, jar 2, ..., then the next iodepth), the fio job
#   fio --name=r --ioengine=nbd --uri=nbd://127.0.0.1:PORT --rw=randread --bs=4k --size=SIZE --iodepth=QD
#       --time_based --runtime=RUNTIME --lat_percentiles=1 --output-format=json
# With LOAD=1 (the default) also `mqroute load` through each jar's cluster (io_uring engine, same size, numjobs=1,
# iodepth 1 and 32; what it reads is lengths only), and with NULL=1 (the default) the same load against a second
# host + device of each jar with the null backend. Prints one table (median over the rounds; the ratio is taken
# per round against the nbdkit row of that round) and leaves the JSON, logs and traces in WORK.
#
# Usage: bench/scripts/nbd-vs-nbdkit.sh [[one:]JAR[=CONF] ...]   (default: cli/target/mqroute.jar; CONF: a HOCON
#        file that jar's nodes also read, to compare settings side by side; one: host and device as one node,
#        --role host+device)
# Env:   ROUNDS=2 RUNTIME=10 RAMP=2 SIZE=256m QDS="1 32" TRANSPORT=tls|tcp LOAD=1 NULL=1 WORK=DIR
#        TRACE=1  (-Dmqroute.trace: per-stage trace of one extra mqroute QD1 and QD32 run per jar, summarised
#                  with bench/scripts/trace-summary.py; needs a jar with io.mqroute.protocol.RequestTrace)
#        ONLY_TRACE=1 (only the traced runs)
#        JFR=1    (a JFR profile of each host and device over the whole run: WORK/<jar>-<role>.jfr)
#        JAVA_OPTS (default -XX:+UseParallelGC); NODE_CONF=FILE (HOCON added to every node's --config)
# Every process it starts is stopped when it ends (also on Ctrl-C or an error).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
ROUNDS=${ROUNDS:-2}
RUNTIME=${RUNTIME:-10}
RAMP=${RAMP:-2}
SIZE=${SIZE:-256m}
QDS=${QDS:-1 32}
TRANSPORT=${TRANSPORT:-tls}
LOAD=${LOAD:-1}
NULL=${NULL:-1}
TRACE=${TRACE:-0}
JFR=${JFR:-0}
JAVA_OPTS=${JAVA_OPTS:--XX:+UseParallelGC}
W=${WORK:-$(mktemp -d /tmp/nbd-vs-nbdkit.XXXXXX)}
mkdir -p "$W/data" "$W/json" "$W/logs" "$W/trace"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=("$root/cli/target/mqroute.jar")
# JAR or JAR=CONF: CONF is a HOCON file that jar's nodes also read (to compare settings side by side);
# one:JAR[=CONF]: host and device as one node of that jar (--role host+device), no link between them
jars=(); confs=(); ones=()
for a in "${args[@]}"; do
  if [ "${a#one:}" != "$a" ]; then ones+=(1); a=${a#one:}; else ones+=(0); fi
  jars+=("${a%%=*}")
  if [ "$a" != "${a%%=*}" ]; then confs+=("${a#*=}"); else confs+=(""); fi
done
for t in fio nbdkit nbdinfo java python3 curl; do
  command -v "$t" >/dev/null || { echo "nbd-vs-nbdkit: $t is not installed" >&2; exit 2; }
done
for j in "${jars[@]}"; do [ -f "$j" ] || { echo "nbd-vs-nbdkit: no jar $j" >&2; exit 2; }; done
# DAMON with a pageout scheme evicts page cache it sees as cold: the slower server's file drifts out of memory
for k in /sys/kernel/mm/damon/admin/kdamonds/*/state; do
  [ -r "$k" ] && [ "$(cat "$k")" = on ] &&
    echo "nbd-vs-nbdkit: warning: DAMON is on ($k) and may page the file out; as root: echo off > $k" >&2
done
bytes=$(python3 -c "import sys;s=sys.argv[1].lower();m={'k':1<<10,'m':1<<20,'g':1<<30};print(int(s[:-1])*m[s[-1]] if s[-1] in m else int(s))" "$SIZE")

pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# free loopback ports, none of them below another's +1000 (a node's default management port)
free_port() {
  python3 - <<'PY'
import random, socket
# below the ephemeral range (32768-60999): a port free now in that range can be handed to an outgoing connection
# of a node started meanwhile before the server that is given it binds it
while True:
    p = random.randrange(10000, 31000)
    try:
        s = socket.socket(); s.bind(("127.0.0.1", p)); s.close()
    except OSError:
        continue
    print(p); break
PY
}
names=()
for j in "${jars[@]}"; do
  n=$(basename "$j" .jar)
  # a worktree's cli/target/mqroute.jar is named after the worktree
  [ "$n" = mqroute ] && n=$(basename "$(cd "$(dirname "$j")/../.." && pwd)")
  c=${confs[${#names[@]}]}
  [ -z "$c" ] || n="$n+$(basename "$c" .conf)"
  [ "${ones[${#names[@]}]}" = 0 ] || n="$n-one"
  while printf '%s\n' "${names[@]:-}" | grep -qx -- "$n"; do n="$n+"; done
  names+=("$n")
done

echo "work: $W; file: $SIZE in the page cache; transport: $TRANSPORT; servers: nbdkit ${names[*]}"
f="$W/data/f-0"
if [ ! -f "$f" ] || [ "$(stat -c %s "$f")" != "$bytes" ]; then
  head -c "$bytes" /dev/urandom >"$f"
fi
cat "$f" >/dev/null # warm: every test reads the same cached pages
if [ "$TRANSPORT" = tls ]; then
  [ -f "$W/keys/keys.conf" ] || java -jar "${jars[0]}" keys "$W/keys" >/dev/null
  tr=(--keys "$W/keys")
else
  tr=(--plain-tcp)
fi
cat >"$W/node.conf" <<EOF
mqroute.cluster.device.file-max-bytes = $bytes
EOF
# NODE_CONF: a HOCON file every node of every jar reads too (its --config), e.g. to try a setting
[ -z "${NODE_CONF:-}" ] || cat "$NODE_CONF" >>"$W/node.conf"

nbdkit_port=$(free_port)
nbdkit -f -i 127.0.0.1 -p "$nbdkit_port" file "$f" >"$W/logs/nbdkit.log" 2>&1 &
pids+=($!)
nbdkit_pid=$!

declare -A nbd_port host_port host_pid dev_pid mgmt dev_mgmt
# start_cluster KEY JAR BACKEND(file|null) [nbd] [CONF] [ONE]: host + one device of JAR (ONE=1: one node that is
# both, --role host+device)
start_cluster() {
  local key=$1 jar=$2 backend=$3 nbd=${4:-} conf=${5:-} one=${6:-0} hp dp hm dm np data=() nbdargs=() jo
  hp=$(free_port); dp=$(free_port); hm=$(free_port); dm=$(free_port)
  [ "$backend" = file ] && data=(--data "$W/data")
  if [ -n "$nbd" ]; then
    np=$(free_port)
    nbdargs=(--nbd "127.0.0.1:$np" --export-size "$bytes")
    nbd_port[$key]=$np
  fi
  jo=$JAVA_OPTS
  cp "$W/node.conf" "$W/node-$key.conf"
  [ -z "$conf" ] || cat "$conf" >>"$W/node-$key.conf"
  if [ "$one" = 1 ]; then
    # shellcheck disable=SC2086
    java $jo $(jfr_opt "$key-one") -jar "$jar" node --role host+device --port "$hp" --management-port "$hm" \
      --seeds "127.0.0.1:$hp" "${tr[@]}" --config "$W/node-$key.conf" "${nbdargs[@]}" "${data[@]}" \
      >"$W/logs/$key-one.log" 2>&1 &
    pids+=($!)
    host_pid[$key]=$!
    dev_pid[$key]=$!
    host_port[$key]=$hp
    mgmt[$key]=$hm
    dev_mgmt[$key]=$hm
    return 0
  fi
  # shellcheck disable=SC2086
  java $jo $(jfr_opt "$key-host") -jar "$jar" node --role host --port "$hp" --management-port "$hm" \
    --seeds "127.0.0.1:$hp" "${tr[@]}" --config "$W/node-$key.conf" "${nbdargs[@]}" >"$W/logs/$key-host.log" 2>&1 &
  pids+=($!)
  host_pid[$key]=$!
  # shellcheck disable=SC2086
  java $jo $(jfr_opt "$key-device") -jar "$jar" node --role device --port "$dp" --management-port "$dm" \
    --seeds "127.0.0.1:$hp" "${tr[@]}" --config "$W/node-$key.conf" "${data[@]}" >"$W/logs/$key-device.log" 2>&1 &
  pids+=($!)
  dev_pid[$key]=$!
  host_port[$key]=$hp
  mgmt[$key]=$hm
  dev_mgmt[$key]=$dm
}
jfr_opt() {
  [ "$JFR" = 1 ] && echo "-XX:StartFlightRecording=filename=$W/$1.jfr,settings=profile,dumponexit=true"
  return 0
}
# start_traced KEY JAR CONF [BACKEND]: the same cluster with -Dmqroute.trace (TRACE=1); BACKEND file (default,
# with NBD) or null (no NBD: for `mqroute load`)
start_traced() {
  local saved=$JAVA_OPTS
  JAVA_OPTS="$JAVA_OPTS -Dmqroute.trace=$W/trace/$1"
  if [ "${4:-file}" = null ]; then start_cluster "$1" "$2" null "" "${3:-}"; else start_cluster "$1" "$2" file nbd "${3:-}"; fi
  JAVA_OPTS=$saved
}
# wait_ready KEY: the host's router has a queue (it answers /status with one) and NBD answers
wait_ready() {
  local key=$1
  for _ in $(seq 1 1200); do
    if curl -sf "http://127.0.0.1:${mgmt[$key]}/status" 2>/dev/null |
      python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["queues"] else 1)' 2>/dev/null \
      && { [ -z "${nbd_port[$key]:-}" ] || nbdinfo --size "nbd://127.0.0.1:${nbd_port[$key]}" >/dev/null 2>&1; }; then
      return 0
    fi
    kill -0 "${host_pid[$key]}" 2>/dev/null || { echo "host $key died: $W/logs/$key-host.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "cluster $key not ready after 120 s: $W/logs/" >&2
  exit 1
}
# prime KEY: a cold cluster's first requests open Artery's connections (TLS handshakes) on cold JVMs, which can
# take longer than the host's suspicion bound: a short run that may fail, before anything is measured
prime() {
  local key=$1
  if [ -n "${nbd_port[$key]:-}" ]; then
    fio --name=p --ioengine=nbd --uri="nbd://127.0.0.1:${nbd_port[$key]}" --rw=randread --bs=4k --size="$bytes" \
      --iodepth=1 --time_based --runtime=2 --continue_on_error=all >/dev/null 2>&1 || true
  fi
}

# voluntary + involuntary context switches of all threads of a process
ctxsw() {
  local p=$1 s=0 v
  for v in $(cat /proc/"$p"/task/*/status 2>/dev/null | awk '/ctxt_switches/ {print $2}'); do s=$((s + v)); done
  echo $s
}

# CPU time (user + system) of a process so far, in clock ticks (all its threads, ended ones included)
cputicks() {
  awk '{print $14 + $15}' /proc/"$1"/stat 2>/dev/null || echo 0
}

# run_fio LABEL URI QD OUT [HOSTPID DEVPID]: one fio job; context switches and CPU ticks of the servers go next
# to its JSON
run_fio() {
  local label=$1 uri=$2 qd=$3 out=$4 hpid=${5:-} dpid=${6:-} h0=0 d0=0 h1 d1 ht0=0 dt0=0 ht1=0 dt1=0
  [ -n "$hpid" ] && h0=$(ctxsw "$hpid") && ht0=$(cputicks "$hpid")
  [ -n "$dpid" ] && d0=$(ctxsw "$dpid") && dt0=$(cputicks "$dpid")
  fio --name=r --ioengine=nbd --uri="$uri" --rw=randread --bs=4k --size="$bytes" --iodepth="$qd" \
    --time_based --runtime="$RUNTIME" --ramp_time="$RAMP" --lat_percentiles=1 --output-format=json \
    >"$out" 2>"$out.err" || { echo "fio failed ($label qd $qd): $out.err" >&2; cat "$out.err" >&2; exit 1; }
  h1=0; d1=0
  [ -n "$hpid" ] && h1=$(ctxsw "$hpid") && ht1=$(cputicks "$hpid")
  [ -n "$dpid" ] && d1=$(ctxsw "$dpid") && dt1=$(cputicks "$dpid")
  echo "$((h1 - h0)) $((d1 - d0)) $((ht1 - ht0)) $((dt1 - dt0))" >"$out.cs"
}
# run_load KEY JAR QD OUTDIR: `mqroute load` through cluster KEY (io_uring, numjobs=1)
run_load() {
  local key=$1 jar=$2 qd=$3 out=$4 h0 h1 d0 d1 ht0 ht1 dt0 dt1
  mkdir -p "$out"
  cat >"$out/job.fio" <<EOF
[global]
ioengine=io_uring
rw=randread
bs=4k
size=$bytes
time_based
runtime=${RUNTIME}s
ramp_time=${RAMP}s

[load]
iodepth=$qd
numjobs=1
EOF
  h0=$(ctxsw "${host_pid[$key]}"); d0=$(ctxsw "${dev_pid[$key]}")
  ht0=$(cputicks "${host_pid[$key]}"); dt0=$(cputicks "${dev_pid[$key]}")
  # shellcheck disable=SC2086
  java $JAVA_OPTS -jar "$jar" load --seeds "127.0.0.1:${host_port[$key]}" "${tr[@]}" "$out/job.fio" --out "$out" \
    >"$out/load.log" 2>&1 || { echo "load failed ($key qd $qd): $out/load.log" >&2; tail -5 "$out/load.log" >&2; exit 1; }
  h1=$(ctxsw "${host_pid[$key]}"); d1=$(ctxsw "${dev_pid[$key]}")
  ht1=$(cputicks "${host_pid[$key]}"); dt1=$(cputicks "${dev_pid[$key]}")
  echo "$((h1 - h0)) $((d1 - d0)) $((ht1 - ht0)) $((dt1 - dt0))" >"$out/load.fio.json.cs"
}

[ "${ONLY_TRACE:-0}" = 1 ] && { ROUNDS=0; NULL=0; TRACE=1; }
if [ "$ROUNDS" -gt 0 ]; then
  for i in "${!jars[@]}"; do start_cluster "${names[$i]}" "${jars[$i]}" file nbd "${confs[$i]}" "${ones[$i]}"; done
  for i in "${!jars[@]}"; do wait_ready "${names[$i]}"; prime "${names[$i]}"; done
  echo "servers up; warming each up ($RUNTIME s at iodepth 32)"
  run_fio warm "nbd://127.0.0.1:$nbdkit_port" 32 "$W/json/warm-nbdkit.json"
  for n in "${names[@]}"; do run_fio warm "nbd://127.0.0.1:${nbd_port[$n]}" 32 "$W/json/warm-$n.json"; done
fi

for r in $(seq 1 "$ROUNDS"); do
  for qd in $QDS; do
    echo "round $r, iodepth $qd"
    run_fio nbdkit "nbd://127.0.0.1:$nbdkit_port" "$qd" "$W/json/r$r-nbdkit-fio-qd$qd.json" "$nbdkit_pid"
    for n in "${names[@]}"; do
      run_fio "$n" "nbd://127.0.0.1:${nbd_port[$n]}" "$qd" "$W/json/r$r-$n-fio-qd$qd.json" \
        "${host_pid[$n]}" "${dev_pid[$n]}"
    done
    if [ "$LOAD" = 1 ]; then
      for i in "${!jars[@]}"; do
        n=${names[$i]}
        run_load "$n" "${jars[$i]}" "$qd" "$W/json/r$r-$n-load-qd$qd"
        cp "$W/json/r$r-$n-load-qd$qd/load.fio.json" "$W/json/r$r-$n-load-qd$qd.json"
        cp "$W/json/r$r-$n-load-qd$qd/load.fio.json.cs" "$W/json/r$r-$n-load-qd$qd.json.cs"
      done
    fi
  done
done

if [ "$NULL" = 1 ]; then
  for i in "${!jars[@]}"; do start_cluster "null-${names[$i]}" "${jars[$i]}" null "" "${confs[$i]}" "${ones[$i]}"; done
  for i in "${!jars[@]}"; do wait_ready "null-${names[$i]}"; done
  for i in "${!jars[@]}"; do run_load "null-${names[$i]}" "${jars[$i]}" 32 "$W/json/warm-null-${names[$i]}"; done
  for r in $(seq 1 "$ROUNDS"); do
    for qd in $QDS; do
      echo "round $r, iodepth $qd, null backend"
      for i in "${!jars[@]}"; do
        n=${names[$i]}
        run_load "null-$n" "${jars[$i]}" "$qd" "$W/json/r$r-$n-nullload-qd$qd"
        cp "$W/json/r$r-$n-nullload-qd$qd/load.fio.json" "$W/json/r$r-$n-nullload-qd$qd.json"
        cp "$W/json/r$r-$n-nullload-qd$qd/load.fio.json.cs" "$W/json/r$r-$n-nullload-qd$qd.json.cs"
      done
    done
  done
fi

if [ "$TRACE" = 1 ]; then
  for i in "${!jars[@]}"; do
    n=${names[$i]}
    [ -z "${host_pid[$n]:-}" ] || kill -TERM "${host_pid[$n]}" "${dev_pid[$n]}" 2>/dev/null || true
  done
  sleep 3
  for i in "${!jars[@]}"; do
    n=${names[$i]}
    for qd in $QDS; do
      start_traced "trace-$n-qd$qd" "${jars[$i]}" "${confs[$i]}"
      wait_ready "trace-$n-qd$qd"
      prime "trace-$n-qd$qd"
      # warm at iodepth 32 whatever is traced: the JIT has compiled the path only after some 10^4 requests
      run_fio warm "nbd://127.0.0.1:${nbd_port[trace-$n-qd$qd]}" 32 "$W/json/trace-warm-$n-qd$qd.json"
      run_fio trace "nbd://127.0.0.1:${nbd_port[trace-$n-qd$qd]}" "$qd" "$W/json/trace-$n-qd$qd.json"
      kill -TERM "${host_pid[trace-$n-qd$qd]}" "${dev_pid[trace-$n-qd$qd]}"
      for _ in $(seq 1 300); do
        kill -0 "${host_pid[trace-$n-qd$qd]}" 2>/dev/null || kill -0 "${dev_pid[trace-$n-qd$qd]}" 2>/dev/null || break
        sleep 0.1
      done
      # the trace covers the warm-up run too: skip it (ramp + runtime + a second for the handshake)
      python3 "$here/trace-summary.py" --label "$n fio qd$qd:" --skip-first $((RUNTIME + RAMP + 1)) \
        "$W"/trace/"trace-$n-qd$qd".*.trace | tee "$W/trace/summary-$n-qd$qd.md" || true
      if [ "$LOAD" = 1 ]; then
        # `mqroute load` through a traced cluster (null backend), the load JVM traced too: warmed at iodepth 32
        # by an untraced load, summarised over the requests that passed load.submit
        k="trace-null-$n-qd$qd"
        start_traced "$k" "${jars[$i]}" "${confs[$i]}" null
        wait_ready "$k"
        run_load "$k" "${jars[$i]}" 32 "$W/json/$k-warm"
        saved=$JAVA_OPTS
        JAVA_OPTS="$JAVA_OPTS -Dmqroute.trace=$W/trace/$k-load"
        run_load "$k" "${jars[$i]}" "$qd" "$W/json/$k"
        JAVA_OPTS=$saved
        kill -TERM "${host_pid[$k]}" "${dev_pid[$k]}"
        for _ in $(seq 1 300); do
          kill -0 "${host_pid[$k]}" 2>/dev/null || kill -0 "${dev_pid[$k]}" 2>/dev/null || break
          sleep 0.1
        done
        python3 "$here/trace-summary.py" --label "$n load qd$qd (null backend):" --require load.submit \
          --skip-first 0 "$W"/trace/"$k"*.trace | tee "$W/trace/summary-null-$n-qd$qd.md" || true
      fi
    done
  done
fi

TICKS=$(getconf CLK_TCK) SPAN=$((RUNTIME + RAMP)) python3 - "$W/json" "$ROUNDS" "$QDS" nbdkit "${names[@]}" <<'PY'
import json, os, statistics, sys
d, rounds, qds, servers = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4:]
# CPU per request: the servers' CPU over the ramp and the run, over the run's rate times both (the ramp runs warm)
ticks, span = int(os.environ["TICKS"]), int(os.environ["SPAN"])
def load(path):
    if not os.path.exists(path):
        return None
    text = open(path).read()
    j = json.loads(text[text.index("{"):])  # fio's nbd engine prints a line before the JSON
    job = j["jobs"][0]["read"]
    lat = job.get("lat_ns") or job.get("clat_ns")
    pc = lat.get("percentile", {})
    def p(k):
        v = pc.get(k)
        return v / 1e3 if v is not None else float("nan")
    cs = cpu = None
    if os.path.exists(path + ".cs"):
        v = [int(x) for x in open(path + ".cs").read().split()]
        n = job.get("total_ios") or job["io_bytes"] // 4096
        cs = (v[0] / n if n else float("nan"), v[1] / n if n else float("nan"))
        if len(v) == 4 and job["iops"] > 0:
            cpu = tuple(t / ticks * 1e6 / (job["iops"] * span) for t in v[2:])
    # the client's own CPU per request (fio's usr_cpu + sys_cpu: percent of one CPU over the run)
    j0 = j["jobs"][0]
    client = ((j0.get("usr_cpu", 0) + j0.get("sys_cpu", 0)) / 100 * 1e6 / job["iops"]
              if "usr_cpu" in j0 and job["iops"] > 0 else float("nan"))
    return dict(iops=job["iops"], mean=lat["mean"] / 1e3, p50=p("50.000000"), p99=p("99.000000"), cs=cs, cpu=cpu,
                client=client)
med = lambda xs: statistics.median(xs) if xs else float("nan")
print()
print("| client | server | iodepth | IOPS | mean lat us | median lat us | p99 lat us | IOPS ratio | median - base's us | ctx switches / req (host, device) | CPU us / req (host, device; nbdkit) | client CPU us / req |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |")
for qd in qds:
    for kind in ("fio", "load", "nullload"):
        for s in servers:
            if s == "nbdkit" and kind != "fio":
                continue
            rs, ratio, dlat = [], [], []
            for r in range(1, rounds + 1):
                x = load(f"{d}/r{r}-{s}-{kind}-qd{qd}.json")
                # fio rows against nbdkit's; mqroute load's against fio through the same cluster
                base = load(f"{d}/r{r}-nbdkit-fio-qd{qd}.json" if kind == "fio" else f"{d}/r{r}-{s}-fio-qd{qd}.json")
                if x is None:
                    continue
                rs.append(x)
                if base and kind != "nullload":
                    ratio.append(x["iops"] / base["iops"])
                    dlat.append(x["p50"] - base["p50"])
            if not rs:
                continue
            # nbdkit's threads live as long as their connection: their switches leave /proc with them
            cs = [x["cs"] for x in rs if x["cs"]] if s != "nbdkit" else []
            cpu = [x["cpu"] for x in rs if x["cpu"]]
            client = {"fio": "fio nbd", "load": "mqroute load", "nullload": "mqroute load"}[kind]
            server = s + (" (null backend)" if kind == "nullload" else "")
            num = lambda v: "" if v != v else f"{v:,.0f}"  # mqroute load reports no percentiles
            num1 = lambda v: "" if v != v else f"{v:.1f}"
            print(f"| {client} | {server} | {qd} | {med([x['iops'] for x in rs]):,.0f} | {num(med([x['mean'] for x in rs]))} | "
                  f"{num(med([x['p50'] for x in rs]))} | {num(med([x['p99'] for x in rs]))} | "
                  + (f"{med(ratio):.2f} of {'nbdkit' if kind == 'fio' else 'fio nbd'}" if ratio and s != "nbdkit" else "") + " | "
                  + (f"{med(dlat):+,.0f}" if dlat and s != "nbdkit" and med(dlat) == med(dlat) else "") + " | "
                  + (f"{med([c[0] for c in cs]):.1f}, {med([c[1] for c in cs]):.1f}" if cs else "") + " | "
                  + ((f"{med([c[0] for c in cpu]):.1f}" if s == "nbdkit" else
                      f"{med([c[0] for c in cpu]):.1f}, {med([c[1] for c in cpu]):.1f}") if cpu else "") + " | "
                  + num1(med([x["client"] for x in rs])) + " |")
print()
print("per round (IOPS):", end="")
for qd in qds:
    for s in servers:
        print(f"\n  qd{qd} {s} fio: " + ", ".join(
            f"{load(f'{d}/r{r}-{s}-fio-qd{qd}.json')['iops']:,.0f}" for r in range(1, rounds + 1)
            if load(f'{d}/r{r}-{s}-fio-qd{qd}.json')), end="")
print()
PY
# file-io = auto's punts to the blocking pool during the whole run (0: every read was inline)
for key in "${!dev_mgmt[@]}"; do
  n=$(curl -sf "http://127.0.0.1:${dev_mgmt[$key]}/metrics" 2>/dev/null |
    awk -F' ' '/event="file-io-to-pool"/ {print $2}')
  [ -z "$n" ] || echo "device $key: file-io-to-pool $n"
done
echo "json, logs, traces: $W"

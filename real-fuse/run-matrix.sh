#!/usr/bin/env bash
# Real-kernel FUSE matrix: libfuse's example/passthrough_hp over a 1 GiB file of random bytes, mounted once over
# /dev/fuse and once over fuse-over-io-uring (-o io_uring), fio 4k randread direct=1 over engines x iodepth x
# numjobs. Both mounts stay up for the whole run so that the two modes of each point are measured back to back
# (interleaved A/B, the order alternating per point), which keeps a shared machine's drift out of the ratio.
#
# One command from a clean clone (root, /dev/fuse, fio, meson, ninja, g++, liburing-dev, pkg-config, python3):
#   sudo real-fuse/run-matrix.sh
# Environment (all optional):
#   LIBFUSE_SRC    a local libfuse git repository (or bare git dir) to clone instead of GitHub
#   LIBFUSE_COMMIT the libfuse commit to build (default: the pinned one below)
#   WORK           build and mount area (default /var/tmp/mqroute-real-fuse)
#   OUT            result directory (default real-fuse/results/<UTC timestamp>)
#   REPEATS        how many times the whole matrix runs (default 2)
#   RUNTIME RAMP   fio runtime and ramp_time per run in seconds (default 5 and 1)
#   ENGINES DEPTHS JOBS  the matrix (default "psync io_uring", "1 4 8", "1 2"; iodepth only varies for io_uring)
#   BACKING        tmpfs (default: the server's pread is a copy from RAM, pure CPU work), disk (WORK/backing on
#                  WORK's file system: O_DIRECT reads reach its block device) or a directory to use as it is
#   BUSY_MAX LOAD_WAIT   before each point wait up to LOAD_WAIT s (default 90) until the machine, sampled for 2 s
#                  while this script is idle, is less than BUSY_MAX percent busy (default 15); that share and the
#                  1-minute load average at the start of each run are recorded either way; a pair during which
#                  the others (machine busy less fio and the server) reached BUSY_MAX is run again, up to TRIES
#                  (default 3) times; every attempt is in summary.tsv, column accepted = 1 for a quiet one
#   SERVER_ARGS    extra passthrough_hp arguments for both mounts (default none)
#   EXTRA          more points, ENGINE:IODEPTH:NUMJOBS[:CPUS] (CPUS: fio's cpus_allowed), e.g. "psync:1:1:0"
# Writes OUT/json/<rep>-<point>-<mode>.json (fio's JSON), OUT/summary.tsv (one line per run), OUT/ratio.tsv
# (io_uring / dev-fuse per point and repetition), OUT/machine.txt (kernel, CPUs, idle states, libfuse commit).
# Exit codes: 0 done, 2 cannot run here (not root, no /dev/fuse, a tool missing), 1 a step failed.
set -euo pipefail

PINNED_LIBFUSE_COMMIT=e8d407ce93bf0d87efe7bbfafdfbd3c471597a02 # 2026-08-20, "fuse_lowlevel: add buffer size sanity check for init requests"
LIBFUSE_COMMIT=${LIBFUSE_COMMIT:-$PINNED_LIBFUSE_COMMIT}
LIBFUSE_URL=https://github.com/libfuse/libfuse
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=${WORK:-/var/tmp/mqroute-real-fuse}
OUT=${OUT:-$HERE/results/$(date -u +%Y%m%dT%H%M%SZ)}
REPEATS=${REPEATS:-2}
RUNTIME=${RUNTIME:-5}
RAMP=${RAMP:-1}
ENGINES=${ENGINES:-"psync io_uring"}
DEPTHS=${DEPTHS:-"1 4 8"}
JOBS=${JOBS:-"1 2"}
BACKING=${BACKING:-tmpfs}
BUSY_MAX=${BUSY_MAX:-15}
TRIES=${TRIES:-3}
LOAD_WAIT=${LOAD_WAIT:-90}
SERVER_ARGS=${SERVER_ARGS:-}
URING_PARAM=/sys/module/fuse/parameters/enable_uring

refuse() {
  echo "run-matrix.sh: $*" >&2
  exit 2
}
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

[[ $(id -u) -eq 0 ]] || refuse "must run as root (it mounts FUSE with allow_other and sets $URING_PARAM)"
[[ -c /dev/fuse ]] || refuse "/dev/fuse is missing or not a character device (modprobe fuse?)"
[[ -e $URING_PARAM ]] || refuse "$URING_PARAM is missing: this kernel has no fuse-over-io-uring (needs >= 6.14)"
for tool in fio meson ninja git g++ pkg-config python3 mountpoint; do
  command -v "$tool" >/dev/null || refuse "$tool is not installed (Debian: apt-get install fio meson ninja-build git g++ pkg-config liburing-dev python3)"
done
pkg-config --exists liburing || refuse "liburing's pkg-config file is missing (Debian: apt-get install liburing-dev)"
[[ $RUNTIME =~ ^[0-9]+$ && $RAMP =~ ^[0-9]+$ && $REPEATS =~ ^[0-9]+$ ]] || refuse "RUNTIME, RAMP and REPEATS must be whole numbers"

SRC=$WORK/src       # libfuse checkout
BUILD=$WORK/build
BACK=$WORK/backing  # the directory passthrough_hp mirrors
MNT_DEV=$WORK/mnt-dev-fuse
MNT_URING=$WORK/mnt-io-uring
SERVER_PIDS=()
URING_BEFORE=$(cat "$URING_PARAM")
BACK_MOUNTED=0

cleanup() {
  set +eu
  for m in "$MNT_DEV" "$MNT_URING"; do
    if mountpoint -q "$m" 2>/dev/null; then
      umount "$m" 2>/dev/null || umount -l "$m"
    fi
  done
  for p in "${SERVER_PIDS[@]}"; do
    kill "$p" 2>/dev/null
  done
  for p in "${SERVER_PIDS[@]}"; do
    wait "$p" 2>/dev/null
  done
  if [[ $BACK_MOUNTED == 1 ]]; then
    umount "$BACK" 2>/dev/null || umount -l "$BACK"
  fi
  echo "$URING_BEFORE" >"$URING_PARAM" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$WORK" "$OUT/json"

# --- libfuse at the pinned commit, built with io_uring ---------------------------------------------------------
if [[ ! -d $SRC/.git ]]; then
  rm -rf "$SRC"
  if [[ -n ${LIBFUSE_SRC:-} ]]; then
    log "cloning libfuse from $LIBFUSE_SRC"
    git clone -q "$LIBFUSE_SRC" "$SRC"
  else
    log "cloning $LIBFUSE_URL"
    git clone -q "$LIBFUSE_URL" "$SRC"
  fi
fi
git -C "$SRC" -c advice.detachedHead=false checkout -q "$LIBFUSE_COMMIT" ||
  { echo "run-matrix.sh: commit $LIBFUSE_COMMIT is not in $SRC (fetch it, or set LIBFUSE_SRC)" >&2; exit 1; }
if [[ ! -f $BUILD/build.ninja ]]; then
  log "configuring libfuse $LIBFUSE_COMMIT"
  meson setup "$BUILD" "$SRC" -Denable-io-uring=true -Dexamples=true -Dtests=false -Dutils=false \
    -Dbuildtype=release >"$WORK/meson.log" 2>&1 || { cat "$WORK/meson.log" >&2; exit 1; }
fi
grep -qiE "io_uring support *: *(yes|true)" "$WORK/meson.log" ||
  { echo "run-matrix.sh: meson did not enable io_uring support (see $WORK/meson.log; liburing with SQE128?)" >&2; exit 1; }
ninja -C "$BUILD" example/passthrough_hp >"$WORK/ninja.log" 2>&1 || { tail -30 "$WORK/ninja.log" >&2; exit 1; }
HP=$BUILD/example/passthrough_hp

# --- a 1 GiB file of random bytes -----------------------------------------------------------------------------
mkdir -p "$BACK" "$MNT_DEV" "$MNT_URING"
for m in "$MNT_DEV" "$MNT_URING"; do # left over from a run that was killed
  if mountpoint -q "$m"; then umount "$m"; fi
done
if [[ $BACKING == tmpfs ]]; then
  if mountpoint -q "$BACK"; then umount "$BACK"; fi
  mount -t tmpfs -o size=1200m mqroute-real-fuse "$BACK"
  BACK_MOUNTED=1
elif [[ $BACKING != disk ]]; then
  BACK=$BACKING
fi
if [[ ! -f $BACK/file || $(stat -c %s "$BACK/file") -ne 1073741824 ]]; then
  log "writing 1 GiB of random bytes to $BACK/file"
  head -c 1073741824 /dev/urandom >"$BACK/file"
fi

# --- both mounts ------------------------------------------------------------------------------------------------
echo Y >"$URING_PARAM"
mount_one() { # mountpoint log extra-args...
  local mnt=$1 logf=$2
  shift 2
  # --foreground keeps the server our child, so the trap can end it by pid
  # shellcheck disable=SC2086
  FUSE_INIT_STATUS=1 "$HP" --foreground -o allow_other --nopassthrough $SERVER_ARGS "$@" "$BACK" "$mnt" \
    >"$logf" 2>&1 &
  SERVER_PIDS+=($!)
  for _ in $(seq 100); do
    mountpoint -q "$mnt" && stat "$mnt/file" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  cat "$logf" >&2
  echo "run-matrix.sh: passthrough_hp did not mount $mnt within 10 s" >&2
  exit 1
}
mount_one "$MNT_DEV" "$OUT/server-dev-fuse.log"
PID_DEV=${SERVER_PIDS[-1]}
mount_one "$MNT_URING" "$OUT/server-io-uring.log" -o io_uring
PID_URING=${SERVER_PIDS[-1]}
sleep 0.5
# the ring threads are named fuse-ring-<qid>; without them the kernel or libfuse fell back to /dev/fuse
RINGS=$(cat /proc/"$PID_URING"/task/*/comm 2>/dev/null | grep -c '^fuse-ring-' || true)
[[ $RINGS -gt 0 ]] || { cat "$OUT/server-io-uring.log" >&2; echo "run-matrix.sh: the io_uring mount has no fuse-ring threads" >&2; exit 1; }

{
  echo "date_utc	$(date -u +%FT%TZ)"
  echo "kernel	$(uname -r)"
  # scheduler options of a guest kernel (sched_vcpu_pack=...) change where woken tasks run: keep them
  echo "cmdline	$(cat /proc/cmdline)"
  echo "cpus	$(nproc)"
  echo "cpu_model	$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "cpuidle_driver	$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)"
  echo "cpuidle_governor	$(cat /sys/devices/system/cpu/cpuidle/current_governor_ro 2>/dev/null || echo none)"
  for s in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
    [[ -d $s ]] && echo "idle_state	$(cat "$s/name") latency=$(cat "$s/latency")us residency=$(cat "$s/residency")us disabled=$(cat "$s/disable")"
  done
  echo "cpufreq_governor	$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo none)"
  echo "libfuse_commit	$LIBFUSE_COMMIT"
  echo "fio	$(fio --version)"
  echo "backing	$BACKING"
  echo "ring_threads	$RINGS"
  echo "server_args	-o allow_other --nopassthrough $SERVER_ARGS [-o io_uring]"
  echo "runtime_s	$RUNTIME"
  echo "ramp_s	$RAMP"
} >"$OUT/machine.txt"
grep -h 'io_uring=' "$OUT"/server-*.log >>"$OUT/machine.txt" 2>/dev/null || true

# --- the matrix -------------------------------------------------------------------------------------------------
POINTS=()
for e in $ENGINES; do
  for j in $JOBS; do
    if [[ $e == io_uring || $e == libaio ]]; then
      for d in $DEPTHS; do POINTS+=("$e:$d:$j"); done
    else
      POINTS+=("$e:1:$j")
    fi
  done
done
# EXTRA: more points, ENGINE:IODEPTH:NUMJOBS[:CPUS], CPUS being fio's cpus_allowed (e.g. psync:1:1:0 pins the
# reader to CPU 0, which on the io_uring mount keeps it on its ring thread's CPU: what seed 003's
# wake_up_on_current_cpu does, reached on a mainline kernel)
for p in ${EXTRA:-}; do POINTS+=("$p"); done

load1() { cut -d' ' -f1 /proc/loadavg; }
# busy and total jiffies of the whole machine
machine_ticks() { awk '/^cpu /{busy=$2+$3+$4+$7+$8; total=busy+$5+$6; print busy, total}' /proc/stat; }
# percent of the machine busy over the next 2 s while this script runs nothing: the other tenants' load
others_busy() {
  local b0 t0 b1 t1
  read -r b0 t0 <<<"$(machine_ticks)"
  sleep 2
  read -r b1 t1 <<<"$(machine_ticks)"
  echo $(((b1 - b0) * 100 / (t1 - t0 > 0 ? t1 - t0 : 1)))
}
# The 1-minute load average counts this script's own fio jobs (a 2-job point leaves it near 2 for a minute),
# so the gate is the machine's busy share sampled while we are idle; the load average is recorded beside it.
wait_for_quiet() { # prints "waited_s busy_pct"
  local waited=0 busy
  while :; do
    busy=$(others_busy)
    ((busy < BUSY_MAX || waited >= LOAD_WAIT)) && break
    sleep 3
    waited=$((waited + 5))
  done
  echo "$waited $busy"
}
# CPU ticks of this shell's finished children (fio) between two `times` snapshots (the builtin must run in this
# shell, not in a $(...) subshell, whose counters start at zero)
ticks_between() {
  python3 -c "
import re, sys
def t(f):
    line = open(f).read().splitlines()[-1]
    return sum(float(m) * 60 + float(s) for m, s in re.findall(r'(\d+)m([\d.]+)s', line))
print(round((t(sys.argv[2]) - t(sys.argv[1])) * 100))" "$1" "$2"
}
# CPU ticks (user+system) of a process and its threads, /proc/PID/stat fields 14 and 15
proc_ticks() { awk '{print $14 + $15}' /proc/"$1"/stat; }
run_one() { # rep point mode mountpoint server-pid waited
  local rep=$1 point=$2 mode=$3 mnt=$4 pid=$5 waited=$6
  local e d j c
  IFS=: read -r e d j c <<<"$point"
  local name="$rep-$e-qd$d-nj$j${c:+-cpus$c}-$mode-try$TRY"
  local pin=()
  [[ -n $c ]] && pin=(--cpus_allowed="$c")
  local l_before s_before m_before
  l_before=$(load1)
  s_before=$(proc_ticks "$pid")
  m_before=$(machine_ticks)
  times >"$OUT/.times0"
  fio --name=p --filename="$mnt/file" --rw=randread --bs=4k --direct=1 --size=1g --ioengine="$e" \
    --iodepth="$d" --numjobs="$j" "${pin[@]}" --time_based --runtime="${RUNTIME}s" --ramp_time="${RAMP}s" \
    --group_reporting --output-format=json --output="$OUT/json/$name.json" >/dev/null
  times >"$OUT/.times1"
  local s_after m_after
  s_after=$(proc_ticks "$pid")
  m_after=$(machine_ticks)
  python3 - "$OUT/json/$name.json" "$rep" "$e" "$d" "$j${c:+:cpus$c}" "$mode" "$l_before" "$(load1)" "$waited" \
    "$((s_after - s_before))" "$m_before" "$m_after" "$RUNTIME" "$RAMP" "$(ticks_between "$OUT/.times0" "$OUT/.times1")" >>"$OUT/.pair" <<'EOF'
import json, sys
f, rep, e, d, j, mode, lb, la, waited, sticks, mb, ma, runtime, ramp, fticks = sys.argv[1:]
r = json.load(open(f))["jobs"][0]
rd = r["read"]
c = rd["clat_ns"]
p = c.get("percentile", {})
hz = 100.0  # USER_HZ
b0, t0 = map(int, mb.split()); b1, t1 = map(int, ma.split())
wall = float(runtime) + float(ramp)
ios = rd["iops"] * wall  # the server also works during the ramp: charge its CPU per request over both
print("\t".join(str(x) for x in [
    rep, f"{e}:qd{d}:nj{j}", e, d, j.split(":")[0], mode, round(rd["iops"]), round(c["mean"] / 1e3, 2),
    round(p.get("50.000000", 0) / 1e3, 2), round(p.get("99.000000", 0) / 1e3, 2),
    round(rd["lat_ns"]["mean"] / 1e3, 2), round(r["usr_cpu"], 1), round(r["sys_cpu"], 1), r["ctx"],
    round(int(sticks) / hz * 1e6 / ios, 2) if ios else "", round((b1 - b0) / max(1, t1 - t0) * 100, 1),
    lb, la, *waited.split(),
    # the other tenants during the run: the machine's busy ticks less this server's and fio's
    round(max(0, (b1 - b0) - int(sticks) - int(fticks)) / max(1, t1 - t0) * 100, 1)]))
EOF
  log "$(tail -1 "$OUT/.pair" | cut -f2,6,7,8,10,17,21)"
}

printf 'rep\tpoint\tengine\tiodepth\tnumjobs\tmode\tiops\tclat_mean_us\tclat_p50_us\tclat_p99_us\tlat_mean_us\tfio_usr_pct\tfio_sys_pct\tfio_ctx\tserver_cpu_us_per_req\tmachine_busy_pct\tload1_before\tload1_after\tquiet_waited_s\tothers_busy_pct\tothers_during_pct\taccepted\n' \
  >"$OUT/summary.tsv"
log "libfuse $LIBFUSE_COMMIT, $RINGS ring threads; ${#POINTS[@]} points x 2 modes x $REPEATS repetitions x $((RUNTIME + RAMP)) s; results in $OUT"
i=0
for rep in $(seq "$REPEATS"); do
  for point in "${POINTS[@]}"; do
    for TRY in $(seq "$TRIES"); do
      waited=$(wait_for_quiet)
      : >"$OUT/.pair"
      # alternate which mode goes first, so that neither always runs on a machine the other has just warmed
      if (((i + rep) % 2 == 0)); then
        run_one "$rep" "$point" dev-fuse "$MNT_DEV" "$PID_DEV" "$waited"
        run_one "$rep" "$point" io-uring "$MNT_URING" "$PID_URING" "$waited"
      else
        run_one "$rep" "$point" io-uring "$MNT_URING" "$PID_URING" "$waited"
        run_one "$rep" "$point" dev-fuse "$MNT_DEV" "$PID_DEV" "$waited"
      fi
      # the pair counts when the other tenants kept below BUSY_MAX during both halves; else try again
      quiet=$(awk -F'\t' -v max="$BUSY_MAX" '$21 >= max {bad=1} END {print bad ? 0 : 1}' "$OUT/.pair")
      last=$([[ $TRY -eq $TRIES ]] && echo 1 || echo 0)
      awk -v ok="$quiet" 'BEGIN{OFS="\t"} {print $0, ok}' "$OUT/.pair" >>"$OUT/summary.tsv"
      [[ $quiet == 1 || $last == 1 ]] && break
      log "others busy during the pair: trying $point again"
    done
    i=$((i + 1))
  done
done

python3 - "$OUT/summary.tsv" >"$OUT/ratio.tsv" <<'EOF'
import csv, statistics, sys
every = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
# the quiet pairs of a point; a point without one keeps all its pairs (marked: quiet = 0)
quiet = {r["point"] for r in every if r["accepted"] == "1"}
rows = [r for r in every if r["accepted"] == "1" or r["point"] not in quiet]
by = {}
for r in rows:
    by.setdefault((r["point"], r["rep"]), {})[r["mode"]] = r
print("point\trep\tdev_fuse_iops\tio_uring_iops\tratio\tload1_before\tquiet")
ratios = {}
for (point, rep), m in by.items():
    if "dev-fuse" in m and "io-uring" in m:
        a, b = int(m["dev-fuse"]["iops"]), int(m["io-uring"]["iops"])
        ratios.setdefault(point, []).append(b / a)
        print(f"{point}\t{rep}\t{a}\t{b}\t{b / a:.3f}\t{m['dev-fuse']['load1_before']}\t{m['dev-fuse']['accepted']}")
for point, rs in ratios.items():
    print(f"{point}\tall\t\t\t{statistics.mean(rs):.3f} (min {min(rs):.3f}, max {max(rs):.3f})\t")
EOF
cat "$OUT/ratio.tsv" >&2
rm -f "$OUT/.pair" "$OUT/.times0" "$OUT/.times1" # scratch of the last pair
log "done: $OUT"

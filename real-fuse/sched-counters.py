#!/usr/bin/env python3
"""Per-thread scheduler counters of fio and the FUSE server over 2 s in the middle of a fio run (issue 21).

  real-fuse/sched-counters.py ENGINE:IODEPTH:NUMJOBS[:CPUS] dev-fuse|io-uring

Needs the two mounts of real-fuse/run-matrix.sh (WORK=/var/tmp/mqroute-real-fuse) to be up. Prints, per thread,
its CPU time (se.sum_exec_runtime), migrations and voluntary / involuntary switches per request, from
/proc/TID/sched, which counts every event (a perf trace of a halted vCPU drops some)."""
import sys, subprocess, time, os, glob, json, re
W = os.environ.get("WORK", "/var/tmp/mqroute-real-fuse")
def die(msg):
    print(f"sched-counters.py: {msg}", file=sys.stderr)
    sys.exit(2)
if len(sys.argv) != 3 or sys.argv[2] not in ("dev-fuse", "io-uring"):
    die("usage: sched-counters.py ENGINE:IODEPTH:NUMJOBS[:CPUS] dev-fuse|io-uring")
point, mode = sys.argv[1], sys.argv[2]
if not re.fullmatch(r"\w+:\d+:\d+(:[\d,-]+)?", point):
    die(f"point {point}: not ENGINE:IODEPTH:NUMJOBS[:CPUS]")
e, d, j, *c = point.split(":")
mnt = f"{W}/mnt-io-uring" if mode == "io-uring" else f"{W}/mnt-dev-fuse"
found = subprocess.run(["pgrep", "-f", f"passthrough_hp.*{os.path.basename(mnt)}"], capture_output=True, text=True)
if not os.path.ismount(mnt) or not found.stdout.split():
    die(f"{mnt} is not mounted by passthrough_hp (bring up run-matrix.sh's mounts; WORK={W})")
srv = found.stdout.split()[0]
args = ["fio", "--name=p", f"--filename={mnt}/file", "--rw=randread", "--bs=4k", "--direct=1", "--size=1g",
        f"--ioengine={e}", f"--iodepth={d}", f"--numjobs={j}", "--time_based", "--runtime=4s",
        "--output-format=json", "--output=/tmp/sched-counters-fio.json", "--group_reporting"] + ([f"--cpus_allowed={c[0]}"] if c else [])
p = subprocess.Popen(args, stdout=subprocess.DEVNULL)
def threads():
    out = {}
    pids = [srv] + subprocess.run(["pgrep", "-x", "fio"], capture_output=True, text=True).stdout.split()
    for pid in pids:
        for t in glob.glob(f"/proc/{pid}/task/*"):
            try:
                comm = open(t + "/comm").read().strip()
                s = open(t + "/sched").read()
                v = {k: float(x) for k, x in re.findall(r"^(\S+)\s+:\s+([\d.]+)$", s, re.M)}
                cpu = int(open(t + "/stat").read().rsplit(")", 1)[1].split()[36])
                out[t] = (comm, v, cpu)
            except Exception:
                pass
    return out
time.sleep(1.2); a = threads(); t0 = time.time(); time.sleep(2.0); b = threads(); dt = time.time() - t0
p.wait()
iops = json.load(open("/tmp/sched-counters-fio.json"))["jobs"][0]["read"]["iops"]
n = iops * dt
print(f"{point} {mode}: {iops:,.0f} IOPS; per request over {dt:.1f}s (us/sleep: CPU time per voluntary switch):")
print(f"{'thread':18s} {'cpu_us':>7s} {'migr':>7s} {'vol_sw':>7s} {'invol':>7s} {'us/sleep':>8s} last_cpu")
for t in sorted(b):
    if t not in a: continue
    comm, vb, cpu = b[t]; va = a[t][1]
    dx = lambda k: (vb.get(k, 0) - va.get(k, 0))
    ex = dx("se.sum_exec_runtime")
    if ex < 1: continue   # ms
    vol = dx('nr_voluntary_switches')
    per_sleep = f"{ex * 1e3 / vol:8.2f}" if vol else f"{'':8s}"
    print(f"{comm[:18]:18s} {ex*1e3/n:7.3f} {dx('se.nr_migrations')/n:7.3f} {vol/n:7.3f} {dx('nr_involuntary_switches')/n:7.3f} {per_sleep} {cpu}")

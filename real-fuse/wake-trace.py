#!/usr/bin/env python3
"""Where fio's wake-ups put it, against how long the other vCPU had been idle (issue 21).

  real-fuse/wake-trace.py ENGINE:IODEPTH:NUMJOBS dev-fuse|io-uring [SECONDS]
  real-fuse/wake-trace.py --script PERF_SCRIPT_OUTPUT

Needs the two mounts of real-fuse/run-matrix.sh (WORK=/var/tmp/mqroute-real-fuse) and perf. Runs fio 4 s on the
mount and records SECONDS (default 0.3) of sched_waking / sched_wakeup / sched_switch on every CPU in the middle
of it, then, for each wake-up of the busiest fio thread issued on the CPU it last ran on: did it stay there or move
to the other CPU, and how long had that CPU been idle (since its last switch to the idle task)? Prints the share
that moved per idle-time bucket and how a move follows a move. On dev-fuse it also prints the server threads'
wake-ups: per request, by whom, on which CPU they land, and how long a libfuse worker runs before it sleeps again
(under 3 us: woken for a request another worker had taken), and, from the fuse:fuse_request_send / _end
tracepoints, at each request sent: how many FUSE requests are outstanding and how many workers sleep. Two CPUs
only. perf's own threads wake CPUs: the
regime of a run under it can differ from one without (the IOPS are printed; compare with run-matrix.sh's)."""
import collections, json, os, re, subprocess, sys, tempfile, time

W = os.environ.get("WORK", "/var/tmp/mqroute-real-fuse")
EDGES = [0, 50, 80, 100, 120, 150, 200, 300, 500, 1000, 5000, float("inf")]
LINE = re.compile(r"\s*(\S.*?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s+(.*)")


def die(msg):
    print(f"wake-trace.py: {msg}", file=sys.stderr)
    sys.exit(2)


def record(point, mode, seconds):
    if not re.fullmatch(r"\w+:\d+:\d+", point):
        die(f"point {point}: not ENGINE:IODEPTH:NUMJOBS")
    e, d, j = point.split(":")
    mnt = f"{W}/mnt-io-uring" if mode == "io-uring" else f"{W}/mnt-dev-fuse"
    if not os.path.ismount(mnt):
        die(f"{mnt} is not mounted (bring up run-matrix.sh's mounts; WORK={W})")
    if subprocess.run(["which", "perf"], capture_output=True).returncode != 0:
        die("perf is not installed (apt-get install linux-perf)")
    tmp = tempfile.mkdtemp(prefix="wake-trace-")
    fio_json, data = f"{tmp}/fio.json", f"{tmp}/perf.data"
    fio = subprocess.Popen(["fio", "--name=p", f"--filename={mnt}/file", "--rw=randread", "--bs=4k", "--direct=1",
                            "--size=1g", f"--ioengine={e}", f"--iodepth={d}", f"--numjobs={j}", "--time_based",
                            "--runtime=4s", "--ramp_time=1s", "--group_reporting", "--output-format=json",
                            f"--output={fio_json}"], stdout=subprocess.DEVNULL)
    time.sleep(2.0)
    events = ["sched:sched_waking", "sched:sched_wakeup", "sched:sched_switch"]
    if mode == "dev-fuse" and "fuse:fuse_request_send" in subprocess.run(["perf", "list"], capture_output=True,
                                                                          text=True).stdout:
        events += ["fuse:fuse_request_send", "fuse:fuse_request_end"]
    rec = subprocess.run(["perf", "record", "-q", "-a", "-o", data] + [a for e in events for a in ("-e", e)]
                         + ["--", "sleep", str(seconds)], capture_output=True, text=True)
    fio.wait()
    if rec.returncode != 0 or fio.returncode != 0:
        die(f"perf record (exit {rec.returncode}) or fio (exit {fio.returncode}) failed: {rec.stderr.strip()[-200:]}")
    iops = json.load(open(fio_json))["jobs"][0]["read"]["iops"]
    out = subprocess.run(["perf", "script", "-i", data], capture_output=True, text=True).stdout
    print(f"{point} {mode}: {iops:,.0f} IOPS with {seconds} s of perf record in the middle")
    return out, iops


def servers(ev, iops):
    """The FUSE server threads' wake-ups (dev-fuse: the workers, and libfuse's teardown watchdog named
    passthrough_hp), per request."""
    requests = iops * (ev[-1][2] - ev[0][2])
    by, lands, runs, since = collections.Counter(), collections.Counter(), [], {}
    outstanding, asleep, sent, state = collections.Counter(), collections.Counter(), {}, {}
    for comm, cpu, ts, name, rest in ev:
        if name == "fuse:fuse_request_send":
            # an end the trace lost (perf drops events of a halted vCPU) would count for ever: a request
            # outstanding for 2 ms here is one whose end was lost
            for u in [u for u, t in sent.items() if ts - t > 0.002]:
                del sent[u]
            sent[re.search(r"req (\d+)", rest).group(1)] = ts
            outstanding[len(sent)] += 1
            asleep[sum(1 for st in state.values() if st == "S")] += 1
        elif name == "fuse:fuse_request_end":
            sent.pop(re.search(r"req (\d+)", rest).group(1), None)
        if name == "sched:sched_waking":
            m = re.search(r"comm=(\S+) pid=(\d+)", rest)
            if m.group(1) in ("fuse_worker", "passthrough_hp"):
                by[(m.group(1), comm.split("-")[0])] += 1
            if m.group(1) == "fuse_worker":
                state[m.group(2)] = "R"
        elif name == "sched:sched_wakeup":
            m = re.search(r"comm=(\S+) pid=\d+ .*target_cpu=(\d+)", rest)
            if m and m.group(1) in ("fuse_worker", "passthrough_hp"):
                lands[(m.group(1), int(m.group(2)))] += 1
        elif name == "sched:sched_switch":
            p = re.search(r"prev_comm=(.*?) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*?) next_pid=(\d+)", rest)
            if p.group(1) == "fuse_worker":
                state[p.group(2)] = "S" if p.group(3).startswith("S") else "R"
            if p.group(4) == "fuse_worker":
                state[p.group(5)] = "R"
            if p.group(1) == "fuse_worker" and p.group(3).startswith("S") and since.get(p.group(2), (0, -1))[1] == cpu:
                runs.append((ts - since[p.group(2)][0]) * 1e6)
            since[p.group(5)] = (ts, cpu)
    if not requests or not by:
        return
    print(f"server threads' wake-ups per request ({requests:,.0f} requests in the trace):")
    for (wakee, waker), n in by.most_common():
        print(f"  {wakee} woken by {waker}: {n / requests:.3f}")
    for wakee in sorted({w for w, _ in by}):
        cpus = ", ".join(f"CPU {c} {lands[(wakee, c)] / requests:.3f}" for c in (0, 1))
        print(f"  {wakee} woken onto (sched_wakeup seen): {cpus}")
    n = sum(outstanding.values())
    if n:
        # the first ends of the trace belong to requests sent before it: counts settle after a few
        share = lambda c, k: f"{k}: {c[k] / n:.2f}"
        print(f"at each of {n:,} requests sent, FUSE requests outstanding (with it): "
              + ", ".join(share(outstanding, k) for k in sorted(outstanding) if outstanding[k] / n >= 0.005))
        print(f"  workers asleep then ({len(state)} workers seen): "
              + ", ".join(share(asleep, k) for k in sorted(asleep) if asleep[k] / n >= 0.005))
    if runs:
        runs.sort()
        q = lambda f: runs[int(f * (len(runs) - 1))]
        print(f"a worker's run before it sleeps again: p10 {q(.1):.1f} us, p50 {q(.5):.1f} us, p90 {q(.9):.1f} us;"
              f" under 3 us (woken for nothing): {sum(r < 3 for r in runs) / len(runs):.2f}")


def analyse(text, iops=None):
    ev = []
    for l in text.splitlines():
        m = LINE.match(l)
        if m:
            ev.append((m.group(1).strip(), int(m.group(3)), float(m.group(4)), m.group(5), m.group(6)))
    wakes = collections.Counter(re.search(r"pid=(\d+)", e[4]).group(1) for e in ev
                                if e[3] == "sched:sched_waking" and "comm=fio " in e[4])
    if iops:
        servers(ev, iops)
    if not wakes:
        die("no wake-up of fio in the trace")
    fio = wakes.most_common(1)[0][0]
    if any(e[1] > 1 for e in ev):
        die("a CPU above 1 in the trace: the analysis is for two CPUs")
    idle_since, last_cpu, seen = {0: None, 1: None}, None, []
    for i, (comm, cpu, ts, name, rest) in enumerate(ev):
        if name == "sched:sched_switch":
            nxt = re.search(r"next_comm=(.*?) next_pid=(\d+)", rest)
            idle_since[cpu] = ts if nxt.group(1).startswith("swapper") else None
            if re.search(rf"prev_pid={fio} ", rest) or nxt.group(2) == fio:
                last_cpu = cpu
        elif name == "sched:sched_waking" and re.search(rf"pid={fio} ", rest) and cpu == last_cpu:
            target = next((int(re.search(r"target_cpu=(\d+)", f[4]).group(1)) for f in ev[i + 1:i + 40]
                           if f[3] == "sched:sched_wakeup" and re.search(rf"pid={fio} ", f[4])), None)
            other = idle_since[1 - cpu]
            if target is not None and other is not None:
                seen.append((target != cpu, (ts - other) * 1e6))
    if not seen:
        die("no wake-up of fio on its own CPU while the other one was idle")
    print(f"fio pid {fio}: {len(seen)} wake-ups issued on its CPU while the other CPU was idle")
    print("other CPU idle for (us)\twake-ups\tmoved to it")
    for lo, hi in zip(EDGES, EDGES[1:]):
        b = [m for m, idle in seen if lo <= idle < hi]
        if b:
            print(f"{lo:.0f}-{hi:.0f}\t{len(b)}\t{sum(b) / len(b):.2f}")
    pairs = collections.Counter((a[0], b[0]) for a, b in zip(seen, seen[1:]) if b[1] < 100)
    print("under 100 us idle, after a move: moved %d, stayed %d; after a stay: moved %d, stayed %d"
          % (pairs[(True, True)], pairs[(True, False)], pairs[(False, True)], pairs[(False, False)]))


def main():
    a = sys.argv[1:]
    if len(a) == 2 and a[0] == "--script":
        if not os.path.isfile(a[1]):
            die(f"{a[1]}: no such file")
        analyse(open(a[1]).read())
    elif len(a) in (2, 3) and a[1] in ("dev-fuse", "io-uring"):
        try:
            seconds = float(a[2]) if len(a) == 3 else 0.3
        except ValueError:
            die(f"SECONDS {a[2]}: not a number")
        if not 0 < seconds <= 2:
            die("SECONDS must be in (0, 2] (fio runs 4 s)")
        analyse(*record(a[0], a[1], seconds))
    else:
        die("usage: wake-trace.py ENGINE:IODEPTH:NUMJOBS dev-fuse|io-uring [SECONDS] | --script PERF_SCRIPT_OUTPUT")


main()

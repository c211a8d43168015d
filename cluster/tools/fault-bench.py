#!/usr/bin/env python3
"""SIGKILL or SIGSTOP of a device node under `mqroute load` (issue #15, BENCHMARKS.md "Faults under load").

Starts the README's three-node loopback cluster as separate processes of one jar (host on PORT, devices on
PORT+1 and PORT+2, management on +1000; both devices on one --data directory unless --null), runs
`mqroute load` with a job file (default cluster-config/randrw-fault.fio: 2 clones x iodepth 16 randrw, 20 s),
polls the host's /metrics every 10 ms, and FAULT_AT seconds into the load kills (kill) or stops (stop, then
SIGCONT after --stop-seconds) device B. Prints one JSON line per run:

  pre_rate       completions/s on the host over the 5 s before the fault
  recovered_ms   from the fault to the start of the first 100 ms bin from which every bin of the next 500 ms
                 completes more than half of pre_rate (null: never within the run)
  worst_100ms    the lowest 100 ms bin in the 2 s after the fault, as a fraction of pre_rate
  stall_ms       the longest time without any completion on the host after the fault
  client         the load's summary line; host_total / host_by_status / host_in_flight_end from /metrics
  late           host: completions that arrived after the host had ended their request with ECONNABORTED
                 (the device did it after all); fenced: device B's requests refused by the fence
  events, queue_silence_us: the host's /status at the end (suspicions, reinstatements; how long a queue
                 with requests outstanding went without answering)

  --fault none measures a healthy run (e.g. with --config giving suspect-after = off: the silences a
  healthy queue has, which suspect-after must stay above).

  cluster/tools/fault-bench.py --jar cli/target/mqroute.jar --fault kill --repeat 3
  cluster/tools/fault-bench.py --jar cli/target/mqroute.jar --fault stop --stop-seconds 10 --repeat 3

Every process is killed at the end, whatever happened.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

METRIC = re.compile(r'^(mqroute_[a-z_]+)(?:\{([^}]*)\})? (\S+)$')


def free(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a TIME_WAIT of the last run is no owner
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def metrics(conn):
    conn.request("GET", "/metrics")
    r = conn.getresponse()
    body = r.read().decode()
    out = {}
    for line in body.splitlines():
        m = METRIC.match(line)
        if m:
            out[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return out


def by_status(m):
    st = {}
    for (name, labels), v in m.items():
        if name == "mqroute_requests_total":
            st[labels.split('"')[1]] = int(v)
    return st


def event(m, kind):
    return int(m.get(("mqroute_events_total", 'event="%s"' % kind), 0))


def status(port):
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        c.request("GET", "/status")
        r = c.getresponse()
        return json.loads(r.read()) if r.status == 200 else None
    except (OSError, ValueError):
        return None


def run(a, n):
    work = tempfile.mkdtemp(prefix="fault-bench-")
    procs = []
    java = ["java", "-XX:+UseParallelGC", "-jar", a.jar]
    try:
        keys = os.path.join(work, "keys")
        subprocess.run(java + ["keys", keys], check=True, stdout=subprocess.DEVNULL)
        p = a.base_port
        seeds = "127.0.0.1:%d,127.0.0.1:%d,127.0.0.1:%d" % (p, p + 1, p + 2)
        data = os.path.join(work, "data")
        os.makedirs(data)
        extra = []
        if a.config:
            extra = ["--config", os.path.abspath(a.config)]

        def node(name, args):
            log = open(os.path.join(work, name + ".log"), "w")
            pr = subprocess.Popen(java + ["node", "--keys", keys, "--seeds", seeds] + args + extra,
                                  stdout=log, stderr=subprocess.STDOUT)
            procs.append(pr)
            return pr

        node("host", ["--role", "host", "--port", str(p)])
        dev = [] if a.null else ["--data", data]
        node("device-a", ["--role", "device", "--port", str(p + 1)] + dev)
        b = node("device-b", ["--role", "device", "--port", str(p + 2), "--first-queue", "16"] + dev)
        deadline = time.time() + 120
        while True:
            s = status(p + 1000)
            if s and len(s.get("nodes", [])) == 3 and all(x.get("status") == "Up" for x in s["nodes"]) \
                    and len(s.get("queues", [])) >= 4:
                break
            if time.time() > deadline:
                raise SystemExit("cluster did not form; logs in " + work)
            time.sleep(0.2)
        conn = http.client.HTTPConnection("127.0.0.1", p + 1000, timeout=5)
        before = metrics(conn)
        load_out = open(os.path.join(work, "load.log"), "w")
        load = subprocess.Popen(java + ["load", "--seeds", "127.0.0.1:%d" % p, "--keys", keys, a.job],
                                stdout=load_out, stderr=subprocess.STDOUT)
        procs.append(load)
        samples = []  # (t, completions)
        fault_t = None
        cont_t = None
        start_t = None
        while load.poll() is None:
            try:
                m = metrics(conn)
            except (OSError, http.client.HTTPException):
                conn = http.client.HTTPConnection("127.0.0.1", p + 1000, timeout=5)
                continue
            t = time.monotonic()
            total = int(sum(by_status(m).values()))
            samples.append((t, total))
            if start_t is None and total > int(sum(by_status(before).values())):
                start_t = t
            if start_t is not None and fault_t is None and t - start_t >= a.fault_at and a.fault != "none":
                b.send_signal(signal.SIGKILL if a.fault == "kill" else signal.SIGSTOP)
                fault_t = time.monotonic()
            if a.fault == "stop" and fault_t is not None and cont_t is None \
                    and time.monotonic() - fault_t >= a.stop_seconds:
                b.send_signal(signal.SIGCONT)
                cont_t = time.monotonic()
            time.sleep(0.01)
        if a.fault == "stop" and cont_t is None and fault_t is not None:
            b.send_signal(signal.SIGCONT)
        time.sleep(1.0)  # late completions of a resumed device
        end = metrics(conn)
        host_status = status(p + 1000) or {}
        load_out.close()
        summary = ""
        with open(os.path.join(work, "load.log")) as f:
            for line in f:
                if line.startswith("summary:"):
                    summary = line.strip()
        fenced = None
        if a.fault == "stop":
            s = None
            try:
                s = metrics(http.client.HTTPConnection("127.0.0.1", p + 1002, timeout=5))
            except OSError:
                pass
            fenced = event(s, "request-fenced") if s else None
        out = report(a, n, samples, fault_t if a.fault != "none" else start_t + a.fault_at, before, end,
                     summary, fenced, work)
        out["events"] = host_status.get("events")
        out["queue_silence_us"] = host_status.get("queue_silence_us")
        return out
    finally:
        for pr in procs:
            try:
                pr.send_signal(signal.SIGCONT)
                pr.kill()
            except OSError:
                pass
        for pr in procs:
            pr.wait()
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


def report(a, n, samples, fault_t, before, end, summary, fenced, work):
    if fault_t is None:
        return {"run": n, "error": "the load ended before the fault", "logs": work}

    def count_at(t):
        # completions counted by time t (last sample at or before t)
        c = samples[0][1]
        for ts, v in samples:
            if ts > t:
                break
            c = v
        return c

    pre = (count_at(fault_t) - count_at(fault_t - 5.0)) / 5.0
    last_t = samples[-1][0]
    bins = []
    t = fault_t
    while t + 0.1 <= last_t:
        bins.append((t, (count_at(t + 0.1) - count_at(t)) / 0.1))
        t += 0.1
    recovered = None
    for i in range(len(bins)):
        window = bins[i:i + 5]
        if len(window) == 5 and all(r > pre / 2 for _, r in window):
            recovered = round((bins[i][0] - fault_t) * 1000)
            break
    worst = min((r for _, r in bins[:20]), default=0) / pre if pre else None
    stall = 0.0
    prev_t, prev_v = None, None
    for ts, v in samples:
        if ts < fault_t:
            prev_t, prev_v = ts, v
            continue
        if prev_v is not None and v > prev_v:
            stall = max(stall, ts - prev_t)
            prev_t, prev_v = ts, v
        elif prev_v is None:
            prev_t, prev_v = ts, v
    base = by_status(before)
    host = {k: v - base.get(k, 0) for k, v in by_status(end).items() if v - base.get(k, 0)}
    return {
        "run": n, "fault": a.fault, "pre_rate": round(pre), "recovered_ms": recovered,
        "worst_100ms": None if worst is None else round(worst, 3), "stall_ms": round(stall * 1000),
        "client": summary, "host_total": sum(host.values()), "host_by_status": host,
        "host_in_flight_end": int(end.get(("mqroute_in_flight", ""), -1)),
        "late": event(end, "completion-after-end") - event(before, "completion-after-end"),
        "fenced": fenced, "logs": work if a.keep else None,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jar", default="cli/target/mqroute.jar")
    ap.add_argument("--job", default="cluster-config/randrw-fault.fio")
    ap.add_argument("--fault", choices=["kill", "stop", "none"], required=True)
    ap.add_argument("--fault-at", type=float, default=8.0, help="seconds into the load (default 8)")
    ap.add_argument("--stop-seconds", type=float, default=10.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--base-port", type=int, default=27520)
    ap.add_argument("--null", action="store_true", help="null backend instead of one --data directory")
    ap.add_argument("--config", help="a node --config file for all three nodes (no role, port or seeds in it)")
    ap.add_argument("--keep", action="store_true", help="keep the logs")
    a = ap.parse_args()
    # a SIGTERM to this script still kills what it started (the finally in run)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    for q in (0, 1, 2, 1000, 1001, 1002):
        if not free(a.base_port + q):
            sys.exit("port %d is taken" % (a.base_port + q))
    for n in range(1, a.repeat + 1):
        print(json.dumps(run(a, n)), flush=True)


if __name__ == "__main__":
    main()

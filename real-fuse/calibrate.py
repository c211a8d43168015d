#!/usr/bin/env python3
"""Calibrate the model of this machine on at most 3 measured points, then predict the whole matrix.

  real-fuse/calibrate.py MEASURED_DIR [MEASURED_DIR ...] [--fit POINT ...] [--param KEY=LO:HI ...]
                         [--machine experiments/machines/this-vm.conf] [--write] [--no-fit]

MEASURED_DIR: directories written by real-fuse/run-matrix.sh (their summary.tsv); a point's measured IOPS is the
median over every repetition found. POINT: MODE/ENGINE:qdD:njJ, e.g. dev-fuse/psync:qd1:nj1 or
io-uring/io_uring:qd8:nj2 (at most 3). KEY: a machine-file key (machine.cpu.server-cost, machine.cpu.wake-cost, ...)
or haltpoll-exit (the exit latency of the one C-state, machine.cpu.c-states) or device-cost (device = cpu(X)),
with a range in microseconds. The fit minimises the sum of squared log errors of IOPS at the fit points by
coordinate-wise golden-section search (two rounds); nothing else is tuned. With --write the fitted values
replace the file's values, each with a comment naming the points it was fitted on. Then every point of
experiments/real-fuse-this-vm.conf runs and the table prints: point, mode, measured, predicted, error, fit or
predicted, and the io_uring / dev-fuse ratio per point.
Exit 2 on bad input (one line), 1 when the model fails to run.
"""
import argparse
import csv
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPERIMENT = os.path.join(ROOT, "experiments", "real-fuse-this-vm.conf")
MODES = {"dev-fuse": "dev", "io-uring": "ring"}


def die(msg):
    print(f"calibrate.py: {msg}", file=sys.stderr)
    sys.exit(2)


def variant_of(point):
    """('io-uring', 'io_uring:qd4:nj2') -> ('ring-qd4', 2)."""
    mode, p = point
    m = re.fullmatch(r"(psync|io_uring):qd(\d+):nj(\d+)(?::cpus(\d+))?", p)
    if not m or mode not in MODES:
        die(f"point {mode}/{p} is not MODE/ENGINE:qdD:njJ[:cpusC] with MODE dev-fuse or io-uring")
    engine, d, j = m.group(1), int(m.group(2)), int(m.group(3))
    v = f"{MODES[mode]}-psync" if engine == "psync" else f"{MODES[mode]}-qd{d}"
    if m.group(4) is not None:
        v += f"-cpu{m.group(4)}"
    return v, j


def read_measured(dirs, stat):
    """Per (mode, point): the statistic over the accepted runs (pairs the other tenants left quiet), or over
    every attempt when a point has no accepted run."""
    accepted, every, cpu = {}, {}, {}
    for d in dirs:
        f = os.path.join(d, "summary.tsv")
        if not os.path.isfile(f):
            die(f"{f}: no summary.tsv (a run-matrix.sh result directory?)")
        for r in csv.DictReader(open(f), delimiter="\t"):
            key = (r["mode"], r["point"])
            every.setdefault(key, []).append(float(r["iops"]))
            if r.get("accepted", "1") == "1":
                accepted.setdefault(key, []).append(float(r["iops"]))
            if r.get("server_cpu_us_per_req"):
                cpu.setdefault(key, []).append(float(r["server_cpu_us_per_req"]))
    if not every:
        die("no measured runs")
    runs = {k: accepted.get(k) or v for k, v in every.items()}
    pick = max if stat == "max" else statistics.median
    return {k: pick(v) for k, v in runs.items()}, runs, {k: min(v) for k, v in cpu.items()}


def machine_text(path, values):
    """The machine file with `values` (key -> microseconds) written in."""
    text = open(path).read()
    for key, us in values.items():
        v = fmt(us)
        if key == "haltpoll-exit":
            text, n = re.subn(r'(c-states = "[^"]*?)haltpoll:[^:"]+:', rf'\g<1>haltpoll:{v}:', text)
        elif key == "device-cost":
            text, n = re.subn(r'device = "cpu\([^)]*\)"', f'device = "cpu({v})"', text)
        else:
            leaf = key.split(".")[-1]
            text, n = re.subn(rf"(\n\s*){re.escape(leaf)} = [^\s#]+", rf"\g<1>{leaf} = {v}", text)
            if n == 0:  # not in the file yet: add it to the cpu block
                text, n = re.subn(r"(\n(\s*)cpu \{\n)", rf"\g<1>\g<2>  {leaf} = {v}\n", text, count=1)
        if n == 0:
            die(f"{path}: cannot place {key}")
    return text


def fmt(us):
    ns = int(round(us * 1000))
    return f"{ns}ns" if ns % 1000 else f"{ns // 1000}us"


PARALLEL = "2"
EXPERIMENT_FILE = EXPERIMENT


def run_model(machine, values, variants, quick=False):
    """Runs the experiment (only `variants`, or all) with `values`; returns {(variant, numjobs): iops}."""
    with tempfile.TemporaryDirectory() as tmp:
        mfile = os.path.join(tmp, "machine.conf")
        open(mfile, "w").write(machine_text(machine, values))
        text = open(EXPERIMENT_FILE).read().replace('include "machines/this-vm.conf"', f'include file("{mfile}")')
        if variants is not None:
            keep = []
            for line in text.splitlines():
                m = re.match(r"\s*\{ name = ([\w-]+)", line)
                if m and m.group(1) not in variants:
                    continue
                keep.append(line)
            text = "\n".join(keep) + "\n"
            # the experiment's expectations name every variant: a run of some of them checks none
            text = re.sub(r"(?ms)^expect = \[.*?^\]\n", "", text)
        efile = os.path.join(tmp, "exp.conf")
        open(efile, "w").write(text)
        out = os.path.join(tmp, "out")
        cmd = [os.path.join(ROOT, "mqroute"), "run", efile, "--brief", "--parallel", PARALLEL, "--out", out]
        if quick:
            cmd.append("--quick")
        for attempt in (1, 2):  # once more: on a machine shared with other builds a JVM can fail to start
            p = subprocess.run(cmd, capture_output=True, text=True)
            if os.path.isfile(os.path.join(out, "result.json")):
                break
            print(f"calibrate.py: the model run failed (exit {p.returncode}, attempt {attempt}): "
                  + (p.stderr.strip().splitlines() or ["no stderr"])[-1], file=sys.stderr)
        else:
            print(p.stderr[-3000:], file=sys.stderr)
            print("calibrate.py: the model did not run", file=sys.stderr)
            sys.exit(1)
        res = json.load(open(os.path.join(out, "result.json")))
    got = {}
    for v in res["variants"]:
        m = re.search(r"numjobs=(\d+)", v["id"])
        got[(v["name"], int(m.group(1)) if m else 1)] = v["summary"]["iops"]
    return got


def objective(machine, values, fit, measured):
    variants = {variant_of(p)[0] for p in fit}
    got = run_model(machine, values, variants, quick=True)
    err = 0.0
    for p in fit:
        pred = got[variant_of(p)]
        err += math.log(max(pred, 1e-9) / measured[p]) ** 2
    return err


def golden(f, lo, hi, iters=7):
    g = (math.sqrt(5) - 1) / 2
    a, b = math.log(lo), math.log(hi)
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(math.exp(c)), f(math.exp(d))
    for _ in range(iters):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(math.exp(c))
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(math.exp(d))
    return math.exp(c) if fc < fd else math.exp(d)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("measured", nargs="+")
    ap.add_argument("--fit", nargs="*", default=[])
    ap.add_argument("--param", nargs="*", default=[])
    ap.add_argument("--machine", default=os.path.join(ROOT, "experiments", "machines", "this-vm.conf"))
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--experiment", default=EXPERIMENT,
                    help="the experiment that predicts the matrix (a copy with other variants, for a trial)")
    ap.add_argument("--device-us", type=float, default=1.8,
                    help="the device's CPU per request (device = cpu(X)), subtracted from a server's CPU time")
    ap.add_argument("--costs-from-cpu", action="store_true",
                    help="set server-cost (ring thread) and worker-cost (libfuse worker) to the servers' measured "
                         "CPU time per request at the fit points, less --device-us, and sleep-wake-cost to the "
                         "difference between the highest and lowest /dev/fuse fit point: measured, not fitted")
    ap.add_argument("--stat", choices=["median", "max"], default="median",
                    help="per point: the median of the runs, or the best (the closest an idle machine comes)")
    ap.add_argument("--parallel", type=int, default=2,
                    help="the model's runs in parallel (1 on a machine shared with other work)")
    a = ap.parse_args()
    global PARALLEL, EXPERIMENT_FILE
    PARALLEL = str(max(1, a.parallel))
    EXPERIMENT_FILE = os.path.abspath(a.experiment)
    measured, runs, server_cpu = read_measured(a.measured, a.stat)
    fit = []
    for s in a.fit:
        if "/" not in s:
            die(f"--fit {s}: not MODE/POINT")
        mode, p = s.split("/", 1)
        if (mode, p) not in measured:
            die(f"--fit {s}: not measured (measured: {', '.join(sorted(m + '/' + q for m, q in measured))})")
        variant_of((mode, p))
        fit.append((mode, p))
    if len(fit) > 3:
        die(f"--fit: {len(fit)} points; the fit may use at most 3, the rest are predictions")
    params = {}
    for s in a.param:
        m = re.fullmatch(r"([\w.-]+)=([\d.]+):([\d.]+)", s)
        if not m or float(m.group(2)) <= 0 or float(m.group(3)) <= float(m.group(2)):
            die(f"--param {s}: not KEY=LO:HI in microseconds with 0 < LO < HI")
        params[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    if params and not fit:
        die("--param needs --fit points")
    if len(params) > len(fit):
        die(f"{len(params)} parameters on {len(fit)} points: no more parameters than fit points")
    values = {}
    if a.costs_from_cpu:
        for mode, key in (("io-uring", "machine.cpu.server-cost"), ("dev-fuse", "machine.cpu.worker-cost")):
            seen = [server_cpu[p] for p in fit if p[0] == mode and p in server_cpu]
            if not seen:
                die(f"--costs-from-cpu: no {mode} fit point with a measured server CPU time")
            values[key] = max(0.1, min(seen) - a.device_us)
            print(f"measured: {key} = {fmt(values[key])} (server CPU {min(seen):.2f} us per request at the fit "
                  f"points, less {a.device_us} us of pread)")
        # a sleep-wake cycle of a server thread whose CPU slept: what a /dev/fuse worker's request costs it
        # where every request wakes one on an idle CPU (the highest fit point) beyond a busy worker's (the
        # lowest), when the fit has both; the ring threads' pairs are not among the fit points
        workers = sorted(server_cpu[p] for p in fit if p[0] == "dev-fuse" and p in server_cpu)
        if len(workers) >= 2:
            key = "machine.cpu.sleep-wake-cost"
            values[key] = max(0.1, workers[-1] - workers[0])
            print(f"measured: {key} = {fmt(values[key])} (/dev/fuse worker CPU {workers[-1]:.2f} us per request "
                  f"at the idle fit point less {workers[0]:.2f} us at the busy one)")
    if params:
        values.update({k: math.sqrt(lo * hi) for k, (lo, hi) in params.items()})
        for rnd in range(2):
            for k, (lo, hi) in params.items():
                def f(x, k=k):
                    trial = dict(values)
                    trial[k] = x
                    e = objective(a.machine, trial, fit, measured)
                    print(f"  round {rnd + 1} {k}={x:.3f}us: {e:.5f}", file=sys.stderr)
                    return e
                values[k] = golden(f, lo, hi)
        print("fitted: " + ", ".join(f"{k} = {fmt(values[k])}" for k in params))
        if a.write:
            text = machine_text(a.machine, values)
            note = " ".join(f"{m}/{p}" for m, p in fit)
            for k in values:
                if k not in params:
                    note_k = "measured (server CPU per request) at " + note
                else:
                    note_k = "fitted on " + note
                leaf = {"haltpoll-exit": "c-states", "device-cost": "device"}.get(k, k.split(".")[-1])
                # [ \t]*, not \s*: the comment on the value's own line, never the next line's
                text = re.sub(rf"(\n\s*{re.escape(leaf)} = [^\n#]+?)([ \t]*#[^\n]*)?\n",
                              rf"\g<1>  # {note_k}\n", text, count=1)
            open(a.machine, "w").write(text)
            print(f"wrote {a.machine}")
    got = run_model(a.machine, values if not a.write else {}, None)
    print("point\tmode\tmeasured_iops\tpredicted_iops\terror\tused")
    by_point = {}
    for (mode, p), iops in sorted(measured.items(), key=lambda x: (x[0][1], x[0][0])):
        pred = got.get(variant_of((mode, p)))
        if pred is None:
            continue
        by_point.setdefault(p, {})[mode] = (iops, pred)
        spread = runs[(mode, p)]
        print(f"{p}\t{mode}\t{iops:.0f} ({min(spread):.0f}-{max(spread):.0f})\t{pred:.0f}\t"
              f"{(pred - iops) / iops * 100:+.1f}%\t{'fit' if (mode, p) in fit else 'predicted'}")
    print("\npoint\tmeasured io-uring/dev-fuse\tpredicted\terror\tdirection")
    for p, m in by_point.items():
        if "dev-fuse" in m and "io-uring" in m:
            mr = m["io-uring"][0] / m["dev-fuse"][0]
            pr = m["io-uring"][1] / m["dev-fuse"][1]
            same = (mr > 1) == (pr > 1)
            print(f"{p}\t{mr:.3f}\t{pr:.3f}\t{(pr - mr) / mr * 100:+.1f}%\t{'right' if same else 'WRONG'}")


if __name__ == "__main__":
    main()

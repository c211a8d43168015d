#!/usr/bin/env python3
"""Per-stage latency breakdown of a request trace (io.mqroute.protocol.RequestTrace).

Every JVM run with -Dmqroute.trace=PREFIX writes PREFIX.<pid>.trace at exit: lines "stage key nanos", where key
is the request's submitNanos (the same in every process the request crosses) and nanos System.nanoTime() (one
monotonic clock for all processes of a machine). This joins the files given, keeps the requests that passed the
most common sequence of stages (each stage once), and prints, per hop between consecutive stages, the median,
mean and p99 in microseconds, and the whole path's.

Usage: trace-summary.py [--skip-first SECONDS] [--label TEXT] [--require STAGE] FILE...
"""
import argparse
import collections
import statistics
import sys

ORDER = [
    "nbd.decoded", "nbd.submit", "nbd.out",
    "load.submit", "load.out",
    "host.accept", "host.slot", "host.out",
    "dev.accept", "dev.poller", "dev.io-start", "dev.io-done", "dev.ended", "dev.out",
    "host.slot-done", "host.finished", "host.reply-out",
    "load.done",
    "nbd.completed", "nbd.reply", "nbd.sent",
]
RANK = {s: i for i, s in enumerate(ORDER)}


def pct(sorted_values, p):
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, int(round(p / 100.0 * (len(sorted_values) - 1)))))
    return sorted_values[i]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip-first", type=float, default=0.0,
                    help="ignore requests in the first SECONDS of the trace (JIT warm-up)")
    ap.add_argument("--label", default="")
    ap.add_argument("--require", default=None,
                    help="keep only requests that passed this stage (e.g. load.submit: the load's, not fio's)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    marks = collections.defaultdict(dict)
    dup = set()
    for f in a.files:
        with open(f) as fh:
            for line in fh:
                parts = line.split()
                if len(parts) != 3 or parts[0] not in RANK:
                    continue
                stage, key, t = parts[0], int(parts[1]), int(parts[2])
                m = marks[key]
                if stage in m:
                    dup.add(key)  # two requests with one key, or a stage passed twice: not one path
                m[stage] = t
    for k in dup:
        marks.pop(k, None)
    if not marks:
        print("no complete requests in the trace", file=sys.stderr)
        return 1
    start = min(min(m.values()) for m in marks.values())
    sigs = collections.Counter()
    if a.require:
        marks = {k: m for k, m in marks.items() if a.require in m}
        if not marks:
            print(f"no request passed {a.require}", file=sys.stderr)
            return 1
    for k, m in marks.items():
        if min(m.values()) - start >= a.skip_first * 1e9:
            sigs[tuple(sorted(m, key=RANK.get))] += 1
    sig, n = sigs.most_common(1)[0]
    keys = [k for k, m in marks.items()
            if tuple(sorted(m, key=RANK.get)) == sig and min(m.values()) - start >= a.skip_first * 1e9]
    print(f"{a.label}{' ' if a.label else ''}requests traced: {len(marks)}, on the path below: {n} "
          f"({len(dup)} dropped as ambiguous)")
    print(f"| hop | median us | mean us | p99 us |")
    print(f"| --- | ---: | ---: | ---: |")
    rows = []
    for s0, s1 in zip(sig, sig[1:]):
        d = sorted((marks[k][s1] - marks[k][s0]) / 1e3 for k in keys)
        rows.append((f"{s0} -> {s1}", d))
    whole = sorted((marks[k][sig[-1]] - marks[k][sig[0]]) / 1e3 for k in keys)
    rows.append((f"**{sig[0]} -> {sig[-1]}**", whole))
    for name, d in rows:
        print(f"| {name} | {pct(d, 50):.1f} | {statistics.fmean(d):.1f} | {pct(d, 99):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

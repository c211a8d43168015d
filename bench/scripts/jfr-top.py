#!/usr/bin/env python3
"""A JFR recording's CPU samples in two tables: by thread, and by the hottest frames (self time, and the first
frame of io.mqroute / org.apache.pekko / JDK networking on the stack as "where it was called from").

Usage: jfr-top.py FILE.jfr [TOP] [LAST_SECONDS]   (needs the JDK's `jfr` tool on PATH; LAST_SECONDS: only the
samples of the recording's last seconds, e.g. the measured run without the JVM's start)
"""
import collections
import datetime
import json
import subprocess
import sys


def frames(ev):
    st = ev.get("values", {}).get("stackTrace") or {}
    out = []
    for fr in st.get("frames", []):
        m = fr.get("method", {})
        t = m.get("type", {}).get("name", "?")
        out.append(f"{t}.{m.get('name', '?')}")
    return out


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    raw = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events",
                          "jdk.ExecutionSample", path], capture_output=True, text=True, check=True).stdout
    events = json.loads(raw)["recording"]["events"]
    if len(sys.argv) > 3 and events:
        t = lambda e: datetime.datetime.fromisoformat(e["values"]["startTime"][:26].rstrip("Z"))
        end = max(t(e) for e in events)
        events = [e for e in events if (end - t(e)).total_seconds() <= float(sys.argv[3])]
    n = len(events)
    by_thread = collections.Counter()
    self_frame = collections.Counter()
    area = collections.Counter()
    for ev in events:
        th = ev["values"].get("sampledThread", {}) or {}
        name = th.get("javaName") or th.get("osName") or "?"
        # pool threads by pool: mqroute-pekko.actor.default-dispatcher-5 -> ...default-dispatcher
        base = name.rstrip("0123456789").rstrip("-")
        by_thread[base] += 1
        fs = frames(ev)
        if not fs:
            continue
        self_frame[fs[0]] += 1
        where = next((f for f in fs if f.startswith("io.mqroute.")), None)
        if where is None:
            where = next((f for f in fs if f.startswith("org.apache.pekko.")), fs[0])
        area[where] += 1
    print(f"{path}: {n} CPU samples")
    print("\n| thread (pool) | samples | share |\n| --- | ---: | ---: |")
    for t, c in by_thread.most_common(top):
        print(f"| {t} | {c} | {100.0 * c / n:.1f}% |")
    print("\n| hottest frame (self) | samples | share |\n| --- | ---: | ---: |")
    for f, c in self_frame.most_common(top):
        print(f"| {f} | {c} | {100.0 * c / n:.1f}% |")
    print("\n| innermost io.mqroute (else pekko) frame on the stack | samples | share |\n| --- | ---: | ---: |")
    for f, c in area.most_common(top):
        print(f"| {f} | {c} | {100.0 * c / n:.1f}% |")


if __name__ == "__main__":
    main()

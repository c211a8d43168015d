#!/usr/bin/env bash
# --parallel scaling of one experiment on this machine (issue #18): the whole command's wall time with
# --parallel 1 and --parallel P, alternated ROUNDS times (P, 1, 1, P, ...), and what it is made of: the sum of the
# runs' own wall times (result.json's wall_seconds) against the command's, so the serial part (JVM start,
# parsing, the report and plots) and the runs' slow-down when they share the machine show apart. Every run of
# the same experiment must print the same digest.
# Usage: bench/scripts/parallel-scaling.sh [EXPERIMENT] [JAR]   (ROUNDS=2 P=nproc JAVA_OPTS=-XX:+UseParallelGC
#        ARGS="--set replications=4": more arguments to mqroute run, e.g. a longer sweep of the same experiment)
set -euo pipefail
cd "$(dirname "$0")/../.."
EXP=${1:-experiments/policy-tour.conf}
JAR=${2:-cli/target/mqroute.jar}
ROUNDS=${ROUNDS:-2}
P=${P:-$(nproc)}
[ "$JAR" = cli/target/mqroute.jar ] && ./mqroute --version >/dev/null # builds the jar when missing or stale
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
run() { # $1 = parallelism, $2 = round
  local out="$W/p$1-r$2" t0 t1
  t0=$(date +%s.%N)
  java ${JAVA_OPTS:--XX:+UseParallelGC} -jar "$JAR" run "$EXP" ${ARGS:-} --brief --parallel "$1" --out "$out" >"$out.log" 2>&1
  t1=$(date +%s.%N)
  python3 - "$out" "$1" "$2" "$t0" "$t1" "$out.log" <<'PY'
import json, re, sys, glob
out, p, rnd, t0, t1, log = sys.argv[1:]
wall = float(t1) - float(t0)
runs = 0.0; n = 0
for f in glob.glob(out + "/**/result.json", recursive=True):
    d = json.load(open(f))
    for v in d.get("variants", []):
        for m in ([v["mqroute"]] if isinstance(v.get("mqroute"), dict) else v.get("mqroute", [])):
            if "wall_seconds" in m:
                runs += m["wall_seconds"]; n += 1
dig = re.findall(r"digest[^0-9a-f]*([0-9a-f]{16})", open(log).read())
print(f"{p}\t{rnd}\t{wall:.1f}\t{runs:.1f}\t{n}\t{dig[-1] if dig else '?'}")
PY
}
echo -e "parallel\tround\twall s\tsum of runs' wall s\truns\tdigest" | tee "$W/rows.tsv"
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then order="$P 1"; else order="1 $P"; fi
  for p in $order; do run "$p" "$r" | tee -a "$W/rows.tsv"; done
done
python3 - "$W/rows.tsv" "$P" <<'PY'
import sys, statistics
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
P = sys.argv[2]
one = [float(r[2]) for r in rows if r[0] == "1"]; par = [float(r[2]) for r in rows if r[0] == P]
s1 = [float(r[3]) for r in rows if r[0] == "1"]; sp = [float(r[3]) for r in rows if r[0] == P]
print(f"speed-up (median wall, --parallel 1 / --parallel {P}): {statistics.median(one) / statistics.median(par):.2f}x")
print(f"serial part with --parallel 1 (wall - runs): {statistics.median(one) - statistics.median(s1):.1f} s; "
      f"runs' own time with {P} at once / alone: {statistics.median(sp) / statistics.median(s1):.2f}")
print("digests: " + " ".join(sorted(set(r[5] for r in rows))))
PY

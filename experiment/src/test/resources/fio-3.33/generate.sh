#!/bin/sh
# Regenerates the fio 3.33 reference outputs in this directory with Debian's fio (apt-get install
# fio; `fio --version` must print fio-3.33): the same small job on a temporary file, once per
# output format, plus the logs. The tests compare mqroute's field names and shapes with these.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fio --version | grep -qx 'fio-3.33'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
for fmt in json json+ terse normal; do
  fio --filename="$tmp/data" --output-format="$fmt" --output="$here/fio-3.33.$fmt.out" "$here/job.fio"
done
for f in job_bw.1.log job_lat.1.log job_clat.1.log job_iops.1.log; do
  head -5 "$f" >"$here/$f"
done

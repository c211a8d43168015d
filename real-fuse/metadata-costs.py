#!/usr/bin/env python3
"""The FUSE server's CPU time per request, by request kind, on the running machine.

Mounts libfuse's passthrough_hp (--nocache --nopassthrough, /dev/fuse, over a tmpfs) and runs each
system call of real-fuse/metadata-requests.py CALLS times in a child of its own, reading the server's
CPU time (utime + stime of every thread, /proc/PID/stat) before and after. The requests each call sends
are the ones metadata-requests.py counts; a call of one request gives that request's cost, the others
are solved from them (LOOKUP = stat - 2 GETATTR, ...). A 4 KiB pread (READ) is measured the same way, so
that the kinds compare with the read the model's devices are set for. Repeats REPEATS times and prints
the median per kind. On a machine other jobs load, CPU time moves less than wall time, but a busy cache
still adds to it: read the spread.

  sudo real-fuse/metadata-costs.py [PASSTHROUGH_HP]

Exit codes: 0 done, 2 cannot run here, 1 a step failed.
"""
import ctypes
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CALLS = int(os.environ.get("CALLS", "5000"))
REPEATS = int(os.environ.get("REPEATS", "9"))
libc = ctypes.CDLL("libc.so.6", use_errno=True)
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (all threads)


def fallocate(fd, mode, off, length):
    if libc.fallocate(fd, mode, ctypes.c_long(off), ctypes.c_long(length)) != 0:
        raise OSError(ctypes.get_errno(), "fallocate")


def measure(server, setup, call, cleanup):
    """Server CPU seconds for CALLS calls of call(i), in a child."""
    setup()
    time.sleep(0.1)
    before = cpu_seconds(server)
    pid = os.fork()
    if pid == 0:
        try:
            for i in range(CALLS):
                call(i)
        except OSError as e:
            print(f"metadata-costs.py: call {i}: {e}", file=sys.stderr)
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if status != 0:
        raise RuntimeError("a call failed (the server keeps a descriptor per inode: lower CALLS)")
    time.sleep(0.1)  # RELEASE and FORGET are served after the child is gone
    spent = cpu_seconds(server) - before
    cleanup()  # passthrough_hp holds a descriptor per inode it knows: leave none behind
    return spent


def main():
    hp = sys.argv[1] if len(sys.argv) > 1 else "/var/tmp/mqroute-real-fuse/build/example/passthrough_hp"
    if os.geteuid() != 0 or not os.path.exists("/dev/fuse") or not os.access(hp, os.X_OK):
        print("metadata-costs.py: needs root, /dev/fuse and passthrough_hp (real-fuse/run-matrix.sh builds it)",
              file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="mqroute-meta-cost-")
    back, mnt = os.path.join(work, "back"), os.path.join(work, "mnt")
    os.mkdir(back)
    os.mkdir(mnt)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512m", "mqroute-meta-cost", back], check=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server keeps a descriptor per inode
    server = subprocess.Popen(
        [hp, "--foreground", "--nocache", "--nopassthrough", "-o", "allow_other", back, mnt],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = {}
    try:
        for _ in range(100):
            if os.path.ismount(mnt):
                break
            time.sleep(0.1)
        else:
            print("metadata-costs.py: passthrough_hp did not mount", file=sys.stderr)
            return 1
        os.chdir(mnt)
        fd = os.open("big", os.O_CREAT | os.O_RDWR | os.O_DIRECT, 0o600)
        os.ftruncate(fd, 64 << 20)
        buf = ctypes.create_string_buffer(8192)
        aligned = (ctypes.addressof(buf) + 4095) & ~4095
        with open("f", "w"):
            pass
        nothing = lambda: None
        prefix = [0]

        def remove(kind):
            def cleanup():
                for i in range(CALLS):
                    (os.unlink if kind == "files" else os.rmdir)(f"x{prefix[0]}-{i}")
            return cleanup

        def fresh(kind):
            def setup():
                prefix[0] += 1
                if kind == "files":
                    for i in range(CALLS):
                        with open(f"x{prefix[0]}-{i}", "w"):
                            pass
                elif kind == "dirs":
                    for i in range(CALLS):
                        os.mkdir(f"x{prefix[0]}-{i}")
            return setup

        calls = {
            # name: (setup, call, {request: count per call}[, cleanup])
            "pread 4k": (nothing, lambda i: libc.pread(fd, ctypes.c_void_p(aligned), 4096,
                                                        ctypes.c_long((i % 16384) * 4096)), {"READ": 1}),
            "fstat": (nothing, lambda i: os.fstat(fd), {"GETATTR": 1}),
            "stat": (nothing, lambda i: os.stat("f"), {"GETATTR": 2, "LOOKUP": 1}),
            "fgetxattr": (nothing, lambda i: getxattr(fd), {"GETXATTR": 1}),
            "create+close": (fresh("none"), lambda i: os.close(os.open(f"x{prefix[0]}-{i}", os.O_CREAT | os.O_RDWR)),
                             {"GETATTR": 3, "LOOKUP": 1, "CREATE": 1, "FLUSH": 1, "RELEASE": 1},
                             remove("files")),
            "open+close": (nothing, lambda i: os.close(os.open("f", os.O_RDWR)),
                           {"GETATTR": 2, "LOOKUP": 1, "OPEN": 1, "FLUSH": 1, "RELEASE": 1}),
            "unlink": (fresh("files"), lambda i: os.unlink(f"x{prefix[0]}-{i}"), {"GETATTR": 2, "LOOKUP": 1, "UNLINK": 1}),
            "mkdir": (fresh("none"), lambda i: os.mkdir(f"x{prefix[0]}-{i}"), {"GETATTR": 2, "LOOKUP": 1, "MKDIR": 1},
                      remove("dirs")),
            "rmdir": (fresh("dirs"), lambda i: os.rmdir(f"x{prefix[0]}-{i}"), {"GETATTR": 2, "LOOKUP": 1, "RMDIR": 1}),
            "fallocate(0)": (nothing, lambda i: fallocate(fd, 0, (i % 16384) * 4096, 4096), {"GETXATTR": 1, "FALLOCATE": 1}),
            "ftruncate": (nothing, lambda i: os.ftruncate(fd, (64 << 20) + (i % 2) * 4096), {"GETXATTR": 1, "SETATTR": 1}),
        }
        for rep in range(REPEATS):
            for name, (setup, call, _, *cleanup) in calls.items():
                spent = measure(server.pid, setup, call, cleanup[0] if cleanup else nothing)
                results.setdefault(name, []).append(spent / CALLS)
        os.close(fd)
    finally:
        os.chdir("/")
        if not results:
            print("metadata-costs.py: nothing measured", file=sys.stderr)
        subprocess.run(["umount", mnt], check=False)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            subprocess.run(["umount", "-l", mnt], check=False)
        subprocess.run(["umount", back], check=False)
        if not os.path.ismount(mnt) and not os.path.ismount(back):
            shutil.rmtree(work, ignore_errors=True)
    print(f"# {os.uname().release}, {os.cpu_count()} CPUs, passthrough_hp --nocache over tmpfs (/dev/fuse),"
          f" {CALLS} calls x {REPEATS}; server CPU us per call: median (min-max)")
    for name, v in results.items():
        print(f"{name:14} {statistics.median(v) * 1e6:7.2f}  ({min(v) * 1e6:.2f}-{max(v) * 1e6:.2f})")
    # other work on the machine only adds to a measurement: the minima are the better estimate there
    for label, pick in (("median", statistics.median), ("min", min)):
        per_call = {k: pick(v) * 1e6 for k, v in results.items()}
        cost = {"READ": per_call["pread 4k"], "GETATTR": per_call["fstat"], "GETXATTR": per_call["fgetxattr"]}
        cost["LOOKUP"] = per_call["stat"] - 2 * cost["GETATTR"]
        for name, (_, _, reqs, *_) in calls.items():
            unknown = [r for r in reqs if r not in cost]
            if unknown:  # one request, or the group a call alone cannot split (CREATE+FLUSH+RELEASE)
                known = sum(n * cost[r] for r, n in reqs.items() if r in cost)
                cost["+".join(unknown)] = per_call[name] - known
        print(f"# per request, solved from the calls' {label}s (a group: what one call leaves together)")
        print("  ".join(f"{r} {c:.1f}" for r, c in cost.items()))
    return 0


def getxattr(fd):
    try:
        os.getxattr(fd, "security.capability")
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main())

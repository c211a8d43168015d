#!/usr/bin/env python3
"""Which FUSE requests one system call sends, counted on the running kernel.

Mounts libfuse's passthrough_hp with --nocache (entry and attribute timeouts 0, the mount whose reads
and writes all reach the server) and --debug-fuse (one line per request, with the caller's pid), then
runs each system call fio's falloc, ftruncate and file-operation engines make, N times in a child
process of its own, and prints the requests of each call as the server saw them, in order. This is
where machine/IoCalls.java's request lists come from (docs/fio-jobs.md has the table).

  sudo real-fuse/metadata-requests.py [PASSTHROUGH_HP]

PASSTHROUGH_HP defaults to the one real-fuse/run-matrix.sh builds
(/var/tmp/mqroute-real-fuse/build/example/passthrough_hp). Needs root (allow_other) and /dev/fuse.
Exit codes: 0 done, 2 cannot run here, 1 a step failed.
"""
import collections
import ctypes
import errno
import fcntl
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

N = 5
BLKDISCARD = 0x1277  # _IO(0x12, 119), what fio's os_trim sends on Linux
FALLOC_FL_KEEP_SIZE = 1
FALLOC_FL_PUNCH_HOLE = 2

libc = ctypes.CDLL("libc.so.6", use_errno=True)


def fallocate(fd, mode, off, length):
    if libc.fallocate(fd, mode, ctypes.c_long(off), ctypes.c_long(length)) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


def cases(fd):
    """Name -> (setup, call): setup runs in the parent (not counted), call(i) in a child."""
    def make_files(prefix):
        def setup():
            for i in range(N):
                with open(f"{prefix}{i}", "w"):
                    pass
        return setup

    def make_dirs(prefix):
        def setup():
            for i in range(N):
                os.mkdir(f"{prefix}{i}")
        return setup

    nothing = lambda: None
    return {
        # filestat / dirstat (stat_type=stat; lstat is the same for non-links)
        "stat(file)": (make_files("s"), lambda i: os.stat(f"s{i}")),
        "stat(dir)": (make_dirs("sd"), lambda i: os.stat(f"sd{i}")),
        # filecreate: open(O_CREAT | O_RDWR) of a new name, then close; a second pass finds it
        "open(O_CREAT) new + close": (
            nothing, lambda i: os.close(os.open(f"c{i}", os.O_CREAT | os.O_RDWR, 0o600))),
        "open(O_CREAT) existing + close": (
            nothing, lambda i: os.close(os.open(f"c{i}", os.O_CREAT | os.O_RDWR, 0o600))),
        # filedelete / dircreate / dirdelete, and their second passes
        "unlink": (make_files("u"), lambda i: os.unlink(f"u{i}")),
        "unlink(missing)": (nothing, lambda i: os.unlink(f"u{i}")),
        "mkdir": (nothing, lambda i: os.mkdir(f"m{i}")),
        "mkdir(existing)": (nothing, lambda i: os.mkdir(f"m{i}")),
        "rmdir": (nothing, lambda i: os.rmdir(f"m{i}")),
        # falloc: read, write, trim
        "fallocate(KEEP_SIZE)": (nothing, lambda i: fallocate(fd, FALLOC_FL_KEEP_SIZE, i * 65536, 4096)),
        "fallocate(0)": (nothing, lambda i: fallocate(fd, 0, (1 << 20) + i * 65536, 4096)),
        "fallocate(PUNCH_HOLE|KEEP_SIZE)": (
            nothing, lambda i: fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, i * 65536, 4096)),
        # ftruncate
        "ftruncate": (nothing, lambda i: os.ftruncate(fd, (1 << 20) + i * 4096)),
        # fio's trim of a file (os_trim)
        "ioctl(BLKDISCARD)": (nothing, lambda i: fcntl.ioctl(fd, BLKDISCARD, struct.pack("QQ", i * 4096, 4096))),
    }


def main():
    hp = sys.argv[1] if len(sys.argv) > 1 else "/var/tmp/mqroute-real-fuse/build/example/passthrough_hp"
    if os.geteuid() != 0:
        print("metadata-requests.py: must run as root (allow_other)", file=sys.stderr)
        return 2
    if not os.path.exists("/dev/fuse"):
        print("metadata-requests.py: no /dev/fuse", file=sys.stderr)
        return 2
    if not os.access(hp, os.X_OK):
        print(f"metadata-requests.py: {hp} is not an executable (build it with real-fuse/run-matrix.sh)",
              file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="mqroute-meta-")
    back, mnt, log = os.path.join(work, "back"), os.path.join(work, "mnt"), os.path.join(work, "debug.log")
    os.mkdir(back)
    os.mkdir(mnt)
    with open(log, "w") as logf:
        server = subprocess.Popen(
            [hp, "--foreground", "--nocache", "--debug-fuse", "--nopassthrough", "-o", "allow_other", back, mnt],
            stdout=logf, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            if os.path.ismount(mnt):
                break
            time.sleep(0.1)
        else:
            print("metadata-requests.py: passthrough_hp did not mount within 10 s", file=sys.stderr)
            return 1
        os.chdir(mnt)
        fd = os.open("big", os.O_CREAT | os.O_RDWR, 0o600)
        os.ftruncate(fd, 1 << 20)
        names = {}
        for name, (setup, call) in cases(fd).items():
            setup()
            time.sleep(0.2)
            pid = os.fork()
            if pid == 0:
                err = 0
                for i in range(N):
                    try:
                        call(i)
                    except OSError as e:
                        err = e.errno
                os._exit(err)
            _, status = os.waitpid(pid, 0)
            names[pid] = (name, os.waitstatus_to_exitcode(status))
            time.sleep(0.3)
        os.close(fd)
        time.sleep(0.5)
    finally:
        os.chdir("/")
        subprocess.run(["umount", mnt], check=False)
        server.wait(timeout=10)
        with open(log) as f:
            lines = f.read().splitlines()
        if not os.path.ismount(mnt):
            shutil.rmtree(work, ignore_errors=True)
    seq = collections.defaultdict(list)
    for line in lines:
        m = re.search(r"opcode: (\w+) \(\d+\).*pid: (\d+)", line)
        if m:
            seq[int(m.group(2))].append(m.group(1))
    print(f"# {os.uname().release}, passthrough_hp --nocache, {N} calls each: requests per call (RELEASE,"
          " FORGET: sent by the kernel, pid 0, last line)")
    for pid, (name, code) in names.items():
        ops = seq.get(pid, [])
        # the child's exit closes the descriptor of 'big' it inherited: one FLUSH that is no call's
        if ops and ops[-1] == "FLUSH":
            ops = ops[:-1]
        counts = collections.Counter(ops)
        per_call = " ".join(f"{op}={counts[op] / N:g}" for op in sorted(counts))
        first = " ".join(ops[: max(1, len(ops) // N)])
        failed = f"  errno {code} ({errno.errorcode.get(code, code)})" if code else ""
        print(f"{name:34} {per_call:60} first call: {first}{failed}")
    kernel = collections.Counter(seq.get(0, []))
    print(f"{'sent by the kernel (pid 0)':34} " + " ".join(f"{op}={n}" for op, n in sorted(kernel.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())

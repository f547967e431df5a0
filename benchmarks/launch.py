"""Run one build and say what it cost: ``python launch.py '[command, cwd, output, timeout]'``.

Prints one JSON line: wall seconds, CPU seconds (the build's and every process it waited for,
git's), the build process's own peak resident memory in bytes, exit status, whether the
timeout stopped it, and the full collections of the build process's garbage collector (None
where not known); the build's own output goes to the file ``output``. A ``python -m MODULE``
build runs through :mod:`own_peak`, which reports its own peak, without git's; for any other
command the peak is the largest of the whole tree, as the kernel gives it.

Why a process of its own: the kernel starts a new process's peak memory at what the process
that forked it held, and the benchmark runner holds far more (the writer's million URLs) than
a small build needs; forked from this small process, a build's peak is its own.

Why the file system is synced before the clock starts: a clean build writes its pages right
after the last one's output was removed, and on Linux (ext4 at least) blocks freed but not yet
committed to the journal slowed those writes by a folder's luck. Four folders built the same
100-page MkDocs site with no sitemap: writing the pages took 13, 14, 65 and 84 ms, the same
in every round, and with a sync first 14 to 26 ms. Each variant builds in a folder of its own,
so what was removed before one build, and the writes an earlier build left for the kernel,
would otherwise be counted against whichever variant came next.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024
"""Bytes in a unit of ``ru_maxrss``: bytes on macOS, KiB on Linux and the BSDs."""


_OWN_PEAK = str(Path(__file__).with_name("own_peak.py"))


def main() -> None:
    command, cwd, output_path, timeout = json.loads(sys.argv[1])
    peaks = Path(tempfile.mkdtemp(prefix="sitemap-bench-peaks-"), "peaks")
    env = dict(os.environ)
    if len(command) > 2 and command[1] == "-m":
        command = [command[0], _OWN_PEAK, *command[2:]]
        env["SITEMAP_BENCH_PEAKS"] = str(peaks)
    if hasattr(os, "sync"):
        os.sync()
    with open(output_path, "wb") as output:
        start = time.perf_counter()
        proc = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=output,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        timed_out = threading.Event()

        def stop() -> None:
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout, stop)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss * _MAXRSS_UNIT
    full: int | None = None
    try:
        own, full_text = peaks.read_text(encoding="ascii").split()
        peak, full = int(own) * _MAXRSS_UNIT, int(full_text)
    except (OSError, ValueError):
        pass  # not a "-m" build, or one that ended without exiting normally
    finally:
        peaks.unlink(missing_ok=True)
        peaks.parent.rmdir()
    print(json.dumps([seconds, cpu, peak, proc.returncode, timed_out.is_set(), full]))


if __name__ == "__main__":
    main()

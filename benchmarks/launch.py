"""Run one build and say what it cost: ``python launch.py '[command, cwd, output, timeout]'``.

Prints one JSON line: wall seconds, CPU seconds (the build's and every process it waited for,
git's), peak resident memory in bytes, exit status, and whether the timeout stopped it; the
build's own output goes to the file ``output``.

Why a process of its own: the kernel starts a new process's peak memory at what the process
that forked it held, and the benchmark runner holds far more (the writer's million URLs) than
a small build needs; forked from this small process, a build's peak is its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024
"""Bytes in a unit of ``ru_maxrss``: bytes on macOS, KiB on Linux and the BSDs."""


def main() -> None:
    command, cwd, output_path, timeout = json.loads(sys.argv[1])
    with open(output_path, "wb") as output:
        start = time.perf_counter()
        proc = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT
        )
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
    print(json.dumps([seconds, cpu, peak, proc.returncode, timed_out.is_set()]))


if __name__ == "__main__":
    main()

"""``python own_peak.py MODULE ARGS...``: ``python -m MODULE ARGS...`` that says, as it exits,
its own peak resident memory.

Why: the peak the kernel gives for a process that has exited (``wait4``) is the largest of it
and every process it waited for. A first build's history pass runs in git, whose own peak (the
repository's packs it maps) can exceed the build's: 136 MiB for ``git log`` over 18,000
commits, more than a whole 3,000-page Pelican build. Measured from outside, the build would be
charged git's memory. Written in KiB to the file named by ``$SITEMAP_BENCH_PEAKS``; nothing
else about the build changes.
"""

from __future__ import annotations

import atexit
import os
import resource
import runpy
import sys


def _report() -> None:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(os.environ["SITEMAP_BENCH_PEAKS"], "w", encoding="ascii") as stream:
        stream.write(f"{own}\n")


def main() -> None:
    module = sys.argv[1]
    del sys.argv[0]  # as "python -m MODULE" leaves it: runpy puts the module's path first
    atexit.register(_report)
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()

"""``python own_peak.py MODULE ARGS...``: ``python -m MODULE ARGS...`` that says, as it exits,
its own peak resident memory and how many full collections its garbage collector made.

Why: the peak the kernel gives for a process that has exited (``wait4``) is the largest of it
and every process it waited for. A first build's history pass runs in git, whose own peak (the
repository's packs it maps) can exceed the build's: 136 MiB for ``git log`` over 18,000
commits, more than a whole 3,000-page Pelican build. Measured from outside, the build would be
charged git's memory. Written in KiB to the file named by ``$SITEMAP_BENCH_PEAKS``, with the
full collections on the next line; nothing else about the build changes.

Why the collections: a full collection walks every object the build holds, and whether one falls
due is decided by every object a plugin keeps. One more of them, late in a large build, costs
more than most of what a sitemap does (about 90 ms in a 3,000-page incremental Sphinx build),
and it is invisible in the time alone.
"""

from __future__ import annotations

import atexit
import gc
import os
import resource
import runpy
import sys


def _report() -> None:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(os.environ["SITEMAP_BENCH_PEAKS"], "w", encoding="ascii") as stream:
        stream.write(f"{own}\n{gc.get_stats()[-1]['collections']}\n")


def main() -> None:
    module = sys.argv[1]
    del sys.argv[0]  # as "python -m MODULE" leaves it: runpy puts the module's path first
    atexit.register(_report)
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()

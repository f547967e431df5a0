"""Helpers shared by the benchmarks."""

from __future__ import annotations

import os
from pathlib import Path

import sitemap_plugins


def child_env() -> dict[str, str]:
    """The environment for child Pythons: they import the same ``sitemap_plugins`` as we do."""
    package_root = str(Path(sitemap_plugins.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return env

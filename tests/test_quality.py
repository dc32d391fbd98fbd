"""The checks the issues promise: `mypy --strict` on the package, ruff on everything (import
circles: test_imports.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_the_package_is_strictly_typed() -> None:
    out = run("mypy", "--strict", "crownp2p")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_finds_nothing() -> None:
    out = run("ruff", "check", "crownp2p", "plugins", "bench", "tests")
    assert out.returncode == 0, out.stdout + out.stderr

"""A benchmark under bench/ loaded as a module, for the tests that check it (bench/ is not a
package: each file runs as a script)."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from types import ModuleType


@functools.cache
def bench(name: str) -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

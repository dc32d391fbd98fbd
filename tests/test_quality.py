"""The checks the issues promise: `mypy --strict` on the engine, ruff on everything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_the_engine_is_strictly_typed() -> None:
    out = run("mypy", "--strict", "crownp2p/core")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_finds_nothing() -> None:
    out = run("ruff", "check", "crownp2p", "plugins", "bench", "tests")
    assert out.returncode == 0, out.stdout + out.stderr


def imports_of(path: Path, package: str) -> set[str]:
    """The crownp2p modules a module imports, type-only imports included."""
    import ast

    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(filter(None, [base, node.module]))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("crownp2p")}


def test_the_shell_and_the_bots_import_no_circle() -> None:
    modules: dict[str, Path] = {}
    for folder in ("shell", "bots"):
        for path in (ROOT / "crownp2p" / folder).glob("*.py"):
            name = f"crownp2p.{folder}" + ("" if path.stem == "__init__" else f".{path.stem}")
            modules[name] = path
    graph = {
        name: imports_of(path, name if path.stem == "__init__" else name.rsplit(".", 1)[0])
        & modules.keys()
        for name, path in modules.items()
    }

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            name = todo.pop()
            for nxt in graph[name] - seen:
                if nxt == goal:
                    return True
                seen.add(nxt)
                todo.append(nxt)
        return False

    circles = sorted(
        f"{name} <-> {other}"
        for name in graph
        for other in graph[name]
        if other != name
        and other not in (f"crownp2p.{f}" for f in ("shell", "bots"))
        and reaches(other, name)
    )
    assert circles == []

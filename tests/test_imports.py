"""The layers import one way, and no two modules import each other, even only for typing.

Every import counts — at the top, inside a function, or under ``TYPE_CHECKING``: a circle of
type-only imports is still a name living in the wrong module.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGES = {"crownp2p": ROOT / "crownp2p", "all_kings_men": ROOT / "plugins/all_kings_men"}


def module_files() -> dict[str, Path]:
    out = {}
    for package, base in PACKAGES.items():
        top = base if package == "crownp2p" else base / package
        for path in sorted(top.rglob("*.py")):
            parts = list(path.relative_to(top).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package, *parts])] = path
    return out


def imports_of(name: str, path: Path, known: dict[str, Path]) -> list[str]:
    """The project's modules that ``name`` imports (a package's ``__init__`` counts as the
    package; ``from pkg import mod`` counts as ``pkg.mod``)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if target in known and target != name:
                found.append(target)
    return sorted(set(found))


def circles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected parts with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def project_graph() -> dict[str, list[str]]:
    known = module_files()
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    # A package importing its own modules (to re-export them) is not a circle through them.
    return {
        name: [t for t in targets if not t.startswith(name + ".")]
        for name, targets in graph.items()
    }


def test_no_module_imports_one_that_imports_it_back() -> None:
    found = circles(project_graph())
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_engine_is_built_in_layers() -> None:
    """The game's data (state), then the rules' policies on it, then the mechanics steps use,
    then steps, snapshot and the engine loop: each imports only what lies below it. A card
    knows its steps only by the keys they share."""
    above = {
        "cards": ("steps", "unit_rules", "state", "rules", "mechanics", "snapshot", "game"),
        "state": ("rules", "mechanics", "steps", "unit_rules", "snapshot", "game"),
        "rules": ("mechanics", "steps", "unit_rules", "snapshot", "game"),
        "snapshot": ("mechanics", "steps", "unit_rules", "game"),
        "mechanics": ("steps", "unit_rules", "snapshot", "game"),
        "unit_rules": ("steps", "game"),
        "steps": ("game",),
    }
    graph = project_graph()
    wrong = [
        f"{name} imports {target}"
        for name, banned in above.items()
        for target in graph["crownp2p.core." + name]
        if target.removeprefix("crownp2p.core.") in banned
    ]
    assert not wrong, wrong


def test_the_layers_import_one_way() -> None:
    plugins = ("crownp2p.packs", "crownp2p.hookspecs", "crownp2p.builtin")
    forbidden = {
        "crownp2p.core": ("crownp2p.net", "crownp2p.shell", "crownp2p.bots", *plugins),
        **{name: ("crownp2p.net", "crownp2p.shell", "crownp2p.bots") for name in plugins},
        "crownp2p.bots": ("crownp2p.net", "crownp2p.shell"),
        "crownp2p.net": ("crownp2p.shell",),
    }
    wrong = [
        f"{name} imports {target}"
        for name, targets in project_graph().items()
        for layer, banned in forbidden.items()
        if name == layer or name.startswith(layer + ".")
        for target in targets
        if target.startswith(banned)
    ]
    assert not wrong, wrong


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert circles({"a": ["b"], "b": []}) == []

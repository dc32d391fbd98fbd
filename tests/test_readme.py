"""The README's commands work on a fresh machine: no `pip install` into the system Python
(an "externally managed" one refuses it), and every document it points to is there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(section: str) -> list[str]:
    """The shell blocks under a README heading."""
    part = README.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", part, re.S)


def test_play_and_test_install_into_a_virtual_environment():
    for section in ("Play", "Test"):
        (block,) = blocks(section)
        venv = re.search(r"python3 -m venv (\S+)", block)
        assert venv, f"the {section} block makes no virtual environment"
        env = re.escape(venv.group(1))
        pips = list(re.finditer(r"(\S*)pip install", block))
        assert pips
        for pip in pips:
            assert pip.start() > venv.end(), "pip runs before the environment exists"
            inside = re.match(rf"{env}/bin/$", pip.group(1)) or re.search(
                rf"\. {env}/bin/activate(\n| && )[^`]*python -m $", block[: pip.start()]
            )
            assert inside, f"the {section} block's pip is not the environment's"


def test_the_docs_point_only_to_files_in_the_project():
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for name in re.findall(r"\b([A-Z][A-Z_]+\.md)\b", text):
            assert list(ROOT.rglob(name)), f"{page.name} points to {name}, not in the project"


def test_ci_runs_the_readmes_test_command_as_written():
    (block,) = blocks("Test")
    command = block.strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci, "CI does not run the README's test command"
    assert "python -m pytest" in command

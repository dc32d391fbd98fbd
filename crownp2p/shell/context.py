"""The loaded variant packs, once per process; a pack that failed is reported on stderr."""

from __future__ import annotations

import sys
from functools import cache

from ..packs import Catalog, load


@cache
def catalog() -> Catalog:
    loaded = load()
    for problem in loaded.problems:
        print(f"crownp2p: {problem}", file=sys.stderr)
    return loaded

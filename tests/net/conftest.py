"""Shared fixtures for the network tests: rule sets for two and four seats."""

from __future__ import annotations

import pytest
from four_seats import four_seat_rules

from crownp2p.core.rules import Rules
from crownp2p.core.standard import standard_rules


@pytest.fixture(scope="session")
def rules2() -> Rules:
    return standard_rules()


@pytest.fixture(scope="session")
def rules4() -> Rules:
    return four_seat_rules()

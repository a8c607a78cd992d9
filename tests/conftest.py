"""Shared pytest configuration.

``--deals-per-preset N`` sets how many seeded random-play deals the
conformance suite (tests/core/test_conformance.py) plays per preset and player
count; the default keeps the suite to about a minute on one core.

The storage, server, crash and hidden-information suites run on both SQLite
and PostgreSQL (tests/db_fixtures.py).
"""

from __future__ import annotations

import pytest

pytest_plugins = ["db_fixtures"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deals-per-preset",
        type=int,
        default=None,
        metavar="N",
        help="random-play deals per preset and player count in the conformance suite",
    )


@pytest.fixture
def deals_per_preset(request: pytest.FixtureRequest) -> int | None:
    """The ``--deals-per-preset`` value, or None for the suite's own default."""
    value: int | None = request.config.getoption("--deals-per-preset")
    return value

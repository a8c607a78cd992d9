"""The databases the storage, server, crash and hidden-information suites run on.

Every test of those suites runs twice: on SQLite (a file in the test's
``tmp_path``, the server's default) and on PostgreSQL (a fresh database in a
throwaway cluster). The cluster is the one ``make test`` started
(``scripts/pg-cluster.sh run``, which sets ``PYRUMMY_TEST_POSTGRES_URL``), or
else one this session starts itself and stops at its end.

The PostgreSQL database reaches the code under test as ``DATABASE_URL``, the
same variable an operator sets, so in-process apps and spawned ``pyrummy
serve`` processes alike use it. Only the standard library and pytest are
imported at the top: the core test runs have no database driver installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLUSTER_SCRIPT = ROOT / "scripts" / "pg-cluster.sh"
#: The test modules run on both databases (by file name prefix).
DATABASE_SUITES = (
    "test_storage",
    "test_server_",
    "test_crash_resume",
    "test_hidden_info_audit",
)
BACKENDS = ("sqlite", "postgresql")


def runs_on_both_databases(module_name: str) -> bool:
    return module_name.rsplit(".", 1)[-1].startswith(DATABASE_SUITES)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL cluster's maintenance database (``.../postgres``)."""
    given = os.environ.get("PYRUMMY_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    folder = tempfile.mkdtemp(prefix="pyrummy-pg-")
    try:
        url = subprocess.run(
            ["bash", str(CLUSTER_SCRIPT), "start", folder],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        yield url
    finally:
        subprocess.run(["bash", str(CLUSTER_SCRIPT), "stop", folder], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def fresh_postgres_database(server_url: str) -> str:
    """Create an empty database in the cluster and return its URL."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return server_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def database_backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgresql``: the database this test runs on."""
    backend: str = getattr(request, "param", "sqlite")
    return backend


@pytest.fixture
def database_url(
    database_backend: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """The URL of this test's database: SQLite under ``tmp_path`` (what a server
    with ``--data-dir tmp_path`` uses), or a fresh PostgreSQL database exported
    as ``DATABASE_URL``."""
    if database_backend == "postgresql":
        url = fresh_postgres_database(request.getfixturevalue("postgres_server"))
        monkeypatch.setenv("DATABASE_URL", url)
        return url
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return f"sqlite:///{tmp_path / 'pyrummy.sqlite3'}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run every test of a database suite on each backend, its database set up
    before the test (also for tests that do not ask for ``database_url``).

    Not an autouse fixture: hypothesis refuses function-scoped fixtures a test
    names, and the core suites must not set up databases at all.
    """
    if not runs_on_both_databases(metafunc.module.__name__):
        return
    for name in ("database_backend", "database_url"):
        if name not in metafunc.fixturenames:
            metafunc.fixturenames.append(name)
    # A test about one database's behaviour names it: @pytest.mark.backends("postgresql").
    marker = metafunc.definition.get_closest_marker("backends")
    backends = marker.args if marker is not None else BACKENDS
    unknown = set(backends) - set(BACKENDS)
    if unknown:
        raise ValueError(f"unknown database backends {sorted(unknown)}; known: {BACKENDS}")
    metafunc.parametrize("database_backend", backends, indirect=True)


def sync_url(url: str) -> str:
    """``url`` for a blocking driver (tests read what the server committed)."""
    scheme, _, rest = url.partition("://")
    if scheme.split("+")[0] in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    return f"sqlite://{rest}"


def committed_rows(url: str, query: str, **params: Any) -> list[tuple[Any, ...]]:
    """The rows of ``query`` as committed in the database at ``url``."""
    from sqlalchemy import create_engine, text

    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(query), params)]
    finally:
        engine.dispose()


def stored_url(data_dir: Path) -> str:
    """The database a server started with ``--data-dir data_dir`` uses in this test."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{data_dir / 'pyrummy.sqlite3'}"


def load_stored(url: str, table_id: str) -> Any:
    """The stored table (``pyrummy.server.storage.StoredTable``) or None."""
    import asyncio

    from pyrummy.server.storage import Store

    async def load() -> Any:
        store = await Store.open(url)
        try:
            return await store.load_table(table_id)
        finally:
            await store.close()

    return asyncio.run(load())

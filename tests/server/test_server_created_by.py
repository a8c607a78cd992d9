"""Per-table records that must stay bounded over a long run: the tables per
client behind the per-client table cap (pyrummy.server.ratelimit.CreatedBy)
and the cluster's "found waiting" checks (pyrummy.server.cluster)."""

from __future__ import annotations

from pyrummy.server.ratelimit import CreatedBy


def test_nothing_is_kept_when_the_cap_is_off() -> None:
    record = CreatedBy(0, lambda ids: ids)
    for n in range(1000):
        record.add(f"10.0.0.{n % 7}", f"t{n}")
    assert record.by_client == {}


def test_count_keeps_only_the_unfinished_tables_of_the_client() -> None:
    live = {"a1", "a3"}
    record = CreatedBy(5, lambda ids: ids & live)
    for table_id in ("a1", "a2", "a3"):
        record.add("alice", table_id)
    assert record.count("alice") == 2
    assert record.by_client == {"alice": {"a1", "a3"}}
    live.clear()
    assert record.count("alice") == 0
    assert "alice" not in record.by_client  # no empty entry left behind


def test_clients_that_never_come_back_are_pruned() -> None:
    live: set[str] = set()
    record = CreatedBy(3, lambda ids: ids & live, prune_every=50)
    # 10,000 one-off clients whose tables all end: the record never holds
    # more than one pruning period's worth.
    largest = 0
    for n in range(10_000):
        record.add(f"client-{n}", f"t{n}")
        largest = max(largest, sum(len(ids) for ids in record.by_client.values()))
    assert largest <= 50
    assert len(record.by_client) < 50


def test_the_cluster_forgets_waiting_checks_once_they_may_be_done_again() -> None:
    from pyrummy.server.cluster import Cluster

    cluster = Cluster.__new__(Cluster)  # no database: only the bookkeeping
    cluster._waiting_checked = {f"t{n}": float(n) for n in range(1000)}
    cluster.forget_waiting_checks(now=1000.0, recheck_after=10.0)
    assert sorted(cluster._waiting_checked.values()) == [float(n) for n in range(991, 1000)]

"""What grew between two memory traces of a server (``PYRUMMY_MEMORY_TRACE``).

    .venv/bin/python benchmarks/memdiff.py DIR PID FROM_SECONDS TO_SECONDS [--top 15]

prints the allocation sites whose live size grew most between the two
snapshots (tracemalloc, grouped by traceback) and the object types whose count
grew most (the garbage collector's view).
"""

from __future__ import annotations

import argparse
import json
import tracemalloc
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("pid", type=int)
    parser.add_argument("start", type=int, help="seconds of the first snapshot")
    parser.add_argument("end", type=int, help="seconds of the second snapshot")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    stem = f"{args.pid}-{{:05d}}"
    if (args.folder / f"snapshot-{stem.format(args.start)}.bin").exists():
        print_allocations(args.folder, stem, args.start, args.end, args.top)
    before = json.loads((args.folder / f"types-{stem.format(args.start)}.json").read_text())
    after = json.loads((args.folder / f"types-{stem.format(args.end)}.json").read_text())
    grown = sorted(
        ((after.get(k, 0) - before.get(k, 0), k) for k in set(before) | set(after)), reverse=True
    )
    print("object types (count change):")
    for change, name in grown[: args.top]:
        print(f"  {change:+8d} {name} ({after.get(name, 0)})")


def print_allocations(folder: Path, stem: str, start: int, end: int, top: int) -> None:
    """The allocation sites that grew most (tracemalloc snapshots)."""
    first = tracemalloc.Snapshot.load(str(folder / f"snapshot-{stem.format(start)}.bin"))
    second = tracemalloc.Snapshot.load(str(folder / f"snapshot-{stem.format(end)}.bin"))
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__)]
    first, second = first.filter_traces(ignore), second.filter_traces(ignore)
    total = sum(s.size for s in second.statistics("filename")) - sum(
        s.size for s in first.statistics("filename")
    )
    print(f"traced size grew {total / 2**10:+.1f} KiB from {start} s to {end} s")
    for diff in second.compare_to(first, "traceback")[:top]:
        print(f"{diff.size_diff / 2**10:+9.1f} KiB {diff.count_diff:+7d} blocks")
        for line in diff.traceback.format()[-8:]:
            print("     ", line)


if __name__ == "__main__":
    main()

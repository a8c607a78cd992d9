"""What the young garbage collections of a loaded server walk.

Runs ``pyrummy serve`` in this process (its arguments follow) with a
:data:`gc.callbacks` hook. Every ``--every``-th collection of the youngest
generation after ``--after`` seconds (at most ``--samples`` of them), it prints
how many young objects there are, how many references they hold (what a
collection walks), the commonest types and the kinds of young lists, then how
long that collection took (CPU). Drive it with benchmarks/load.py::

    .venv/bin/python benchmarks/gc_probe.py --after 40 -- serve --port 8911 \\
        --data-dir /tmp/probe --rate-limit off &
    .venv/bin/python benchmarks/load.py --tables 200 --think 1 --duration 60 \\
        --url http://127.0.0.1:8911 --server-pid $!

The report goes to standard error. The hook reads each young object's
references only through :func:`gc.get_referents` (an object being built may
hold empty slots that indexing it would crash on), and only once the server
is up (``--after``). Session 20 (issue 9) found with it that the young set is
the live state of the busy tables (about 29,000 objects at 200 tables, not
the 10,000 of the threshold: the counter is net of frees of older objects),
each walked in about 1 us, rather than a few huge containers.
"""

from __future__ import annotations

import argparse
import collections
import gc
import sys
import time
from typing import Any


class YoungProbe:
    def __init__(self, after: float, every: int, samples: int) -> None:
        self.start = time.monotonic() + after
        self.every = every
        self.left = samples
        self.collections = 0
        self.began = 0.0
        self.report = False

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 0:
            return
        if phase == "start":
            self.collections += 1
            if (
                self.left > 0
                and time.monotonic() > self.start
                and self.collections % self.every == 0
            ):
                self.left -= 1
                self.describe()
                self.report = True
            self.began = time.thread_time()
        elif self.report:
            self.report = False
            spent = (time.thread_time() - self.began) * 1000
            print(
                f"  that collection: {spent:.1f} ms CPU, {info['collected']} freed", file=sys.stderr
            )

    def describe(self) -> None:
        young = gc.get_objects(0)
        types: collections.Counter[str] = collections.Counter()
        lists: collections.Counter[tuple[int, tuple[str, ...]]] = collections.Counter()
        references = 0
        for item in young:
            refs = gc.get_referents(item)
            references += len(refs)
            types[type(item).__name__] += 1
            if type(item) is list:
                kinds = tuple(sorted({type(r).__name__ for r in refs}))
                lists[(len(refs) // 10 * 10, kinds)] += 1
        del young
        print(
            f"gen0 #{self.collections}: {sum(types.values())} young objects, "
            f"{references} references",
            file=sys.stderr,
        )
        print("  types:", types.most_common(15), file=sys.stderr)
        print("  lists (length//10*10, item types):", lists.most_common(10), file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--after", type=float, default=40.0, help="seconds before the first look")
    parser.add_argument("--every", type=int, default=7, help="look at every N-th gen0 collection")
    parser.add_argument("--samples", type=int, default=6, help="looks in all")
    parser.add_argument("serve", nargs=argparse.REMAINDER, help="-- serve ARGS (pyrummy's)")
    args = parser.parse_args()
    argv = [a for a in args.serve if a != "--"]
    gc.callbacks.append(YoungProbe(args.after, args.every, args.samples))
    from pyrummy.cli.main import main as pyrummy_main

    return pyrummy_main(argv)


if __name__ == "__main__":  # the bots' process pool imports this module again
    sys.exit(main())

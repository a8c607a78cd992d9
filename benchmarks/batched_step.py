"""Self-play steps per CPU second of the batched engine, one figure per run.

    python benchmarks/batched_step.py [--batch 4096] [--seconds 1.5] [--src DIR]

Three loops of ``seconds`` CPU time each of ``game.step(game.sample_actions(rng))``
on gin at ``--batch`` deals; prints the best and the median. ``--src`` imports
pyrummy from another checkout's ``src`` (to pair two versions with farm-bench).
"""

from __future__ import annotations

import argparse
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--src", help="a checkout's src folder to import pyrummy from")
    args = parser.parse_args()
    if args.src:
        sys.path.insert(0, args.src)
    import numpy as np

    from pyrummy.research.batched import BatchedGame

    rates = []
    for _ in range(3):
        game = BatchedGame("gin", batch=args.batch, seed=1)
        game.reset()
        rng = np.random.default_rng(2)
        for _ in range(20):
            game.step(game.sample_actions(rng))
        steps, start = 0, time.process_time()
        while time.process_time() - start < args.seconds:
            for _ in range(10):
                game.step(game.sample_actions(rng))
            steps += 10 * args.batch
        rates.append(steps / (time.process_time() - start))
    rates.sort()
    print(f"batch {args.batch}: best {rates[-1]:,.0f} median {rates[1]:,.0f} steps/CPU s")


if __name__ == "__main__":
    main()

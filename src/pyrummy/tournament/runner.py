"""Run independent tasks in this process, in worker processes, or on a Ray cluster.

A tournament's decks and an arena's boards are independent, deterministic
units of work: each result depends only on its task (the seeds travel in
it), never on which process played it or when. So one small runner serves
both: :func:`run_tasks` calls ``function(task)`` for every task and yields
``(index, result)`` pairs *as they finish* (in any order); the caller puts
them back in order. The same tasks give the same results on every path:

- ``workers == 1`` and no cluster: in this process, in order;
- ``workers > 1``: a pool of ``spawn``-ed processes (not ``fork``: the
  caller may run threads, such as a progress bar, whose locks a forked
  child could inherit held);
- ``ray_address`` (``"auto"``, ``"local"`` or ``"HOST:PORT"``): Ray tasks on
  the cluster at that address (``pip install 'pyrummy[ray]'``). ``local``
  starts a private Ray instance in this process; ``auto`` joins the cluster
  this machine belongs to (``ray start``). Every node needs the same
  pyrummy installed (and, for an arena, the programs its bots run).

``function`` must be importable by name (a module-level function) for the
process pool and for Ray.

>>> sorted(run_tasks(abs, [-2, 3, -1]))
[(0, 2), (1, 3), (2, 1)]
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from pyrummy.extras import require

TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")


def run_tasks(
    function: Callable[[TaskT], ResultT],
    tasks: Sequence[TaskT],
    *,
    workers: int = 1,
    ray_address: str | None = None,
) -> Iterator[tuple[int, ResultT]]:
    """``(index, function(tasks[index]))`` for every task, as each finishes."""
    if workers < 1:
        raise ValueError(f"workers: need at least 1, got {workers}")
    if ray_address is not None:
        yield from _run_on_ray(function, tasks, ray_address)
    elif workers == 1 or len(tasks) <= 1:
        for index, task in enumerate(tasks):
            yield index, function(task)
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            pending: dict[Future[ResultT], int] = {
                pool.submit(function, task): index for index, task in enumerate(tasks)
            }
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield pending.pop(future), future.result()


def connect_ray(address: str) -> Any:
    """The ``ray`` module, connected to the cluster at ``address`` (once per process).

    ``local`` starts a private instance here; anything else is given to
    ``ray.init(address=...)``.
    """
    require("ray", ["ray"])
    import ray

    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
    return ray


def _run_on_ray(
    function: Callable[[TaskT], ResultT], tasks: Sequence[TaskT], address: str
) -> Iterator[tuple[int, ResultT]]:
    ray = connect_ray(address)
    remote = ray.remote(function)
    pending = {remote.remote(task): index for index, task in enumerate(tasks)}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), ray.get(ref)
    finally:
        for ref in pending:  # an interrupted run leaves no work behind on the cluster
            ray.cancel(ref)

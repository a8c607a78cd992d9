"""The arena's results file (JSON Lines) and running an arena into it.

The first line is the header: ``{"type": "arena", "format": 1, "config":
..., "game": ..., "software": ...}`` (the configuration, the game in words,
and the versions of pyrummy, Python and the peers' libraries that were
installed). Every further line is one finished board
(:func:`pyrummy.arena.board.play_board`), written and flushed as soon as it
finishes, in the order boards finish.

**Resuming.** ``run_arena(..., resume=True)`` reads the file, checks that
its configuration plays the same boards (no setting may differ but the
number of decks, which may grow, and the entrants, which may grow at the
end: a board's record names its pair, so adding an entrant to a finished
arena plays only the new entrant's pairs, and the header is rewritten to
list it), drops a last line cut short by an interruption, and plays only the
boards that are missing. Since a board's result depends only on the
configuration and the board, a resumed run ends with the same results as an
uninterrupted one.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from pyrummy import __version__
from pyrummy.arena.board import play_board
from pyrummy.arena.errors import ArenaError
from pyrummy.arena.schedule import ArenaConfig, Board
from pyrummy.tournament.runner import run_tasks

#: The version of the results file's layout.
RESULTS_FORMAT: Final = 1
_PEER_DISTRIBUTIONS: Final = ("open-spiel", "rlcard", "ray", "numpy", "scipy")

#: Called with the number of deals just finished.
Progress = Callable[[int], None]


def software_versions() -> dict[str, str]:
    """pyrummy's, Python's and the peers' versions (those installed)."""
    versions = {"pyrummy": __version__, "python": platform.python_version()}
    for name in _PEER_DISTRIBUTIONS:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions


def results_header(config: ArenaConfig) -> dict[str, object]:
    return {
        "type": "arena",
        "format": RESULTS_FORMAT,
        "config": config.to_dict(),
        "game": config.resolved_game().describe(),
        "software": software_versions(),
    }


@dataclass(frozen=True)
class ResultsFile:
    """A read results file: its header, its board records, and the byte
    length of its whole lines (a line cut short after it is dropped)."""

    header: dict[str, Any]
    records: list[dict[str, Any]]
    good_length: int


def read_results(path: Path) -> ResultsFile:
    """Read a results file; a bad line other than a cut-short last one raises."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    header: dict[str, Any] | None = None
    records: list[dict[str, Any]] = []
    good = 0
    for number, line in enumerate(lines, start=1):
        last = number == len(lines)
        if not line.strip():
            good += len(line) + (0 if last else 1)
            continue
        try:
            document = json.loads(line)
        except ValueError:
            if last:  # cut short while being written: dropped, and played again
                break
            raise ArenaError(f"{path}:{number}: not a JSON line") from None
        if last:  # a whole record without its newline: keep it, add the newline
            good += len(line)
        else:
            good += len(line) + 1
        if not isinstance(document, dict):
            raise ArenaError(f"{path}:{number}: not a JSON object")
        if header is None:
            if document.get("type") != "arena" or document.get("format") != RESULTS_FORMAT:
                raise ArenaError(f"{path}: not an arena results file (format {RESULTS_FORMAT})")
            header = document
        elif document.get("type") == "board":
            records.append(document)
    if header is None:
        raise ArenaError(f"{path}: empty, no header")
    return ResultsFile(header, records, good)


def _rewrite_header(path: Path, config: ArenaConfig) -> None:
    """Give the file ``config``'s header (its entrants grew), keeping every board line."""
    _, _, boards = path.read_bytes().partition(b"\n")
    header = json.dumps(results_header(config)).encode() + b"\n"
    replacement = path.with_name(path.name + ".new")
    replacement.write_bytes(header + boards)
    os.replace(replacement, path)


def record_key(record: dict[str, Any]) -> tuple[int, str, str]:
    pair = record["pair"]
    return int(record["deck"]), str(pair[0]), str(pair[1])


def run_arena(
    config: ArenaConfig,
    path: Path | None,
    *,
    resume: bool = False,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Play every board of ``config`` not yet in ``path`` and return all of
    them in schedule order (deck, then pair). ``path`` None: no file."""
    config.validate()
    done: dict[tuple[int, str, str], dict[str, Any]] = {}
    labels = config.entrants
    if path is not None and path.exists() and path.stat().st_size > 0:
        if not resume:
            raise ArenaError(f"{path} exists: --resume to continue it, or name another file")
        found = read_results(path)
        differs = config.same_play(ArenaConfig.from_dict(found.header["config"]))
        if differs:
            raise ArenaError(
                f"{path} was played with other settings ({', '.join(differs)}): "
                "resume with the same ones, or name another file"
            )
        wanted = {(b.deck, labels[b.pair[0]], labels[b.pair[1]]) for b in config.boards()}
        for record in found.records:
            key = record_key(record)
            if key in wanted:
                done[key] = record
        with path.open("r+b") as cut:  # drop a line cut short, end on a newline
            cut.truncate(found.good_length)
            if found.good_length:
                cut.seek(found.good_length - 1)
                if cut.read(1) != b"\n":
                    cut.write(b"\n")
        if tuple(found.header["config"]["entrants"]) != config.entrants:
            _rewrite_header(path, config)
    elif path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(results_header(config)) + "\n", encoding="utf-8")
    boards: list[Board] = [
        board
        for board in config.boards()
        if (board.deck, labels[board.pair[0]], labels[board.pair[1]]) not in done
    ]
    if progress is not None and done:
        progress(2 * len(done))
    handle = None if path is None else path.open("a", encoding="utf-8")
    try:
        tasks = [(config, board) for board in boards]
        for _, record in run_tasks(play_board, tasks, workers=workers, ray_address=ray_address):
            done[record_key(record)] = record
            if handle is not None:
                handle.write(json.dumps(record, separators=(",", ":")) + "\n")
                handle.flush()
            if progress is not None:
                progress(len(record["deals"]))
    finally:
        if handle is not None:
            handle.close()
    order = {
        key: index
        for index, key in enumerate(
            (b.deck, labels[b.pair[0]], labels[b.pair[1]]) for b in config.boards()
        )
    }
    return sorted(done.values(), key=lambda record: order[record_key(record)])


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A record without its timings: what equal runs must agree on."""
    tallies = {
        label: {"decisions": t["decisions"], "faults": t["faults"]}
        for label, t in record["tallies"].items()
    }
    return {**record, "tallies": tallies}

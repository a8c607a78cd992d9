"""The arena's line protocol: a bot that is another program, over stdin/stdout.

The referee (this module) starts the program, writes one JSON object per
line to its stdin and reads one line per answer from its stdout, as the
referees of programming competitions do. ``docs/arena-protocol.md`` is the
specification; in short:

- ``hello`` (referee → bot, answered): the protocol version, the game, the
  time limit. The bot answers one line, a JSON object (``{"name": ...}``;
  ``"vector": true`` asks for the research encoding in every decision).
- ``deal`` (no answer): a deal starts; the bot's seat and its seed.
- ``decision`` (answered): the seat's observation (the text notation of
  :meth:`~pyrummy.core.observation.Observation.to_dict`), the legal
  actions as ``{"id", "text"}`` pairs. The answer is the action's text, its
  id, or a JSON object ``{"action": text}`` / ``{"id": n}``.
- ``error`` (no answer): the last answer was a fault and what was played instead.
- ``result`` (no answer): the deal is over; the seat's final observation.
- ``bye`` (no answer): the referee closes the bot's stdin; the program exits.

**Faults.** An answer later than the time limit, an unreadable or illegal
answer, or a program that exits or never says hello is a *fault*. The
referee never stops the game for it: it plays the *fallback action* in the
bot's place (the first legal action, in the order listed) and counts the
fault. A late or silent program is killed; it is started again (with a new
``hello``) at its next decision, which is safe because every decision
carries the whole observation. After :data:`MAX_STARTS` failed starts in a
row the program is not started again for that board: every decision is a
fault. The bot's stderr is discarded.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pyrummy import __version__
from pyrummy.bots.base import require_actions
from pyrummy.core.actions import Action, ActionSpace, action_space, parse_action
from pyrummy.core.errors import RummyError
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules

#: The version of the line protocol (``docs/arena-protocol.md``).
PROTOCOL_VERSION: Final = 1
#: Seconds a program has to start and answer ``hello``.
START_LIMIT: Final = 10.0
#: Failed starts in a row after which a program is not started again in a board.
MAX_STARTS: Final = 3
#: Longest answer line read (a longer one is a fault).
MAX_LINE: Final = 1 << 16


class ProtocolError(RummyError):
    """A bot program could not be started (not found, not executable)."""


@dataclass(frozen=True)
class Fault:
    """One decision a bot program got wrong, and what was played instead."""

    reason: str  # "timeout", "illegal", "unreadable", "exited", "no-hello"
    detail: str
    played: str

    def to_dict(self) -> dict[str, str]:
        return {"reason": self.reason, "detail": self.detail, "played": self.played}


def split_command(command: str) -> list[str]:
    """A command line as the program and its arguments (shell quoting rules).

    >>> split_command("node examples/arena_bot.js --level 'very good'")
    ['node', 'examples/arena_bot.js', '--level', 'very good']
    """
    words = shlex.split(command)
    if not words:
        raise ProtocolError("cmd: an empty command")
    return words


class _LineReader:
    """Lines from a pipe, each read under a deadline (select on the raw fd)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""

    def read_line(self, seconds: float) -> str | None:
        """The next line without its end, or None when the deadline passed
        first; raises EOFError when the program closed its stdout."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE:
                raise ValueError(f"an answer longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()


class ProcessBot:
    """A bot that is another program speaking the line protocol.

    One object per entrant and board: :meth:`start_deal` before each deal,
    :meth:`choose` for each decision, :meth:`end_deal` after it,
    :meth:`close` at the end of the board. ``faults`` lists the faults.
    """

    def __init__(
        self,
        command: str,
        rules: Rules,
        time_limit: float,
        game: str,
        *,
        label: str | None = None,
        start_limit: float = START_LIMIT,
        on_decision: Callable[[float], None] | None = None,
    ) -> None:
        self.argv = split_command(command)
        self.name = label or f"cmd:{command}"
        self.rules = rules
        self.time_limit = time_limit
        self.start_limit = start_limit
        self.game = game
        self.on_decision = on_decision
        self.faults: list[Fault] = []
        self.decisions = 0
        self.vector = False
        self._process: subprocess.Popen[bytes] | None = None
        self._reader: _LineReader | None = None
        self._failed_starts = 0
        self._deal: dict[str, object] | None = None

    # -- the program's life -------------------------------------------------

    def _send(self, message: dict[str, object]) -> bool:
        process = self._process
        if process is None or process.stdin is None:
            return False
        try:
            process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._kill()
            return False
        return True

    def _start(self) -> str | None:
        """Start the program and greet it; None on success, else the fault's reason."""
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,
            )
        except OSError as error:
            raise ProtocolError(f"cannot start {self.argv[0]!r}: {error.strerror}") from None
        self._process = process
        assert process.stdout is not None
        self._reader = _LineReader(process.stdout.fileno())
        hello = {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "referee": f"pyrummy {__version__}",
            "game": self.game,
            "rules": self.rules.name,
            "options": self.rules.option_text(),
            "time_limit": self.time_limit,
        }
        answer, reason = self._ask(hello, self.start_limit)
        if answer is None:
            self._kill()
            return "no-hello" if reason == "timeout" else reason
        try:
            greeting = json.loads(answer)
        except ValueError:
            greeting = None
        if isinstance(greeting, dict):
            self.vector = bool(greeting.get("vector", False))
        if self._deal is not None:
            self._send(self._deal)
        return None

    def _ensure_started(self) -> str | None:
        if self._process is not None and self._process.poll() is None:
            return None
        self._kill()
        if self._failed_starts >= MAX_STARTS:
            return "exited"
        reason = self._start()
        self._failed_starts = 0 if reason is None else self._failed_starts + 1
        return reason

    def _ask(self, message: dict[str, object], seconds: float) -> tuple[str | None, str]:
        """Send ``message`` and read one answer line: (line, "") or (None, reason)."""
        if not self._send(message):
            return None, "exited"
        assert self._reader is not None
        try:
            line = self._reader.read_line(seconds)
        except EOFError:
            self._kill()
            return None, "exited"
        except ValueError:
            self._kill()
            return None, "unreadable"
        if line is None:
            self._kill()  # a late answer would be read as the next one's
            return None, "timeout"
        return line, ""

    def _kill(self) -> None:
        process, self._process, self._reader = self._process, None, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()

    def close(self) -> None:
        """Say bye and let the program exit (killed after a second)."""
        process = self._process
        if process is None:
            return
        self._send({"type": "bye"})
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=1.0)
        except (subprocess.TimeoutExpired, OSError):
            pass
        self._kill()

    # -- deals and decisions -------------------------------------------------

    def start_deal(self, seat: int, seed: int, players: int) -> None:
        """Tell the program a deal starts (started lazily at its first decision)."""
        self._deal = {"type": "deal", "seat": seat, "seed": seed, "players": players}
        if self._process is not None:
            self._send(self._deal)

    def end_deal(self, observation: Observation | None, points: Sequence[float]) -> None:
        """Tell the program how the deal ended: each seat's points and, in
        our games, the final observation from its seat (None in OpenSpiel's)."""
        if self._process is not None:
            self._send(
                {
                    "type": "result",
                    "points": list(points),
                    "observation": None if observation is None else observation.to_dict(),
                }
            )
        self._deal = None

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        require_actions(legal_actions)
        self.decisions += 1
        fallback = legal_actions[0]
        reason = self._ensure_started()
        if reason is not None:
            if self.on_decision is not None:
                self.on_decision(0.0)
            return self._fault(reason, "the program is not running", fallback)
        space = action_space(self.rules)
        ids = [space.encode(action) for action in legal_actions]
        message: dict[str, Any] = {
            "type": "decision",
            "observation": observation.to_dict(),
            "legal": [
                {"id": number, "text": str(action)}
                for number, action in zip(ids, legal_actions, strict=True)
            ],
            "time_limit": self.time_limit,
        }
        if self._deal is not None:
            message["seed"] = self._deal["seed"]
        if self.vector:
            from pyrummy.research.encoding import encode_observation

            message["vector"] = [float(v) for v in encode_observation(observation)]
        started = time.perf_counter()
        answer, reason = self._ask(message, self.time_limit)
        if self.on_decision is not None:  # the answer's time, not the program's start
            self.on_decision(time.perf_counter() - started)
        if answer is None:
            return self._fault(reason, f"no answer within {self.time_limit:g} s", fallback)
        chosen = _read_answer(answer, legal_actions, ids, space)
        if chosen is None:
            return self._fault("illegal", answer[:200], fallback)
        return chosen

    def _fault(self, reason: str, detail: str, played: Action) -> Action:
        self.faults.append(Fault(reason, detail, str(played)))
        self._send({"type": "error", "reason": reason, "detail": detail, "played": str(played)})
        return played


def _read_answer(
    answer: str, legal: Sequence[Action], ids: Sequence[int], space: ActionSpace
) -> Action | None:
    """The legal action an answer line names, or None (unreadable or illegal).

    >>> from pyrummy.core.actions import DRAW_STOCK, DRAW_DISCARD
    >>> legal, space = [DRAW_STOCK, DRAW_DISCARD], action_space("knock")
    >>> ids = [space.encode(a) for a in legal]
    >>> [str(_read_answer(a, legal, ids, space)) for a in (str(ids[1]), "draw stock", '{"action": "Draw Discard"}')]
    ['draw discard', 'draw stock', 'draw discard']
    >>> _read_answer("discard 7H", legal, ids, space) is None
    True
    """
    text = answer.strip()
    value: object = text
    if text.startswith("{"):
        try:
            document = json.loads(text)
        except ValueError:
            return None
        if not isinstance(document, dict):
            return None
        value = document.get("id", document.get("action"))
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        number = int(value)
        return legal[ids.index(number)] if number in ids else None
    if not isinstance(value, str):
        return None
    try:
        number = space.encode(parse_action(value))
    except RummyError:
        return None
    return legal[ids.index(number)] if number in ids else None

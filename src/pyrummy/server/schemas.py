"""Strict request bodies: unknown fields, wrong types and long strings are refused.

Every route's body is declared here, by resource (tables, rooms), with the
rules the bodies share: the bounds of options and the display-name rule,
which the page reads too (``python -m pyrummy.server.page_facts`` writes it
into ``web/static/js/game_facts.js``).
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pyrummy.server.tables import DEFAULT_BOT, WEB_BOTS

if TYPE_CHECKING:
    BotName = str
else:
    #: A bot a table may seat: the names of pyrummy.bots.registry (WEB_BOTS),
    #: checked by the schema (a Literal of them, built from the one list).
    BotName = Literal[WEB_BOTS]
#: Every whole number a client sends is bounded: a match must stay finite and
#: cheap (``target: 2**70`` would make a match that never ends).
OPTION_MAXIMUM: Final = 1000
#: Options whose sensible maximum differs from :data:`OPTION_MAXIMUM`.
OPTION_MAXIMA: Final[dict[str, int]] = {
    "target": 1000,
    "deals": 50,
    "turn_cap": 1000,
    "jokers": 4,
    "reuse_limit": 20,
    "wall_cards": 10,
    "min_players": 6,
    "max_players": 6,
}
# Whole numbers are bounded above by the ``options`` validator (one clear
# message naming the option); the rules core refuses negative ones.
OptionValue = (
    Annotated[str, Field(max_length=40)]
    | bool
    | int
    | Annotated[list[Annotated[int, Field(ge=0, le=100)]], Field(max_length=20)]
)
#: The largest page offset of the match list (a page further is empty anyway).
MAX_OFFSET: Final = 1_000_000
#: The largest event number a client may name (``since``, ``step``, ``seq``).
MAX_SEQ: Final = 10_000_000


#: The longest display name, in characters (code points).
NAME_MAX: Final = 24
#: Characters a display name may not hold, besides Unicode's "other" ones
#: (controls, format characters, private use, unassigned): a game record lists
#: the names in one quoted, comma-separated value (the core refuses
#: ``, " \\ [ ]`` and line breaks there), and ``< >`` read as markup wherever
#: a name is copied to.
NAME_FORBIDDEN: Final = ',"\\[]<>'
#: The longest chat message of a room, in characters, once spaces are squeezed.
CHAT_MAX: Final = 200


def clean_name(value: str) -> str:
    """A display name (a seat's, a profile's, a passkey's label): 1-24
    characters, none of :data:`NAME_FORBIDDEN` and no control or format
    character, spaces trimmed.

    >>> clean_name("  Anna ")
    'Anna'
    >>> clean_name("a\\nb")
    Traceback (most recent call last):
    ...
    ValueError: a name is 1-24 letters, digits or signs, without control characters or , " \\ [ ] < >
    """
    value = value.strip()
    if (
        not 1 <= len(value) <= NAME_MAX
        or any(ch in NAME_FORBIDDEN for ch in value)
        or any(unicodedata.category(ch).startswith("C") for ch in value)
    ):
        raise ValueError(
            f"a name is 1-{NAME_MAX} letters, digits or signs,"
            f" without control characters or {' '.join(NAME_FORBIDDEN)}"
        )
    return value


def clean_chat(value: str) -> str:
    """A chat message: runs of spaces squeezed, 1-200 characters, no control
    character (a zero-width joiner, which joins emoji, is kept)."""
    value = " ".join(value.split())
    if not 1 <= len(value) <= CHAT_MAX or any(
        unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") and ch != "\u200d" for ch in value
    ):
        raise ValueError(f"a message is 1-{CHAT_MAX} characters, without control characters")
    return value


#: A display name as sent (longer than :data:`NAME_MAX`: spaces are trimmed
#: before :func:`clean_name` counts).
Name = Annotated[str, Field(min_length=1, max_length=64)]


def option_maximum(name: str) -> int:
    """The largest value a whole-number option may take on this server.

    >>> option_maximum("target"), option_maximum("rum_bonus")
    (1000, 1000)
    """
    return OPTION_MAXIMA.get(name, OPTION_MAXIMUM)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _two_default_bots() -> list[BotName]:
    return [DEFAULT_BOT, DEFAULT_BOT]


# -- tables (server/api/tables.py, server/api/table_socket.py) ----------------


class CreateTable(Strict):
    """A new table: the game, its options and who plays.

    ``bots`` lists each bot's difficulty; ``humans`` people sit first (seat 1
    ... ), then the bots. One person against bots is the usual table; zero
    people makes a table of bots to watch.
    """

    preset: Annotated[str, Field(min_length=1, max_length=32)] = "knock"
    options: Annotated[
        dict[Annotated[str, Field(max_length=40)], OptionValue], Field(max_length=20)
    ] = Field(default_factory=dict)
    bots: Annotated[list[BotName], Field(min_length=0, max_length=5)] = Field(
        default_factory=_two_default_bots
    )
    humans: Annotated[int, Field(ge=0, le=6)] = 1
    #: The first person's display name (the rule of :func:`clean_name`).
    name: Name | None = None
    bot_delay: Annotated[float, Field(ge=0, le=10)] | None = None
    #: Only on a server started with ``--allow-seed`` (tests, demos): a seed
    #: makes every card of the match predictable.
    seed: Annotated[int, Field(ge=0, lt=2**62)] | None = None

    _name = field_validator("name")(
        classmethod(lambda cls, v: None if v is None else clean_name(v))
    )

    @field_validator("options")
    @classmethod
    def _bounded(
        cls, options: dict[str, str | bool | int | list[int]]
    ) -> dict[str, str | bool | int | list[int]]:
        for name, value in options.items():
            if isinstance(value, int) and not isinstance(value, bool):
                limit = option_maximum(name)
                if value > limit:
                    raise ValueError(f"option {name} is at most {limit}, not {value}")
        return options


class PostAction(Strict):
    """One action in the text form: ``draw stock``, ``discard 7H``, ``meld 7H 8H 9H``,
    ``layoff 9H 2``, ``knock 7H``, ``undo``, ``decline``..."""

    action: Annotated[str, Field(min_length=1, max_length=200)]
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)] | None = None


class TableSettings(Strict):
    bot_delay: Annotated[float, Field(ge=0, le=10)]


class ExplainMeld(Strict):
    cards: Annotated[str, Field(min_length=0, max_length=200)]


# -- rooms: private tables for friends (server/api/rooms.py) -------------------


class RoomSeatChoice(Strict):
    kind: Literal["you", "open", "bot"]
    bot: BotName | None = None


class CreateRoom(Strict):
    """A private table: the game and options as for ``POST /api/tables``, then
    per seat who sits there (exactly one ``you``, at least one ``open``)."""

    preset: Annotated[str, Field(min_length=1, max_length=32)] = "knock"
    options: Annotated[
        dict[Annotated[str, Field(max_length=40)], OptionValue], Field(max_length=20)
    ] = Field(default_factory=dict)
    seats: Annotated[list[RoomSeatChoice], Field(min_length=2, max_length=6)]
    name: Name
    #: Seconds (one of the server's choices, ``GET /api/rooms/options``); 0: none.
    turn_timer: Annotated[int, Field(ge=0, le=3600)] = 0
    grace: Annotated[int, Field(ge=1, le=3600)] | None = None
    bot_delay: Annotated[float, Field(ge=0, le=10)] | None = None
    #: The room's matches change the people's ratings.
    rated: bool = False

    _name = field_validator("name")(classmethod(lambda cls, v: clean_name(v)))

    @field_validator("options")
    @classmethod
    def _bounded(cls, options: dict[str, Any]) -> dict[str, Any]:
        for key, value in options.items():
            too_big = isinstance(value, int) and value > option_maximum(key)
            if too_big and not isinstance(value, bool):
                raise ValueError(f"option {key} is at most {option_maximum(key)}")
        return options


class JoinRoom(Strict):
    name: Name

    _name = field_validator("name")(classmethod(lambda cls, v: clean_name(v)))


class SetSeat(Strict):
    kind: Literal["open", "bot"]
    bot: BotName | None = None


class SetRated(Strict):
    rated: bool


class Poll(Strict):
    #: Chat messages after this id (-1: none wanted).
    since: Annotated[int, Field(ge=-1, le=2**31)] = -1
    #: The person used the page since the last poll (clears "away").
    active: bool = False
    #: A spectator's random id (kept by its browser) and name for the watchers' list.
    watcher: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{8,32}$")] | None = None
    name: Name | None = None

    _name = field_validator("name")(
        classmethod(lambda cls, v: None if v is None else clean_name(v))
    )


class ChatMessage(Strict):
    text: Annotated[str, Field(min_length=1, max_length=400)]

    _text = field_validator("text")(classmethod(lambda cls, v: clean_chat(v)))


# -- the quick match (server/api/quick.py) -------------------------------------


class JoinQueue(Strict):
    """A queue: the game, how many play, when bots may fill the empty seats."""

    preset: Annotated[str, Field(min_length=1, max_length=32)]
    players: Annotated[int, Field(ge=2, le=6)]
    #: Seconds after joining when bots may fill the empty seats; null: never.
    bot_wait: Annotated[int, Field(ge=0, le=86_400)] | None = 45
    bot: BotName = DEFAULT_BOT
    name: Name

    _name = field_validator("name")(classmethod(lambda cls, v: clean_name(v)))


# -- profiles and passkeys (server/api/profile.py, server/api/passkeys.py) ----


class Rename(Strict):
    name: Annotated[str, Field(min_length=1, max_length=64)]

    _name = field_validator("name")(classmethod(lambda cls, v: clean_name(v)))


#: A WebAuthn answer's JSON (bounded in size by the server's body limit).
Credential = Annotated[dict[str, Any], Field(max_length=8)]


class NewPasskey(Strict):
    credential: Credential
    label: Annotated[str, Field(min_length=1, max_length=64)] | None = None

    _label = field_validator("label")(
        classmethod(lambda cls, v: None if v is None else clean_name(v))
    )


class SignIn(Strict):
    credential: Credential

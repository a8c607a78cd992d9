"""Strict request bodies: unknown fields, wrong types and long strings are refused."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Final, Literal

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
    name: (
        Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[^,\"\\\[\]\t\r\n]+$")] | None
    ) = None
    bot_delay: Annotated[float, Field(ge=0, le=10)] | None = None
    #: Only on a server started with ``--allow-seed`` (tests, demos): a seed
    #: makes every card of the match predictable.
    seed: Annotated[int, Field(ge=0, lt=2**62)] | None = None

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

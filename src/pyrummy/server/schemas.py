"""Strict request bodies: unknown fields, wrong types and long strings are refused."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

BotName = Literal["easy", "medium", "hard", "random"]
OptionValue = Annotated[str, Field(max_length=40)] | int | bool | list[int]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _two_medium_bots() -> list[BotName]:
    return ["medium", "medium"]


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
        default_factory=_two_medium_bots
    )
    humans: Annotated[int, Field(ge=0, le=6)] = 1
    name: (
        Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[^,\"\\\[\]\t\r\n]+$")] | None
    ) = None
    bot_delay: Annotated[float, Field(ge=0, le=10)] | None = None
    #: Only on a server started with ``--allow-seed`` (tests, demos): a seed
    #: makes every card of the match predictable.
    seed: Annotated[int, Field(ge=0, lt=2**62)] | None = None


class PostAction(Strict):
    """One action in the text form: ``draw stock``, ``discard 7H``, ``meld 7H 8H 9H``,
    ``layoff 9H 2``, ``knock 7H``, ``undo``, ``decline``..."""

    action: Annotated[str, Field(min_length=1, max_length=200)]
    seq: Annotated[int, Field(ge=0)] | None = None


class TableSettings(Strict):
    bot_delay: Annotated[float, Field(ge=0, le=10)]


class ExplainMeld(Strict):
    cards: Annotated[str, Field(min_length=0, max_length=200)]

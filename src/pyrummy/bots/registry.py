"""Bots by name, declared once: :data:`LEVELS`, and ``make_bot("hard", seed=1)``.

>>> [level.name for level in LEVELS]
['random', 'simple', 'medium', 'hard', 'learned']
>>> make_bot("easy", seed=1).name
'simple'
>>> make_bot("grandmaster")
Traceback (most recent call last):
...
pyrummy.bots.base.UnknownBotError: unknown bot 'grandmaster'; bots are: random, simple, medium, hard, learned, easy
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from pyrummy.bots.base import Bot, BotError, UnknownBotError
from pyrummy.bots.hard import HardBot
from pyrummy.bots.learned import LearnedBot, learned_plays
from pyrummy.bots.medium import MediumBot
from pyrummy.bots.random_bot import RandomBot
from pyrummy.bots.simple import SimpleBot
from pyrummy.core.rules import Rules


def _every_game(rules: Rules, players: int) -> bool:
    return True


@dataclass(frozen=True)
class Level:
    """One shipped bot: its name, what people see of it, and how to make it.

    ``difficulty`` is the name a person choosing an opponent knows it by
    (None: not offered as an opponent's difficulty); ``summary`` is one
    plain sentence for a menu or ``--help``; ``plays`` says whether it plays
    a game (rules and number of players): every level but ``learned`` plays all.
    """

    name: str
    title: str
    summary: str
    difficulty: str | None
    factory: Callable[..., Bot]
    plays: Callable[[Rules, int], bool] = _every_game

    def to_json(self) -> dict[str, str | None]:
        """What a client needs to show the level: everything but the factory."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "difficulty": self.difficulty,
        }


#: The shipped bots, weakest first.
LEVELS: Final[tuple[Level, ...]] = (
    Level("random", "Random", "Plays any legal move at random.", None, RandomBot),
    Level(
        "simple",
        "Easy",
        "Keeps its deadwood low, takes only discards that fit a meld, knocks early.",
        "easy",
        SimpleBot,
    ),
    Level(
        "medium",
        "Medium",
        "Looks one draw ahead, avoids feeding the next player, weighs each knock.",
        "medium",
        MediumBot,
    ),
    Level(
        "hard",
        "Hard",
        "Searches sampled deals of the unseen cards before its knocks and discards.",
        "hard",
        HardBot,
    ),
    Level(
        "learned",
        "Learned",
        "A neural network trained by reinforcement learning; plays Knock Rummy and Gin for two.",
        None,
        LearnedBot,
        learned_plays,
    ),
)
_BY_NAME: Final = {level.name: level for level in LEVELS}
#: Names for people choosing an opponent: easy, medium, hard.
DIFFICULTIES: Final = {
    level.difficulty: level.name for level in LEVELS if level.difficulty is not None
}
#: Every name :func:`make_bot` accepts (the one list of them): the bots proper,
#: strongest last, then the difficulty names that are not also a bot's.
BOT_NAMES: Final = (*_BY_NAME, *(name for name in DIFFICULTIES if name not in _BY_NAME))


def find_level(name: str) -> Level:
    """The level called ``name`` or by that difficulty (any case), else :class:`UnknownBotError`."""
    key = name.strip().lower()
    level = _BY_NAME.get(DIFFICULTIES.get(key, key))
    if level is None:
        raise UnknownBotError(f"unknown bot {name!r}; bots are: {', '.join(BOT_NAMES)}")
    return level


def make_bot(name: str, seed: int | None = None, **options: object) -> Bot:
    """The bot called ``name`` (or a difficulty name), seeded, with its options.

    Options are the fields of the bot's config (:class:`~pyrummy.bots.simple.SimpleConfig`,
    :class:`~pyrummy.bots.medium.MediumConfig`, :class:`~pyrummy.bots.hard_context.HardConfig`;
    the random bot takes none); an option the bot does not take raises
    :class:`BotError`.

    >>> make_bot("hard", seed=3, rollouts=20).config.rollouts
    20
    >>> make_bot("simple", depth=3)
    Traceback (most recent call last):
    ...
    pyrummy.bots.base.BotError: bot 'simple' does not take the option(s): depth
    """
    level = find_level(name)
    try:
        return level.factory(seed, **options)
    except TypeError as error:
        if "unexpected keyword argument" not in str(error):
            raise
        raise BotError(
            f"bot {level.name!r} does not take the option(s): {', '.join(sorted(options))}"
        ) from None

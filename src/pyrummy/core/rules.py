"""Rules as declared data: one frozen :class:`Rules` value per preset.

Every option of docs/rules/ is a named, typed field (docs/options.md). Presets live in a
registry with aliases; :func:`find_rules` looks one up and applies options,
refusing unknown names and out-of-range values (nothing is silently
defaulted).

Rulings read from the sources (see ``docs/rules/rulings.md``): ``nobody_out`` is how
a melding deal that nobody went out of scores under ``winner_collects``:
seed 004's general rule (the lowest hand scores the differences to every
other hand; ``basic``, ``block``, ``rotham``) or seed 001's draw
(``rummy``). ``scoring=pay_per_point`` turns the default ``match_end=target``
into a fixed number of deals (:attr:`~pyrummy.core.rules.Rules.ending`).

>>> find_rules("poker-rum").name
'knock'
>>> rules = find_rules("basic", ace="high_or_low", going_rummy="double")
>>> rules.ace, rules.ace_points, rules.option_text()
('high_or_low', 15, 'ace=high_or_low going_rummy=double')
>>> find_rules("basic", ace="sideways")
Traceback (most recent call last):
...
pyrummy.core.errors.RulesError: option ace: 'sideways' is not one of low, high_or_low, around_the_corner
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass, field
from typing import Final, Literal, get_args

from pyrummy.core.errors import RulesError

Family = Literal["knock", "melding", "gin"]
AceRule = Literal["low", "high_or_low", "around_the_corner"]
GoingRummy = Literal["none", "double", "plus10"]
StockEnd = Literal["turn_over", "shuffle", "reuse_limit", "block"]
StockRefill = Literal["on_decline", "automatic"]
Scoring = Literal["winner_collects", "penalty", "pay_per_point"]
NobodyOut = Literal["lowest_collects", "draw"]
KnockPenalty = Literal["shared", "each_lower"]
MatchEnd = Literal["dealer_round", "target", "deals", "penalty_limit"]


@dataclass(frozen=True)
class Rules:
    """Everything that makes one rummy game differ from another.

    Fields after ``name`` and ``family`` are options: any of them can be
    changed with :meth:`with_options` (validated). Fields that only apply to
    one family are ignored by the others.
    """

    name: str
    family: Family
    title: str = ""
    min_players: int = 2
    max_players: int = 4
    # hand size by number of players: ((players, cards), ...)
    hand_sizes: tuple[tuple[int, int], ...] = ((2, 10), (3, 7), (4, 7))
    jokers: int = 0
    ace: AceRule = "low"
    # Turn cap: a deal that reaches this many turns ends with nobody out
    # (knock: a showdown without a knocker; melding: the no-winner scoring).
    turn_cap: int = 120

    # -- knock rummy (§2, §3) --
    rum_bonus: int = 25
    knock_penalty: int = 10
    knock_penalty_mode: KnockPenalty = "shared"

    # -- melding games (§4-§7) --
    multiple_melds: bool = True
    going_rummy: GoingRummy = "none"
    layoff_after_own_meld: bool = False
    last_discard_required: bool = False
    stock_end: StockEnd = "turn_over"
    stock_refill: StockRefill = "on_decline"
    recycle_keeps_top: bool = False
    reuse_limit: int = 3
    scoring: Scoring = "winner_collects"
    # A deal nobody went out of, under winner_collects scoring: 004's general
    # rule (the lowest hand scores the differences) or 001's draw (rummy).
    nobody_out: NobodyOut = "lowest_collects"
    all_seven_deals: tuple[int, ...] = ()
    starter_extra_card: bool = False

    # -- gin (§8) --
    knock_limit: int = 10
    gin_bonus: int = 20
    undercut_bonus: int = 10
    layoff_on_gin: bool = True
    wall_cards: int = 2
    # -- standard gin (docs/rules/gin-standard.md): off in the source's gin --
    # Big gin: 11 cards all melded after the draw go out without a discard
    # and score this bonus instead of the gin bonus (0: no big gin).
    big_gin_bonus: int = 0
    # A knocker tied by the defender is undercut (the common rule); off: a
    # tie scores nothing for either player (OpenSpiel's gin_rummy).
    tie_undercuts: bool = True
    # The first up-card is offered to the non-dealer, then the dealer; if
    # both pass, the non-dealer draws from the stock.
    up_card_offer: bool = False
    # Oklahoma: the first up-card's value is the knock limit (an ace: gin
    # only); a spade up-card doubles the deal's score.
    oklahoma: bool = False
    # -- OpenSpiel's gin_rummy (docs/rules/gin-standard.md §8): off elsewhere --
    # The card just taken from the pile may be discarded, or be the knock
    # card; a card so thrown back twice running ends the deal drawn.
    discard_taken: bool = False
    # The deal ends drawn at this many draws from the pile (the first
    # up-card's offer not counted; 0: no limit).
    pile_draw_limit: int = 0
    # At the wall the next player may take the discard to knock with it
    # (only to knock), or pass: the deal is drawn.
    wall_knock: bool = False

    # -- match --
    match_end: MatchEnd = "target"
    target: int = 100
    deals: int = 0
    # Added when a match ends (docs/rules/gin-standard.md §6): to the winner,
    # and to every player per deal won (the line or box bonus).
    game_bonus: int = 0
    line_bonus: int = 0
    # Shutout (schneider): when no other player scored, the winner's whole
    # game score (points and bonuses) is doubled.
    shutout_double: bool = False

    aliases: tuple[str, ...] = field(default=(), compare=False)

    # ------------------------------------------------------------------
    @property
    def ace_points(self) -> int:
        """The ace counts 1 when low only, 15 when it may also be high (§5)."""
        return 1 if self.ace == "low" else 15

    def hand_size(self, players: int) -> int:
        self.check_players(players)
        for count, size in self.hand_sizes:
            if count == players:
                return size
        raise RulesError(f"{self.name}: no hand size for {players} players")  # pragma: no cover

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {players}"
            )

    @property
    def deck_size(self) -> int:
        return 52 + self.jokers

    @property
    def ending(self) -> MatchEnd:
        """How a match under these rules ends, once the scoring is considered.

        ``match_end=target`` means different things per scoring (seed 004,
        «Счет»): under ``scoring=penalty`` it is a penalty limit (someone
        reaches 100 penalty points); under ``scoring=pay_per_point`` «Сеанс
        будет длиться определенное количество раздач, а не разыгрываться до
        целевого счета»: a fixed number of deals, ``deals`` of them, or one
        full round of dealers (each player deals once) when ``deals`` is 0.

        >>> find_rules("basic").ending, find_rules("basic", scoring="penalty").ending
        ('target', 'penalty_limit')
        >>> find_rules("basic", scoring="pay_per_point").ending
        'dealer_round'
        >>> find_rules("basic", scoring="pay_per_point", deals=8).deals_in_match(3)
        8
        """
        if self.match_end == "target" and self.family == "melding":
            if self.scoring == "penalty":
                return "penalty_limit"
            if self.scoring == "pay_per_point":
                return "deals" if self.deals else "dealer_round"
        return self.match_end

    def deals_in_match(self, players: int) -> int | None:
        """Fixed match length, or None when the match runs to a score."""
        ending = self.ending
        if ending == "dealer_round":
            return players
        if ending == "deals":
            return self.deals
        return None

    def in_force(self, up_card: int | None) -> Rules:
        """The rules in force in a deal whose first up-card is card number
        ``up_card``: under ``oklahoma`` the knock limit is the up-card's value
        (an ace: 0, so only gin knocks; a court card 10); otherwise these rules.

        >>> find_rules("gin", oklahoma=True).in_force(13 + 6).knock_limit  # the seven of hearts
        7
        >>> find_rules("gin", oklahoma=True).in_force(0).knock_limit  # the ace of spades
        0
        >>> find_rules("gin").in_force(0).knock_limit
        10
        """
        if not self.oklahoma or up_card is None:
            return self
        return _with_knock_limit(self, _up_card_value(up_card))

    def doubles_deal(self, up_card: int | None) -> bool:
        """Does this first up-card double the deal's score (Oklahoma: a spade)?

        >>> find_rules("gin", oklahoma=True).doubles_deal(0), find_rules("gin").doubles_deal(0)
        (True, False)
        """
        return self.oklahoma and up_card is not None and up_card < _RANKS_IN_SUIT

    def with_options(self, **options: object) -> Rules:
        """A copy with some options changed; every name and value is checked."""
        if not options:
            return self
        known = option_names()
        for name, value in options.items():
            if name not in known:
                raise RulesError(f"unknown option {name!r}; options are: {', '.join(known)}")
            _check_option(name, value)
        changed = dataclasses.replace(self, **options)  # type: ignore[arg-type]
        changed.validate()
        return changed

    def validate(self) -> None:
        if self.min_players < 2 or self.max_players < self.min_players:
            raise RulesError("players: need 2 <= min_players <= max_players")
        if self.family == "gin" and self.ace != "low":
            raise RulesError("gin is played with the ace low")
        if self.stock_end == "reuse_limit" and self.reuse_limit < 1:
            raise RulesError("option reuse_limit must be at least 1")
        if self.match_end == "deals" and self.deals < 1:
            raise RulesError("option deals must be at least 1 when match_end=deals")
        if self.match_end in ("target", "penalty_limit") and self.target < 1:
            raise RulesError("option target must be at least 1")
        if self.family != "gin":
            for name in _GIN_ONLY:
                if getattr(self, name) != getattr(_PLAIN, name):
                    raise RulesError(f"option {name} applies to gin only")
        if self.oklahoma and self.jokers:
            raise RulesError("oklahoma is played without jokers")
        if self.turn_cap < 4:
            raise RulesError("option turn_cap must be at least 4")
        for players in range(self.min_players, self.max_players + 1):
            sizes = dict(self.hand_sizes)
            if players not in sizes:
                raise RulesError(f"no hand size for {players} players")
            if sizes[players] * players + 1 + int(self.starter_extra_card) > self.deck_size:
                raise RulesError(f"{players} hands of {sizes[players]} do not fit the deck")

    def options(self) -> dict[str, object]:
        """The options that differ from this preset's defaults."""
        base = PRESETS.get(self.name)
        result: dict[str, object] = {}
        for name in option_names():
            value = getattr(self, name)
            if base is None or getattr(base, name) != value:
                result[name] = value
        return result

    def option_text(self) -> str:
        """Options that differ from the preset, as ``name=value`` words."""
        return " ".join(f"{k}={format_option(v)}" for k, v in self.options().items())


_NOT_OPTIONS: Final = {"name", "family", "title", "aliases"}
#: Options of standard gin that the other families do not play.
_GIN_ONLY: Final = (
    "big_gin_bonus",
    "up_card_offer",
    "oklahoma",
    "discard_taken",
    "pile_draw_limit",
    "wall_knock",
)
_RANKS_IN_SUIT: Final = 13


def _up_card_value(card: int) -> int:
    """Oklahoma's knock limit for card number ``card``: its value, an ace 0."""
    rank = card % _RANKS_IN_SUIT
    return 0 if rank == 0 else min(rank + 1, 10)


@functools.lru_cache(maxsize=64)
def _with_knock_limit(rules: Rules, limit: int) -> Rules:
    return dataclasses.replace(rules, knock_limit=limit)


def option_names() -> tuple[str, ...]:
    """Option names in declaration order (records and option texts list them so)."""
    return tuple(f.name for f in dataclasses.fields(Rules) if f.name not in _NOT_OPTIONS)


def _field_type(name: str) -> object:
    return _field_types()[name]


@functools.cache
def _field_types() -> dict[str, object]:
    # Evaluating the (string) annotations compiles each one: a few ms, once.
    return typing.get_type_hints(Rules)


def _check_option(name: str, value: object) -> None:
    kind = _field_type(name)
    choices = get_args(kind) if typing.get_origin(kind) is Literal else None
    if choices is not None:
        if value not in choices:
            raise RulesError(
                f"option {name}: {value!r} is not one of {', '.join(map(str, choices))}"
            )
    elif kind is bool:
        if not isinstance(value, bool):
            raise RulesError(f"option {name}: expected true or false, got {value!r}")
    elif kind is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RulesError(f"option {name}: expected a whole number >= 0, got {value!r}")
    elif name == "all_seven_deals":
        if not isinstance(value, tuple) or not all(isinstance(v, int) and v > 0 for v in value):
            raise RulesError(f"option {name}: expected deal numbers like 4,5,6, got {value!r}")
    elif name == "hand_sizes" and not _is_hand_sizes(value):
        raise RulesError(f"option {name}: expected pairs players:cards, got {value!r}")


def _is_hand_sizes(value: object) -> bool:
    return isinstance(value, tuple) and all(
        isinstance(p, tuple) and len(p) == 2 and all(isinstance(x, int) and x > 0 for x in p)
        for p in value
    )


def format_option(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if name_is_pairs(value):
        return ",".join(f"{p}:{c}" for p, c in typing.cast(tuple[tuple[int, int], ...], value))
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def name_is_pairs(value: object) -> bool:
    return isinstance(value, tuple) and bool(value) and isinstance(value[0], tuple)


def parse_option(name: str, text: str) -> object:
    """Read one option value from text (``true``, ``15``, ``4,5,6``, ``2:10,3:7``)."""
    if name not in option_names():
        raise RulesError(f"unknown option {name!r}; options are: {', '.join(option_names())}")
    kind = _field_type(name)
    text = text.strip()
    try:
        if kind is bool:
            lowered = text.lower()
            if lowered not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                raise RulesError(f"option {name}: expected true or false, got {text!r}")
            return lowered in ("true", "yes", "on", "1")
        if kind is int:
            return int(text)
        if name == "all_seven_deals":
            return tuple(int(p) for p in text.split(",") if p.strip())
        if name == "hand_sizes":
            pairs = []
            for part in text.split(","):
                players, cards = part.split(":")
                pairs.append((int(players), int(cards)))
            return tuple(pairs)
    except ValueError as exc:
        if isinstance(exc, RulesError):
            raise
        raise RulesError(f"option {name}: cannot read {text!r}") from None
    return text


def parse_options(words: str | list[str]) -> dict[str, object]:
    """Read ``name=value`` words (as in records and on the command line)."""
    items = words.split() if isinstance(words, str) else words
    options: dict[str, object] = {}
    for item in items:
        if "=" not in item:
            raise RulesError(f"option {item!r}: expected name=value")
        name, text = item.split("=", 1)
        options[name.strip().replace("-", "_")] = parse_option(name.strip().replace("-", "_"), text)
    return options


_FIVE_SIX: Final = ((2, 10), (3, 7), (4, 7), (5, 6), (6, 6))

PRESETS: Final[dict[str, Rules]] = {
    rules.name: rules
    for rules in (
        Rules(
            name="knock",
            family="knock",
            title="Knock Rummy (Poker Rum)",
            max_players=5,
            hand_sizes=((2, 10), (3, 7), (4, 7), (5, 7)),
            match_end="dealer_round",
            aliases=("poker-rum", "poker_rum", "pokerrum", "knock-rummy", "knockrummy"),
        ),
        Rules(
            name="knock-target",
            family="knock",
            title="Knock Rummy to a target",
            max_players=6,
            hand_sizes=_FIVE_SIX,
            knock_penalty_mode="each_lower",
            match_end="target",
            target=100,
            aliases=("knock_target", "knock-rummy-target"),
        ),
        Rules(
            name="rummy",
            family="melding",
            title="Rummy",
            max_players=4,
            multiple_melds=True,
            going_rummy="double",
            stock_end="reuse_limit",
            reuse_limit=2,
            stock_refill="automatic",
            recycle_keeps_top=True,
            nobody_out="draw",
            match_end="target",
            target=100,
            aliases=("rummy-web",),
        ),
        Rules(
            name="basic",
            family="melding",
            title="Basic Rummy",
            max_players=6,
            hand_sizes=_FIVE_SIX,
            multiple_melds=False,
            turn_cap=400,
            match_end="target",
            target=100,
            aliases=("straight", "straight-rummy", "basic-rummy"),
        ),
        Rules(
            name="block",
            family="melding",
            title="Block Rummy",
            max_players=6,
            hand_sizes=_FIVE_SIX,
            multiple_melds=False,
            stock_end="block",
            turn_cap=400,
            match_end="target",
            target=100,
            aliases=("block-rummy",),
        ),
        Rules(
            name="rotham",
            family="melding",
            title="Rotham Rummy",
            max_players=6,
            hand_sizes=((2, 7), (3, 7), (4, 7), (5, 7), (6, 7)),
            jokers=3,
            multiple_melds=False,
            all_seven_deals=(4, 5, 6),
            starter_extra_card=True,
            turn_cap=400,
            match_end="deals",
            deals=6,
            aliases=("rotham-rummy",),
        ),
        Rules(
            name="gin",
            family="gin",
            title="Gin Rummy",
            max_players=2,
            hand_sizes=((2, 10),),
            match_end="target",
            target=100,
            turn_cap=200,
            aliases=("gin-rummy", "gin_rummy"),
        ),
        Rules(
            name="gin-standard",
            family="gin",
            title="Gin Rummy (standard rules)",
            max_players=2,
            hand_sizes=((2, 10),),
            gin_bonus=25,
            undercut_bonus=25,
            big_gin_bonus=31,
            layoff_on_gin=False,
            up_card_offer=True,
            match_end="target",
            target=100,
            game_bonus=100,
            line_bonus=25,
            shutout_double=True,
            turn_cap=200,
            aliases=("standard-gin", "gin-common", "gin_standard"),
        ),
        Rules(
            name="gin-openspiel",
            family="gin",
            title="Gin Rummy (OpenSpiel's rules)",
            max_players=2,
            hand_sizes=((2, 10),),
            gin_bonus=25,
            undercut_bonus=25,
            tie_undercuts=False,
            layoff_on_gin=False,
            up_card_offer=True,
            discard_taken=True,
            pile_draw_limit=50,
            wall_knock=True,
            match_end="deals",
            deals=1,
            turn_cap=200,
            aliases=("gin_openspiel", "openspiel-gin-rules"),
        ),
    )
}

_ALIASES: Final = {alias: name for name, rules in PRESETS.items() for alias in rules.aliases}


def preset_names() -> list[str]:
    """The preset names in the order of docs/rules/index.md."""
    return list(PRESETS)


def find_rules(name: str | Rules = "knock", **options: object) -> Rules:
    """The preset called ``name`` (or an alias), with ``options`` applied.

    >>> find_rules("gin").knock_limit
    10
    >>> find_rules("canasta")
    Traceback (most recent call last):
    ...
    pyrummy.core.errors.RulesError: unknown rules 'canasta'; presets are: knock, knock-target, rummy, basic, block, rotham, gin, gin-standard, gin-openspiel
    """
    if isinstance(name, Rules):
        return name.with_options(**options)
    key = name.strip().lower().replace(" ", "-")
    key = _ALIASES.get(key, key)
    if key not in PRESETS:
        raise RulesError(f"unknown rules {name!r}; presets are: {', '.join(PRESETS)}")
    return PRESETS[key].with_options(**options)


_PLAIN: Final = Rules(name="", family="gin")

for _rules in PRESETS.values():
    _rules.validate()

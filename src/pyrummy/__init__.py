"""pyrummy: rules engine, bots and front ends for the rummy family.

The public API in one place. Cards in the notation (``7H TD AS``, ``10``
accepted, ♠♥♦♣ on display):

>>> import pyrummy
>>> hand = pyrummy.parse_cards("7S 7H 7D 8S 9S")
>>> arrangement = pyrummy.best_arrangement(hand, rules="knock")
>>> [str(meld) for meld in arrangement.melds], arrangement.deadwood
(['7S 8S 9S'], 14)

A showdown of Knock Rummy (docs/rules/knock.md §8, example 1): the knocker is beaten
and pays 8 - 3 + 10 = 15.

>>> result = pyrummy.settle(["4H 5H 6H QC QD QS 8D", "AS AH AD 7C 8C 9C 3H"], knocker=0)
>>> [str(amount) for amount in result.net]
['-15', '15']

A whole deal by code, from observations and legal actions:

>>> import random
>>> rng = random.Random(1)
>>> deal = pyrummy.new_deal(rules="knock", players=2, seed=7, dealer=0)
>>> while not deal.is_over:
...     deal.apply(rng.choice(deal.legal_actions()))
>>> sum(deal.settlement.net)
Fraction(0, 1)

A position set up by hand (a puzzle, a real table's deal): every seat's
cards, the first discard and the top of the stock; the rest is shuffled by
``seed``. Bad positions raise a narrow :class:`SetupError`.

>>> deal = pyrummy.new_deal("rummy", hands=["7H 8H 9H 2C 2D 2S 5S", "AS KD QC 4H 6D 9C TC",
...                                         "3S 4S 5D 8C JC QD KH"], upcard="KS", dealer=2, seed=1)
>>> deal.current_seat, str(deal.hands(0)), deal.discard_pile
(0, '2S 5S 7H 8H 9H 2D 2C', (Card('KS'),))
>>> pyrummy.new_deal("knock", hands=["X1 2S 3S 4S 5S 6S 7S", "AH 2H 3H 4H 5H 6H 7H",
...                                  "AD 2D 3D 4D 5D 6D 7D"])
Traceback (most recent call last):
...
pyrummy.core.errors.CardNotInDeckError: X1 (seat 0's hand) is not in the deck of knock: it has no jokers
"""

from typing import TYPE_CHECKING

from pyrummy.core.actions import Action, ActionKind, parse_action
from pyrummy.core.cards import Card, CardSet, Rank, Suit, parse_card, parse_cards
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.errors import (
    CardGivenTwiceError,
    CardNotationError,
    CardNotInDeckError,
    DuplicateCardError,
    HandSizeError,
    IllegalActionError,
    RecordError,
    RulesError,
    RummyError,
    SetupError,
    StoredActionError,
)
from pyrummy.core.ledger import Ledger, Transfer, TransferReason
from pyrummy.core.match import Match, new_match, replay_actions
from pyrummy.core.melds import Meld, check_meld, explain_meld
from pyrummy.core.observation import Observation
from pyrummy.core.phases import EndReason, Phase
from pyrummy.core.record import parse_record
from pyrummy.core.rules import PRESETS, Rules, find_rules
from pyrummy.core.settlement import Outcome, Settlement, settle
from pyrummy.core.solver import Arrangement, best_arrangement, best_discards, deadwood


def make_bot(name: str, seed: int | None = None, **options: object) -> "Bot":
    """A bot by name (``random``, ``simple``/``easy``, ``medium``, ``hard``).

    The bots are a layer above the rules core; they are imported on first use.
    """
    from pyrummy.bots import make_bot as _make_bot

    return _make_bot(name, seed=seed, **options)


if TYPE_CHECKING:  # the bots layer is imported lazily, on first use
    from pyrummy.bots.base import Bot

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Action",
    "ActionKind",
    "Arrangement",
    "Card",
    "CardGivenTwiceError",
    "CardNotInDeckError",
    "CardNotationError",
    "CardSet",
    "Deal",
    "DuplicateCardError",
    "EndReason",
    "HandSizeError",
    "IllegalActionError",
    "Ledger",
    "Match",
    "Meld",
    "Observation",
    "Outcome",
    "Phase",
    "Rank",
    "RecordError",
    "Rules",
    "RulesError",
    "RummyError",
    "Settlement",
    "SetupError",
    "StoredActionError",
    "Suit",
    "Transfer",
    "TransferReason",
    "best_arrangement",
    "best_discards",
    "check_meld",
    "deadwood",
    "explain_meld",
    "find_rules",
    "make_bot",
    "new_deal",
    "new_match",
    "parse_action",
    "parse_card",
    "parse_cards",
    "parse_record",
    "replay_actions",
    "settle",
]

"""The learned bot: a policy trained by reinforcement learning, played with numpy.

The network (:mod:`pyrummy.nn.policy`) was trained with PPO by
``examples/train_ppo.py`` and ships as a weights file per game beside this
module (``weights/<preset>-<players>p.npz``, float16, well under a megabyte). It
sees what every bot sees, its seat's observation, encoded as the research
environments encode it, and plays the legal action it scores highest.

It needs numpy (the ``web`` and ``research`` extras bring it); it plays the
games it was trained for (:func:`learned_games`) and refuses others clearly.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Final

from pyrummy.bots.base import BotError, big_gin_of, require_actions, seat_of
from pyrummy.core.actions import Action, ActionKind, action_space
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules, find_rules

if TYPE_CHECKING:
    from pyrummy.nn.policy import PolicyWeights

#: The folder of the weights files, inside this package.
WEIGHTS_FOLDER: Final = "weights"


#: Presets played with another preset's weights: the same cards, hand sizes
#: and actions; other scores, bonuses and offers (what a deal is worth, not
#: what the policy reads).
SHARED_WEIGHTS: Final = {"gin-standard": "gin", "gin-openspiel": "gin"}


def _weights_name(rules: Rules, players: int) -> str:
    return f"{SHARED_WEIGHTS.get(rules.name, rules.name)}-{players}p.npz"


@cache
def learned_games() -> list[tuple[str, int]]:
    """The (preset, players) pairs a weights file ships for."""
    folder = resources.files("pyrummy.bots").joinpath(WEIGHTS_FOLDER)
    games = []
    if folder.is_dir():
        for entry in folder.iterdir():
            name = entry.name
            if name.endswith("p.npz"):
                preset, _, players = name[: -len("p.npz")].rpartition("-")
                games.append((preset, int(players)))
    return sorted(games)


def learned_plays(rules: Rules, players: int) -> bool:
    """Does a weights file ship for this game: its preset (or the one whose
    weights it shares, :data:`SHARED_WEIGHTS`) and players, with the preset's
    hand size and no jokers? Other options (scores, bonuses, the match's
    length) change what a deal is worth, not what the policy reads, and are
    played with the same weights."""
    trained = SHARED_WEIGHTS.get(rules.name, rules.name)
    if (trained, players) not in learned_games() or rules.jokers:
        return False
    return rules.hand_size(players) == find_rules(rules.name).hand_size(players)


@cache
def _weights(name: str) -> PolicyWeights:
    from pyrummy.nn.policy import PolicyWeights

    path = resources.files("pyrummy.bots").joinpath(WEIGHTS_FOLDER, name)
    with resources.as_file(path) as file:
        return PolicyWeights.load(file)


class LearnedBot:
    """Plays the action its trained network scores highest (deterministic)."""

    name = "learned"

    def __init__(self, seed: int | None = None) -> None:
        # The policy is greedy: the seed is taken for the common interface only.
        self.seed = seed

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        require_actions(legal_actions)
        seat_of(observation)
        # Undo is for people who misclick; the policy never takes a step back.
        choices = [a for a in legal_actions if a.kind is not ActionKind.UNDO] or list(legal_actions)
        if len(choices) == 1:
            return choices[0]
        # Big gin scores most and ends the deal at once, as every level takes it.
        big_gin = big_gin_of(choices)
        if big_gin is not None:
            return big_gin
        import numpy as np

        from pyrummy.nn.encoding import encode_observation
        from pyrummy.nn.features import Layout, action_features, state_features

        rules = observation.rules
        players = observation.players
        name = _weights_name(rules, players)
        if not learned_plays(rules, players):
            games = ", ".join(f"{p} ({n} players)" for p, n in learned_games())
            raise BotError(
                f"the learned bot plays {games} with the preset's hand size and no jokers; "
                f"not {rules.name} {rules.option_text()} with {players}".replace("  ", " ")
            )
        weights = _weights(name)
        layout = Layout.of(rules, players)
        space = action_space(rules)
        by_id = {space.encode(action): action for action in choices}
        mask = np.zeros((1, space.size), np.int8)
        mask[0, list(by_id)] = 1
        encoded = encode_observation(observation)[None, :]
        feats, ids, valid = action_features(encoded, mask, layout)
        scores = weights.scores(weights.hidden(state_features(encoded, layout)), feats)[0]
        scores[~valid[0]] = -np.inf
        return by_id[int(ids[0, int(scores.argmax())])]

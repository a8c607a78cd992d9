"""The observation tensor, action masks and zero-sum rewards of every environment.

They live in :mod:`pyrummy.nn.encoding`, below the bots (the learned bot reads its
own observation through them); this module is their name in the research API.
"""

from __future__ import annotations

from pyrummy.nn.encoding import (
    CARDS,
    ENCODING_VERSION,
    PHASE_INDEX,
    PHASES,
    FloatArray,
    MaskArray,
    action_ids,
    action_mask,
    deal_rewards,
    default_players,
    encode_observation,
    moves_points,
    observation_blocks,
    observation_size,
    research_legal_actions,
    reward_bound,
)

__all__ = [
    "CARDS",
    "ENCODING_VERSION",
    "PHASES",
    "PHASE_INDEX",
    "FloatArray",
    "MaskArray",
    "action_ids",
    "action_mask",
    "deal_rewards",
    "default_players",
    "encode_observation",
    "moves_points",
    "observation_blocks",
    "observation_size",
    "research_legal_actions",
    "reward_bound",
]

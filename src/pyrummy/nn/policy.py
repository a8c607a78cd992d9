"""The learned policy's network, evaluated with numpy alone.

An action-scoring network: the state features (:func:`~pyrummy.nn.features.state_features`)
go through one hidden layer; each legal action's score is a small network of that
hidden state and the action's own features
(:func:`~pyrummy.nn.features.action_features`). A softmax over the legal actions'
scores is the policy; a value head reads the hidden state. Training (PyTorch, in
``examples/``) saves the weights as a ``.npz`` file with the names below; this
module needs nothing but numpy to play them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]

#: The arrays a weights file holds: state layer, action layer, score, value head.
WEIGHT_NAMES: Final = (
    "state_w",
    "state_b",
    "action_w",
    "action_b",
    "score_w",
    "score_b",
    "value_w",
    "value_b",
    "value_out_w",
    "value_out_b",
)


def _relu(x: FloatArray) -> FloatArray:
    return np.maximum(x, 0.0, out=x)


@dataclass(frozen=True)
class PolicyWeights:
    """The arrays of one trained network (shapes as ``torch.nn.Linear``: out x in)."""

    arrays: dict[str, FloatArray]
    meta: dict[str, str]

    @staticmethod
    def load(path: str | Path) -> PolicyWeights:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: np.asarray(data[name], np.float32) for name in WEIGHT_NAMES}
            meta = {key[5:]: str(data[key]) for key in data.files if key.startswith("meta_")}
        return PolicyWeights(arrays, meta)

    def save(self, path: str | Path) -> None:
        # float16 halves the file; the network is evaluated in float32.
        payload: dict[str, Any] = {
            name: value.astype(np.float16) for name, value in self.arrays.items()
        }
        payload |= {f"meta_{key}": np.asarray(value) for key, value in self.meta.items()}
        np.savez_compressed(path, **payload)

    def hidden(self, state: FloatArray) -> FloatArray:
        """The state's hidden layer, (B, H)."""
        a = self.arrays
        return _relu(state @ a["state_w"].T + a["state_b"])

    def scores(self, hidden: FloatArray, actions: FloatArray) -> FloatArray:
        """Each action's score, (B, K), from the hidden state and (B, K, F) features."""
        a = self.arrays
        batch, width, _ = actions.shape
        size = hidden.shape[1]
        w = a["action_w"]
        # [hidden, action] @ W.T split in two: the hidden part is shared by every action.
        shared = hidden @ w[:, :size].T + a["action_b"]
        per_action = actions @ w[:, size:].T + shared[:, None, :]
        out: FloatArray = (_relu(per_action) @ a["score_w"].T)[..., 0] + a["score_b"][0]
        return out.reshape(batch, width)

    def value(self, hidden: FloatArray) -> FloatArray:
        a = self.arrays
        inner = _relu(hidden @ a["value_w"].T + a["value_b"])
        out: FloatArray = (inner @ a["value_out_w"].T)[:, 0] + a["value_out_b"][0]
        return out

"""The small torch policy of ``bench.py --policy``: each step's actions come from a forward pass
on the batch of observations, as in a real sampling loop.

* vector observations (a dict's arrays flattened and concatenated in key order): an MLP
  (in -> 64 -> 64 -> out, tanh);
* image observations (a batch of 3-d arrays, channels first or last, e.g. Atari's 4x84x84
  frames; a dict's first image-like entry), scaled to [0, 1] and area-averaged to 84x84 where
  larger: a Nature-CNN-like net (32 8x8/4, 64 4x4/2, 64 3x3/1, 512); only its first layer's
  input channels follow the observation (ViZDoom: 12 stacked channels in envpool, 3 in
  vizdoom's own env).

The output becomes an action of the env's single action space: argmax for Discrete (per
dimension for MultiDiscrete), ``logit > 0`` for MultiBinary, ``tanh`` scaled to the bounds for
Box. Weights come from ``torch.manual_seed(seed)``; torch runs on one thread
(``torch.set_num_threads(1)``), inference mode, CPU.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from _runners import Actor, ActorFactory


def _features(obs: Any) -> tuple[np.ndarray, bool]:
    """(batch array, is_image) of a batch of observations (an array or a dict of arrays)."""
    if isinstance(obs, dict):
        keys = sorted(obs)
        images = [k for k in keys if np.asarray(obs[k]).ndim == 4]
        if images:
            return np.asarray(obs[images[0]]), True
        b = len(np.asarray(obs[keys[0]]))
        return np.concatenate([np.asarray(obs[k]).reshape(b, -1) for k in keys], axis=1), False
    arr = np.asarray(obs)
    if arr.ndim == 4:
        return arr, True
    return arr.reshape(len(arr), -1), False


def _num_outputs(space: gymnasium.Space) -> int:
    if isinstance(space, gymnasium.spaces.Discrete):
        return int(space.n)
    if isinstance(space, gymnasium.spaces.MultiDiscrete):
        return int(np.sum(space.nvec))
    if isinstance(space, (gymnasium.spaces.MultiBinary, gymnasium.spaces.Box)):
        return int(np.prod(space.shape))
    raise TypeError(f"--policy: no policy head for action space {space}")


def policy_actor(seed: int = 0) -> ActorFactory:
    """The factory of the policy actor (torch is imported here, only with ``--policy``)."""
    import torch
    from torch import nn

    def _shrink(t: torch.Tensor) -> torch.Tensor:
        # frames larger than 84x84 (ViZDoom's own 240x320 screens) are area-averaged to
        # 84x84 first, so the net is the same size for every method
        if t.shape[-2] > 84 or t.shape[-1] > 84:
            return torch.nn.functional.adaptive_avg_pool2d(t, (84, 84))
        return t

    def make(obs: Any, space: gymnasium.Space, batch: int) -> Actor:
        torch.set_num_threads(1)
        torch.manual_seed(seed)
        x, image = _features(obs)
        out = _num_outputs(space)
        channels_last = image and x.shape[-1] in (1, 3, 4) and x.shape[1] not in (1, 3, 4)
        if image:
            sample = torch.zeros((1, *x.shape[1:]))
            if channels_last:
                sample = sample.permute(0, 3, 1, 2)
            sample = _shrink(sample)
            conv = nn.Sequential(
                nn.Conv2d(sample.shape[1], 32, 8, stride=4), nn.ReLU(),
                nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
                nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(), nn.Flatten())
            with torch.no_grad():
                flat = conv(sample).shape[1]
            net = nn.Sequential(conv, nn.Linear(flat, 512), nn.ReLU(), nn.Linear(512, out))
        else:
            net = nn.Sequential(nn.Linear(x.shape[1], 64), nn.Tanh(), nn.Linear(64, 64),
                                nn.Tanh(), nn.Linear(64, out))
        net.eval()

        def to_action(y: np.ndarray) -> np.ndarray:
            if isinstance(space, gymnasium.spaces.Discrete):
                return y.argmax(axis=1).astype(np.int64) + int(space.start)
            if isinstance(space, gymnasium.spaces.MultiDiscrete):
                cuts = np.cumsum(space.nvec.ravel())[:-1]
                return np.stack([c.argmax(axis=1) for c in np.split(y, cuts, axis=1)],
                                axis=1).reshape(len(y), *space.shape).astype(space.dtype)
            if isinstance(space, gymnasium.spaces.MultiBinary):
                return (y > 0).reshape(len(y), *space.shape).astype(space.dtype)
            t = np.tanh(y).reshape(len(y), *space.shape)
            low, high = space.low, space.high
            if np.all(np.isfinite(low)) and np.all(np.isfinite(high)):
                t = low + (t + 1.0) * 0.5 * (high - low)
            return t.astype(space.dtype)

        def act(o: Any) -> np.ndarray:
            feats, _ = _features(o)
            t = torch.from_numpy(np.ascontiguousarray(feats)).float()
            if image:
                if channels_last:
                    t = t.permute(0, 3, 1, 2)
                t = _shrink(t / 255.0)
            with torch.inference_mode():
                y = net(t).numpy()
            return to_action(y)

        return act

    return make

"""``gymnasium.make_vec("envpool/<id>")``: the gymnasium flavour with gymnasium's own
space contract (batched spaces, float64 rewards, final observations as gymnasium's
vector envs give them)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector.utils import batch_space

from envpool.core import tree
from envpool.core.spec import EnvSpec
from envpool.flavours.gymnasium_env import GymnasiumEnvPool


class GymnasiumVectorEnv(GymnasiumEnvPool):
    """The strict gymnasium vector env (``gymnasium.make_vec("envpool/<id>")``).

    The same pool and behaviour as ``GymnasiumEnvPool``, with gymnasium's space
    contract: ``observation_space`` / ``action_space`` are the single-env spaces
    batched over ``num_envs`` rows. Sync mode only: a gymnasium vector env steps
    every env on each call (for async batches use ``envpool.make``). Stepping an env
    before its first reset raises gymnasium's ``ResetNeeded``.
    """

    first_step_resets = False
    takes_players = False

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config.batch_size != spec.config.num_envs:
            raise ValueError("a gymnasium vector env steps every env: batch_size must equal "
                             "num_envs (use envpool.make(...) for async batches)")
        super().__init__(spec)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def render(self, env_ids: Any = None,  # type: ignore[override]
               camera_id: int | None = None) -> tuple[Any, ...]:
        """Draws every env's current frame, as gymnasium's vector ``render()`` does.

        The ``render`` of ``gymnasium.make_vec("envpool/<id>", render_mode=...)``
        pools; EnvPool's pools draw env ``render_env_id`` alone by default and return
        one array (``EnvPoolBase.render``).

        Args:
            env_ids: The envs to draw (an int or a sequence of ints); None: every env.
            camera_id: The camera of the envs that have several (MuJoCo); None is the
                make keyword ``render_camera_id``.

        Returns:
            A tuple with one ``(H, W, 3)`` uint8 frame per env (``render_mode=
            "rgb_array"``; views of one batch drawn by the workers) or one text
            (``"ansi"``). With ``render_mode="human"``, None: env ``render_env_id``'s
            frame (or the one env of ``env_ids``) is shown in a window.

        Raises:
            RuntimeError: the pool was made without ``render_mode``, or is closed.
            ValueError: an env id out of range, listed twice or in flight, or more than
                one env with ``render_mode="human"``.
            TypeError: env ids or ``camera_id`` that are not integers.

        Examples:
            >>> import gymnasium
            >>> import envpool
            >>> envs = gymnasium.make_vec("envpool/CartPole-v1", num_envs=2,
            ...                           render_mode="rgb_array")
            >>> _ = envs.reset(seed=0)
            >>> frames = envs.render()
            >>> len(frames), frames[0].shape
            (2, (400, 600, 3))
            >>> envs.close()
        """
        if self.render_mode == "human":
            return super().render(env_ids, camera_id)  # type: ignore[return-value]
        return tuple(super().render(self.all_env_ids if env_ids is None else env_ids,
                                    camera_id))

    def recv(
        self, timeout: float | None = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Waits for the next batch, in the layout of gymnasium's own vector envs.

        The ``recv`` (and so the ``step``) of ``gymnasium.make_vec("envpool/<id>")``
        pools: as ``GymnasiumEnvPool.recv``, but with gymnasium's types.

        Args:
            timeout: The most seconds to wait; None waits as long as it takes.

        Returns:
            The tuple ``(obs, reward, terminated, truncated, info)`` with a row per env:
            ``reward`` is float64 (the pool's float32 rewards, widened); in same-step
            mode ``info["final_obs"]`` / ``info["final_info"]`` are present only on
            steps where an env finished, ``final_obs`` an object array (None for the
            envs that did not) and ``final_info`` values zero for those envs.

        Raises:
            RuntimeError: nothing is in flight, the pool is closed, or an env failed.
            TimeoutError: no batch was ready within ``timeout`` seconds.

        Examples:
            >>> import gymnasium
            >>> import envpool
            >>> envs = gymnasium.make_vec("envpool/CartPole-v1", num_envs=2)
            >>> _ = envs.reset(seed=0)
            >>> obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
            >>> envs.action_space, reward.dtype
            (MultiDiscrete([2 2]), dtype('float64'))
            >>> envs.close()
        """
        obs, reward, terminated, truncated, info = super().recv(timeout=timeout)
        reward = reward.astype(np.float64)
        if "final_obs" in info:
            done = info["_final_obs"]
            if not done.any():
                for key in ("final_obs", "_final_obs", "final_info", "_final_info"):
                    del info[key]
            else:
                rows = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(done):
                    rows[i] = tree.row(info["final_obs"], i)
                info["final_obs"] = rows
                info["final_info"] = {k: v if k.startswith("_") else _zero_unless(v, done)
                                      for k, v in info["final_info"].items()}
        return obs, reward, terminated, truncated, info


def _zero_unless(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    out = np.zeros_like(values)
    out[rows] = values[rows]
    return out

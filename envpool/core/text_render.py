"""``render_mode="ansi"`` for the toy-text grids: gymnasium's own text, of our env's state.

FrozenLake, Taxi and CliffWalking draw their ansi text with gymnasium's own
``_render_text`` (one gymnasium env per pool, built with the pool's map, never stepped):
the pool sets that env's state (``s``, from the native env's ``get_state``) and last
action (kept by the pool from ``send``, cleared by a reset) and asks it for the text, so
the text is gymnasium's by construction. Text is drawn on the calling thread when asked:
a pool pays for it only in the ``send``/``recv`` bookkeeping of the last actions, and only
with ``render_mode="ansi"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: gymnasium's ``metadata["render_fps"]`` of these envs.
TEXT_FPS = 4.0


def _frozen_lake(config: Any) -> Any:
    from gymnasium.envs.toy_text.frozen_lake import FrozenLakeEnv

    desc = list(config.desc) or None
    return FrozenLakeEnv(render_mode="ansi", desc=desc, map_name=config.map_name)


def _taxi(config: Any) -> Any:
    from gymnasium.envs.toy_text.taxi import TaxiEnv

    return TaxiEnv(render_mode="ansi")


def _cliff_walking(config: Any) -> Any:
    from gymnasium.envs.toy_text.cliffwalking import CliffWalkingEnv

    return CliffWalkingEnv(render_mode="ansi")


# Native env -> the gymnasium env that draws its text, built from the pool's config.
_TEXT_ENVS: dict[str, Callable[[Any], Any]] = {
    "FrozenLake": _frozen_lake,
    "Taxi": _taxi,
    "CliffWalking": _cliff_walking,
}


def renders_text(native_module: Any, native_env: str) -> bool:
    """Whether envpool's native env ``native_env`` draws ansi text."""
    from envpool import _native

    return native_module is _native and native_env in _TEXT_ENVS


class TextRenderer:
    """gymnasium's ansi text of the envs of one pool (see the module's docstring)."""

    def __init__(self, native_env: str, config: Any, num_envs: int) -> None:
        self._ref = _TEXT_ENVS[native_env](config)
        # The last action of each env since its reset; -1: none (gymnasium's None).
        self.last_action = [-1] * num_envs

    def sent(self, env_ids: Any, actions: Any) -> None:
        """Records the actions of a ``send``."""
        for i, a in zip(env_ids.tolist(), actions.reshape(-1).tolist(), strict=True):
            self.last_action[i] = int(a)

    def reset(self, env_ids: Any) -> None:
        """Forgets the last actions of envs that started an episode."""
        for i in env_ids.tolist():
            self.last_action[i] = -1

    def text(self, env_id: int, state: list[float]) -> str:
        """The text of env ``env_id`` in native state ``state`` (``[s, ...]``)."""
        ref = self._ref.unwrapped
        ref.s = int(state[0])
        last = self.last_action[env_id]
        ref.lastaction = None if last < 0 else last
        return ref.render()

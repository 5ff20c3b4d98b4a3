"""jumanji 1.1.1's ``Connector-v2``, the reference of the pool's ``Connector-v2``, built from
what jumanji 1.1.2 ships (1.1.2 registers only its successor, ``Connector-v3``).

jumanji 1.1.1's Connector is 1.1.2's ``Connector`` class with

* its generator: 1.1.1's ``RandomWalkGenerator(10, 10)``, which 1.1.2 keeps verbatim as
  ``LegacyRandomWalkGenerator`` (it only adds the state's action mask);
* its step's movement (``Connector._step_agents`` of 1.1.1): every agent moves alone on a
  copy of the grid (``_step_agent``: ``is_valid_position`` and ``move_agent``), the grids
  are joined by ``get_agent_grid`` and a maximum, and ``get_correction_mask`` puts back the
  agents that lost a cell. 1.1.2's legacy generator walks with the same functions (its
  ``_step_agent`` and ``_is_valid_position`` are 1.1.1's env's), which are used here;
* its ends: every LAST TimeStep is a termination (``termination``, discount 0), the time
  limit included (1.1.2 truncates there).

Checked against jumanji 1.1.1 itself (installed beside jax 0.10.2): equal resets, steps,
rewards, discounts and extras over 2,000 episodes
(benchmarks/results/jumanji/connector_v2_vs_jumanji_1_1_1_2026-11-30.txt).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
from jumanji.environments import Connector
from jumanji.environments.routing.connector.generator.legacy_random_walk_generator import (
    LegacyRandomWalkGenerator,
    get_correction_mask,
)
from jumanji.environments.routing.connector.utils import get_agent_grid


class ConnectorV2(Connector):
    """jumanji 1.1.1's Connector (its ``Connector-v2``) from jumanji 1.1.2's code."""

    def __init__(self) -> None:
        super().__init__(generator=LegacyRandomWalkGenerator(grid_size=10, num_agents=10))

    def _step_agents(self, state: Any, action: Any) -> tuple[Any, Any]:
        """jumanji 1.1.1's ``Connector._step_agents``."""
        agent_ids = jnp.arange(self.num_agents)
        agents, grids = jax.vmap(self._generator._step_agent, in_axes=(0, None, 0))(
            state.agents, state.grid, action)
        joined = jnp.max(jax.vmap(get_agent_grid)(agent_ids, grids), 0)
        masks, collided = jax.vmap(get_correction_mask, in_axes=(None, None, 0))(
            state.grid, joined, agent_ids)
        agents = jax.vmap(lambda c, old, new: jax.lax.cond(c, lambda: old, lambda: new))(
            collided, state.agents, agents)
        return agents, joined + jnp.sum(masks, 0)

    def step(self, state: Any, action: Any) -> tuple[Any, Any]:
        """1.1.2's step with 1.1.1's movement; a LAST TimeStep is a termination."""
        state, timestep = super().step(state, action)
        discount = jnp.where(timestep.last(), jnp.zeros_like(timestep.discount),
                             timestep.discount)
        return state, timestep.replace(discount=discount)

"""The Thermostat env in pure Python: the reference that tests/test_thermostat.py compares
the C++ env (src/thermostat.h) with, step by step."""

from __future__ import annotations

import numpy as np

DEFAULTS = {"target_temperature": 21.0, "heater_power": 1.0, "loss_rate": 0.1,
            "energy_cost": 0.1, "min_temperature": 0.0, "max_temperature": 40.0}


class ThermostatReference:
    """One Thermostat env; ``set_state`` puts it in a state read from the C++ env."""

    def __init__(self, **config: float) -> None:
        self.config = {**DEFAULTS, **config}
        self.room = self.outside = self.energy = 0.0

    def set_state(self, state: list[float]) -> None:
        """Room temperature, outside temperature, energy used (``get_state``'s order)."""
        self.room, self.outside, self.energy = (float(s) for s in state)

    def obs(self) -> np.ndarray:
        """The float32 observation: room, outside, room - target."""
        c = self.config
        return np.array([self.room, self.outside, self.room - c["target_temperature"]],
                        dtype=np.float32)

    def step(self, action: int) -> tuple[np.ndarray, float, bool]:
        """One step: the observation, the reward and whether the episode ended."""
        c = self.config
        heat = {0: 0.0, 1: c["heater_power"], 2: -c["heater_power"]}[int(action)]
        self.room = self.room + c["loss_rate"] * (self.outside - self.room) + heat
        reward = -abs(self.room - c["target_temperature"])
        if action != 0:
            reward -= c["energy_cost"]
            self.energy += c["heater_power"]
        terminated = self.room < c["min_temperature"] or self.room > c["max_temperature"]
        return self.obs(), reward, terminated

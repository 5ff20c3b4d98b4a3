// Thermostat: keep a room at a target temperature. Each step the room loses
// heat towards the outside temperature (Newton's law of cooling, one explicit
// Euler step) and the agent chooses to idle, heat or cool, which costs energy.
//
//   observation  float32[3]: room temperature, outside temperature, room - target
//   action       Discrete(3): 0 idle, 1 heat, 2 cool
//   reward       -|room - target| - energy_cost (when heating or cooling)
//   terminated   when the room leaves [min_temperature, max_temperature]
//   info         "energy" (float64): energy used since the episode began
//
// A reset draws the room's temperature in [10, 30) and the outside's in
// [-5, 15) from the env's Rng. envpool_thermostat/reference.py is the same env
// in pure Python; tests/test_thermostat.py checks that both agree.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/env.h"

namespace thermostat {

using envpool::ActionView;
using envpool::Config;
using envpool::DType;
using envpool::EnvSpec;
using envpool::Rng;
using envpool::Slot;
using envpool::StepOutcome;

class Thermostat final : public envpool::Env {
 public:
  // The keywords of envpool.make("Thermostat-v0", ...), read and checked once per pool.
  struct Params {
    explicit Params(const Config& config)
        : target(config.GetDouble("target_temperature")),
          heater_power(config.GetDouble("heater_power")),
          loss_rate(config.GetDouble("loss_rate")),
          energy_cost(config.GetDouble("energy_cost")),
          min_temperature(config.GetDouble("min_temperature")),
          max_temperature(config.GetDouble("max_temperature")) {
      if (heater_power < 0 || energy_cost < 0) {
        throw std::invalid_argument("heater_power and energy_cost must be >= 0");
      }
      if (!(loss_rate > 0 && loss_rate < 1)) {
        throw std::invalid_argument("loss_rate must be in (0, 1)");
      }
      if (!(min_temperature < max_temperature)) {
        throw std::invalid_argument("min_temperature must be below max_temperature");
      }
    }
    double target, heater_power, loss_rate, energy_cost, min_temperature, max_temperature;
  };

  // Every keyword the env takes, with its default (MakeEntry registers these).
  static Config Defaults() {
    Config config;
    config.Set("target_temperature", 21.0);
    config.Set("heater_power", 1.0);
    config.Set("loss_rate", 0.1);
    config.Set("energy_cost", 0.1);
    config.Set("min_temperature", 0.0);
    config.Set("max_temperature", 40.0);
    return config;
  }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs.push_back(envpool::BoxSpec("obs", DType::kFloat32, {3}));
    spec.action = envpool::DiscreteSpec("action", 3, DType::kInt32);
    spec.info.push_back(envpool::BoxSpec("energy", DType::kFloat64, {}));
    return spec;
  }

  explicit Thermostat(const Params& params) : params_(params) {}

  void Reset(Rng& rng) override {
    room_ = rng.Uniform(10.0, 30.0);
    outside_ = rng.Uniform(-5.0, 15.0);
    energy_ = 0.0;
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t a = action.Scalar<std::int32_t>();
    const double heat = a == 1 ? params_.heater_power : a == 2 ? -params_.heater_power : 0.0;
    room_ = room_ + params_.loss_rate * (outside_ - room_) + heat;
    StepOutcome out;
    out.reward = -std::fabs(room_ - params_.target);
    if (a != 0) {
      out.reward -= params_.energy_cost;
      energy_ += params_.heater_power;
    }
    out.terminated = room_ < params_.min_temperature || room_ > params_.max_temperature;
    return out;
  }

  void Write(const Slot& slot) const override {
    float* obs = slot.Obs<float>(0);
    obs[0] = static_cast<float>(room_);
    obs[1] = static_cast<float>(outside_);
    obs[2] = static_cast<float>(room_ - params_.target);
    *slot.Info<double>(0) = energy_;
  }

  // The state as numbers, so that a test can put the reference in the same state.
  std::vector<double> GetState() const override { return {room_, outside_, energy_}; }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 3) throw std::invalid_argument("Thermostat's state has 3 numbers");
    room_ = state[0];
    outside_ = state[1];
    energy_ = state[2];
  }

 private:
  Params params_;
  double room_ = 0.0;
  double outside_ = 0.0;
  double energy_ = 0.0;
};

}  // namespace thermostat

// highway-env's envs/lane_keeping_env.py LaneKeepingEnv (lane-keeping-v0), restated: steer a
// dynamical BicycleVehicle (bicycle_vehicle.h; ContinuousAction lateral only, steering in
// [-pi/3, pi/3], dynamical) at 8.3 m/s along a lane, 10 Hz.
//
// _make_road: a SineLane "a" -> "b" from [0, 0] to [500, 0] (amplitude 5, pulsation
// 2 pi / 100, phase 0, 10 m wide), a StraightLane "c" -> "d" from [50, 50] to [115, 15] and
// "d" -> "a" from [115, 15] on along the same slope for 20 m (both 10 m wide). The env
// follows "c" -> "d" first (self.lane), then, once the vehicle is off it, the sine lane.
// The vehicle starts on "c" -> "d" at (50, -4), heading along it.
//
// step (its own, not AbstractEnv's): switch lanes as above; the action (action_type.act);
// the observation (before the simulation: the package observes first); _simulate(None)
// (road.act(), road.step(1 / simulation_frequency), simulation_frequency //
// policy_frequency frames); reward 1 - (lat / lane.width) ** 2 on the env's lane; never
// terminated nor truncated by the env (the package's time does not advance): the id's
// max_episode_steps (200) ends the episodes, as gymnasium's TimeLimit does.
//
// The observation: AttributesObservation of state, derivative, reference_state
// (attributes_observation.h; the reference on the env's lane). reset() observes three
// times (define_spaces twice, each asking the observation's space, then the observation
// itself), so 16 of its draws precede the first observation's.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "envs/highway/abstract_env.h"
#include "envs/highway/attributes_observation.h"
#include "envs/highway/bicycle_vehicle.h"

namespace envpool::highway {

class LaneKeepingEnv final : public AbstractEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Check(c, {"AttributesObservation"});
    }
    double state_noise;
    double derivative_noise;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    // ContinuousAction, lateral only, steering in [-pi/3, pi/3]; 10 Hz, 10 decisions a second
    CommonDefaults d;
    d.simulation_frequency = 10;
    d.policy_frequency = 10;
    d.action_type = "ContinuousAction";
    d.action_type_fixed = true;
    d.action_longitudinal = false;
    d.steering_range = {-kPi / 3, kPi / 3};
    d.observation_type = "AttributesObservation";
    d.viewer = {600, 250, 7, {0.4, 0.5}};
    AddActionKeywords(k, d);
    AddObservationKeywords(k, d, /*is_keyword=*/false);  // not observation_factory's types
    k.Add("state_noise", 0.05, &Params::state_noise).AtLeast(0.0);
    k.Add("derivative_noise", 0.05, &Params::derivative_noise).AtLeast(0.0);
    return k;
  }
  static Config Defaults() {
    Config c = Keys().Defaults();
    AddNumericDefaults(c);
    return c;
  }
  // The Dict observation in gymnasium's order (sorted keys).
  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    const double inf = INFINITY;
    for (const char* name : {"derivative", "reference_state", "state"}) {
      spec.obs.push_back(BoxSpec(name, DType::kFloat64, {4, 1}, {-inf}, {inf}));
    }
    spec.obs_layout = ObsLayout::kDict;
    AddActionAndInfoSpec(p, {}, &spec);
    return spec;
  }

  explicit LaneKeepingEnv(const Params& p)
      : AbstractEnv(p, std::make_unique<AttributesObservation>(
                           p.state_noise, p.derivative_noise,
                           [this]() -> const Lane& { return *lane_; })),
        params_(p) {}

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const float* a = action.As<float>();
    last_action_.assign(a, a + common_.ContinuousSize());
    if (!lanes_.empty() && !lane_->OnLane(vehicle().position)) {
      lane_ = lanes_.front();
      lanes_.erase(lanes_.begin());
    }
    Act();
    Observe();
    Simulate(/*with_action=*/false);
    RecordInfo();
    StepOutcome out;
    out.reward = Reward({});
    out.terminated = false;
    out.truncated = false;
    return out;
  }

 protected:
  DebugScene Debug() const override {
    return {"lane_keeping", 0, 0};
  }
  void CreateScene() override {
    // define_spaces twice before reset's observation: 2 x 8 draws
    for (int i = 0; i < 16; ++i) np_random_.NextDouble();
    RoadNetwork net;
    net.AddLane("a", "b",
                Lane::Sine({0, 0}, {500, 0}, 5, 2 * kPi / 100, 0, params_.blas, 10,
                           LineType::kStriped, LineType::kStriped));
    net.AddLane("c", "d",
                Lane::Straight({50, 50}, {115, 15}, params_.blas, 10, LineType::kStriped,
                               LineType::kStriped));
    net.AddLane("d", "a",
                Lane::Straight({115, 15}, {115 + 20, 15 + 20.0 * (15 - 50) / (115 - 50)},
                               params_.blas, 10, LineType::kNone, LineType::kStriped));
    road_.network = std::move(net);
    const Lane& other = road_.network.GetLane({road_.network.Node("c"), road_.network.Node("d"), 0});
    const Lane& sine = road_.network.GetLane({road_.network.Node("a"), road_.network.Node("b"), 0});
    lane_ = &other;
    lanes_ = {&sine};
    auto ego = std::make_unique<BicycleVehicle>(&road_, other.Position(50, -4), other.HeadingAt(0),
                                                8.3, params_.matvec2);
    controlled_.push_back(ego.get());
    road_.vehicles.push_back(std::move(ego));
  }

  std::vector<RewardTerm> Rewards() const override { return {}; }
  // 1 - (lat / lane.width) ** 2 on the env's lane.
  double Reward(const std::vector<RewardTerm>& /*terms*/) const override {
    const double lat = lane_->LocalCoordinates(vehicle().position)[1];
    const double r = lat / lane_->WidthAt(0);
    return 1 - r * r;
  }
  bool IsTerminated() const override { return false; }
  bool IsTruncated() const override { return false; }

 private:
  Params params_;
  const Lane* lane_ = nullptr;  // road_.network's
  std::vector<const Lane*> lanes_;
};

}  // namespace envpool::highway

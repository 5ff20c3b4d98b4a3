// highway-env's envs/common/abstract.py AbstractEnv, restated, with its action types
// (envs/common/action.py: DiscreteMetaAction, ContinuousAction) and its observation types
// (observation_factory: Kinematics, TimeToCollision, ExitObservation, GrayscaleObservation,
// LidarObservation; a task observing
// otherwise gives its own ObservationType): what every task shares. A task (highway.h, ...)
// derives from it, builds its road and vehicles in CreateScene, and gives its rewards,
// termination and truncation.
//
// Randomness: the package draws everything from self.np_random, numpy's default_rng(seed)
// after reset(seed=seed), which its Road carries. The env owns that generator
// (envs/common/numpy_random.h), seeded through Env::Seed with the env's seed (the pool's
// seed + i, or reset(seed=...)'s), so env i of a pool made with seed s builds the scenes of
// gymnasium.make(id) reset with seed s + i, and its later episodes (autoreset) those of the
// package's reset() without a seed, which continues the same generator. The pool's Rng is
// not used. (The package's reset info's "action" is action_space.sample(), from the space's
// own unseeded generator: not reproduced; it is 0 here.)
//
// step(action): time += 1 / policy_frequency; simulation_frequency // policy_frequency
// frames, each: the action on the first frame (action_type.act), road.act(), road.step(1 /
// simulation_frequency); then the observation, the reward, terminated, truncated, info;
// then the task's AfterStep (what its step does after AbstractEnv.step's).
//
// MultiAgentAction and MultiAgentObservation (CommonParams::agents > 0, set by a task): a
// multi-player env in sail-sg EnvPool's layout, one player per controlled vehicle. Each
// player's action ("players.action": a label, or ContinuousSize() floats) is acted by its
// vehicle in the order sent (the env's own action has no elements); each player's
// observation (observation_config's type) is a row of the per-player "obs", observed in
// order.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/draw/picture.h"
#include "core/spec.h"
#include "envs/common/keywords.h"
#include "envs/common/numpy_blas.h"
#include "envs/common/numpy_normal.h"
#include "envs/common/numpy_random.h"
#include "envs/highway/bicycle_vehicle.h"
#include "envs/highway/debug_state.h"
#include "envs/highway/exit_observation.h"
#include "envs/highway/graphics.h"
#include "envs/highway/grayscale_observation.h"
#include "envs/highway/lidar_observation.h"
#include "envs/highway/observation.h"
#include "envs/highway/time_to_collision_observation.h"
#include "envs/highway/vehicle.h"

namespace envpool::highway {

// The keywords every task takes: the frequencies, the action type and the observation
// (the package's config["action"] and config["observation"] dicts, flattened).
struct CommonParams {
  int simulation_frequency = 15;
  int policy_frequency = 1;
  std::string action_type;  // "DiscreteMetaAction" or "ContinuousAction"
  bool action_longitudinal = true;
  bool action_lateral = true;
  std::vector<double> target_speeds;  // DiscreteMetaAction
  std::pair<double, double> acceleration_range{-5.0, 5.0};  // ContinuousAction
  std::pair<double, double> steering_range{-kPi / 4, kPi / 4};
  bool action_clip = true;
  // ContinuousAction's dynamical: the controlled vehicles are BicycleVehicles (tyre friction
  // and slip, bicycle_vehicle.h) instead of kinematic Vehicles
  bool action_dynamical = false;
  std::vector<std::string> observation_features;
  int observation_vehicles_count = 5;
  bool observation_absolute = false;
  std::string observation_order;
  bool observation_normalize = true;
  bool observation_clip = true;
  bool observation_see_behind = false;
  bool observation_observe_intentions = false;
  std::string observation_type;  // config["observation"]["type"]
  std::vector<double> observation_features_range;  // x, y, vx, vy (low, high); empty: None
  bool observation_include_obstacles = true;
  int observation_horizon = 10;  // TimeToCollision's
  // LidarObservation's cells and maximum_range (and observation_normalize: its normalize)
  int observation_cells = 16;
  double observation_maximum_range = 60.0;
  // GrayscaleObservation's observation_shape (W, H), stack_size, weights, and scaling and
  // centering_position (0 and []: None, the viewer's)
  std::vector<double> observation_shape;
  int observation_stack_size = 4;
  std::vector<double> observation_weights;
  double observation_scaling = 0.0;
  std::vector<double> observation_centering_position;
  bool offroad_terminal = false;
  // the viewer's config keys (the picture of render_mode="rgb_array", graphics.h)
  int screen_width = 600;
  int screen_height = 150;
  double scaling = 5.5;
  std::vector<double> centering_position;
  // MultiAgentAction / MultiAgentObservation over this many controlled vehicles (0: the
  // single-agent types, over the first controlled vehicle); set by the task.
  int agents = 0;
  // The players a batch row has room for (the pool's max_num_players; 0: agents).
  int max_num_players = 0;
  // numpy's ziggurat tables, for the tasks that draw np_random.normal() (hidden keywords
  // _ziggurat_ki / _wi / _fi, envpool/tasks/_numpy_ziggurat.py; AddZigguratKeywords)
  std::vector<double> zig_ki, zig_wi, zig_fi;
  // derived
  bool continuous = false;
  // how the running numpy rounds a 2 x 2 M @ v (the hidden keyword _numpy_matvec2, utils.h),
  // which the bicycle model's velocity rotation reads
  MatVec2Order matvec2 = MatVec2Order::kFusedReversed;
  KinematicsConfig kinematics;
  NumpyBlas blas;
  NumpyZiggurat ziggurat;

  // What the package refuses, refused here with its reason (called after reading);
  // `observations` are the observation types the task can make.
  void Check(const Config& c, const std::vector<std::string>& observations = {
                                  "Kinematics", "TimeToCollision", "GrayscaleObservation",
                                  "LidarObservation"}) {
    blas = NumpyBlas::FromConfig(c);
    ziggurat = NumpyZiggurat::From(zig_ki, zig_wi, zig_fi);
    const std::int64_t order = c.GetInt("_numpy_matvec2");
    if (order < 0 || order > 2) throw std::invalid_argument("highway: _numpy_matvec2");
    matvec2 = static_cast<MatVec2Order>(order);
    bool known = false;
    std::string names;
    for (const std::string& o : observations) {
      known = known || o == observation_type;
      names += (names.empty() ? "'" : ", '") + o + "'";
    }
    if (!known) {
      throw std::invalid_argument("highway: observation_type must be one of " + names +
                                  ", got '" + observation_type + "'");
    }
    if (action_type == "DiscreteMetaAction") {
      continuous = false;
      if (action_dynamical) {
        throw std::invalid_argument(
            "highway: action_dynamical is ContinuousAction's (DiscreteMetaAction drives "
            "MDPVehicles)");
      }
      if (!action_longitudinal && !action_lateral) {
        throw std::invalid_argument(
            "highway: DiscreteMetaAction needs action_longitudinal or action_lateral");
      }
      if (target_speeds.empty()) throw std::invalid_argument("highway: target_speeds is empty");
    } else if (action_type == "ContinuousAction") {
      continuous = true;
      if (!action_longitudinal && !action_lateral) {
        throw std::invalid_argument(
            "highway: ContinuousAction needs action_longitudinal or action_lateral");
      }
    } else {
      throw std::invalid_argument("highway: action_type must be 'DiscreteMetaAction' or "
                                  "'ContinuousAction', got '" + action_type + "'");
    }
    if (observation_order != "sorted" && observation_order != "shuffled") {
      throw std::invalid_argument("highway: observation_order must be 'sorted' or 'shuffled', "
                                  "got '" + observation_order + "'");
    }
    if (observation_features.empty()) {
      throw std::invalid_argument("highway: observation_features is empty");
    }
    if (!observation_features_range.empty() && observation_features_range.size() != 8) {
      throw std::invalid_argument(
          "highway: observation_features_range needs 8 numbers (x, y, vx, vy low-high pairs), "
          "or none");
    }
    if (centering_position.size() != 2) {
      throw std::invalid_argument("highway: centering_position needs 2 numbers, got " +
                                  std::to_string(centering_position.size()));
    }
    if (observation_type == "GrayscaleObservation") CheckGrayscale();
    if (observation_type == "TimeToCollision") {
      // the grid reads the observer's target_speeds and speed_index (an MDPVehicle's)
      if (continuous) {
        throw std::invalid_argument(
            "highway: observation_type 'TimeToCollision' needs action_type "
            "'DiscreteMetaAction'");
      }
      if (target_speeds.size() < 2) {
        throw std::invalid_argument(
            "highway: observation_type 'TimeToCollision' needs at least 2 target_speeds");
      }
      if (TimeToCollisionObservation::TimeCells(observation_horizon, policy_frequency) < 1) {
        throw std::invalid_argument("highway: observation_horizon must give a time cell");
      }
    }
    kinematics.features.clear();
    for (const std::string& f : observation_features) {
      kinematics.features.push_back(FeatureFromName(f));
    }
    kinematics.vehicles_count = observation_vehicles_count;
    kinematics.absolute = observation_absolute;
    kinematics.shuffled = observation_order == "shuffled";
    kinematics.normalize = observation_normalize;
    kinematics.clip = observation_clip;
    kinematics.see_behind = observation_see_behind;
    kinematics.observe_intentions = observation_observe_intentions;
    kinematics.features_range = observation_features_range;
    kinematics.include_obstacles = observation_include_obstacles;
  }

  // The viewer of env.render(): the config's screen size, scaling and centering_position.
  ViewerConfig ViewerSettings() const {
    return {screen_width, screen_height, scaling, {centering_position[0], centering_position[1]}};
  }
  // GrayscaleObservation's viewer: observation_shape's size, and its own scaling and
  // centering_position where given (`scaling or config["scaling"]`).
  GrayscaleConfig Grayscale() const {
    GrayscaleConfig g;
    g.viewer = ViewerSettings();
    g.viewer.width = static_cast<int>(observation_shape[0]);
    g.viewer.height = static_cast<int>(observation_shape[1]);
    if (observation_scaling != 0.0) g.viewer.scaling = observation_scaling;
    if (!observation_centering_position.empty()) {
      g.viewer.centering = {observation_centering_position[0], observation_centering_position[1]};
    }
    g.stack_size = observation_stack_size;
    g.weights = {observation_weights[0], observation_weights[1], observation_weights[2]};
    g.blas = blas;
    return g;
  }
  void CheckGrayscale() const {
    if (observation_shape.size() != 2) {
      throw std::invalid_argument("highway: observation_shape needs 2 numbers (W, H)");
    }
    for (double v : observation_shape) {
      if (!(v >= 1 && v <= 4096) || v != std::floor(v)) {
        throw std::invalid_argument(
            "highway: observation_shape must be two whole numbers in [1, 4096]");
      }
    }
    if (observation_weights.size() != 3) {
      throw std::invalid_argument("highway: observation_weights needs 3 numbers (R, G, B)");
    }
    if (!observation_centering_position.empty() && observation_centering_position.size() != 2) {
      throw std::invalid_argument(
          "highway: observation_centering_position needs 2 numbers, or none (the viewer's)");
    }
  }

  // LidarObservation's settings.
  LidarConfig Lidar() const {
    return {observation_cells, observation_maximum_range, observation_normalize, blas};
  }
  // observation_factory(env, config["observation"]).
  std::unique_ptr<ObservationType> MakeObservation() const {
    if (observation_type == "LidarObservation") return std::make_unique<LidarObservation>(Lidar());
    if (observation_type == "GrayscaleObservation") {
      return std::make_unique<GrayscaleObservation>(Grayscale());
    }
    if (observation_type == "TimeToCollision") {
      return std::make_unique<TimeToCollisionObservation>(observation_horizon,
                                                          policy_frequency);
    }
    if (observation_type == "ExitObservation") return std::make_unique<ExitObservation>(kinematics);
    return std::make_unique<KinematicObservation>(kinematics);
  }

  // DiscreteMetaAction's actions: ACTIONS_ALL, or ACTIONS_LONGI / ACTIONS_LAT.
  std::vector<MetaAction> MetaActions() const {
    if (action_longitudinal && action_lateral) {
      return {MetaAction::kLaneLeft, MetaAction::kIdle, MetaAction::kLaneRight,
              MetaAction::kFaster, MetaAction::kSlower};
    }
    if (action_longitudinal) return {MetaAction::kSlower, MetaAction::kIdle, MetaAction::kFaster};
    return {MetaAction::kLaneLeft, MetaAction::kIdle, MetaAction::kLaneRight};
  }
  int ContinuousSize() const { return action_longitudinal && action_lateral ? 2 : 1; }
  // Agents acting and observed: 1 for the single-agent types.
  int Agents() const { return agents > 0 ? agents : 1; }
  // A multi-agent task's players per batch row (EnvSpec::max_num_players).
  int MaxPlayers() const { return max_num_players > 0 ? max_num_players : agents; }
};

// A task's defaults for the common keywords (its default_config's "observation" and
// "action" dicts and frequencies).
struct CommonDefaults {
  int simulation_frequency = 15;
  int min_simulation_frequency = 1;
  int policy_frequency = 1;
  std::string action_type = "DiscreteMetaAction";
  // a task with one action type fixes it (action_type then not a keyword)
  bool action_type_fixed = false;
  bool action_longitudinal = true;
  bool action_lateral = true;
  std::pair<double, double> steering_range{-kPi / 4, kPi / 4};
  bool action_dynamical = false;
  // MDPVehicle.DEFAULT_TARGET_SPEEDS = np.linspace(20, 30, 3)
  std::vector<double> target_speeds{20.0, 25.0, 30.0};
  std::string observation_type = "Kinematics";
  std::vector<std::string> observation_features{"presence", "x", "y", "vx", "vy"};
  int observation_vehicles_count = 5;
  bool observation_absolute = false;
  bool observation_clip = true;
  std::vector<double> observation_features_range;
  int observation_horizon = 10;
  // the viewer's config (screen_width, screen_height, scaling, centering_position)
  ViewerConfig viewer;
};

// The viewer's config keys (every task's: AddActionKeywords adds them). The scaling is at
// most 50: the package draws each road object on a surface of its length in pixels squared
// (parking's walls: 70 m).
template <class P>
void AddViewerKeywords(Keywords<P>& k, const ViewerConfig& v) {
  k.Add("screen_width", v.width, &P::screen_width).In(1, 4096);
  k.Add("screen_height", v.height, &P::screen_height).In(1, 4096);
  k.Add("scaling", v.scaling, &P::scaling).In(1e-3, 50);
  k.Add("centering_position", std::vector<double>{v.centering[0], v.centering[1]},
        &P::centering_position)
      .In(-1e3, 1e3);
}

// The frequencies and the action's keywords (config["action"] flattened).
template <class P>
void AddActionKeywords(Keywords<P>& k, const CommonDefaults& d) {
  k.Add("simulation_frequency", d.simulation_frequency, &P::simulation_frequency)
      .AtLeast(d.min_simulation_frequency);
  k.Add("policy_frequency", d.policy_frequency, &P::policy_frequency).AtLeast(1);
  k.Add("action_type", d.action_type, &P::action_type, /*is_keyword=*/!d.action_type_fixed);
  k.Add("action_longitudinal", d.action_longitudinal, &P::action_longitudinal);
  k.Add("action_lateral", d.action_lateral, &P::action_lateral);
  k.Add("target_speeds", d.target_speeds, &P::target_speeds);
  k.Add("acceleration_range", std::pair<double, double>{-5.0, 5.0}, &P::acceleration_range);
  k.Add("steering_range", d.steering_range, &P::steering_range);
  k.Add("action_clip", true, &P::action_clip);
  k.Add("action_dynamical", d.action_dynamical, &P::action_dynamical);
  AddViewerKeywords(k, d.viewer);
}

// A task's hidden numeric keywords' defaults: numpy's BLAS summation orders and its 2 x 2
// M @ v rounding (envpool.make passes the running numpy's: envpool/tasks/_numpy_blas.py).
inline void AddNumericDefaults(Config& c) {
  NumpyBlas::AddDefaults(c);
  c.Set("_numpy_matvec2", 1);
}

// The observation's keywords of observation_factory's types (config["observation"]
// flattened); fixed (is_keyword false) for a task that observes through its own type.
template <class P>
void AddObservationKeywords(Keywords<P>& k, const CommonDefaults& d, bool is_keyword = true) {
  k.Add("observation_type", d.observation_type, &P::observation_type, is_keyword);
  k.Add("observation_features", d.observation_features, &P::observation_features, is_keyword);
  // at least 2: with 1, the package's close_vehicles[-0:] keeps every vehicle and its
  // observation outgrows its own space
  k.Add("observation_vehicles_count", d.observation_vehicles_count,
        &P::observation_vehicles_count, is_keyword)
      .In(2, 1000);
  k.Add("observation_absolute", d.observation_absolute, &P::observation_absolute, is_keyword);
  k.Add("observation_order", std::string("sorted"), &P::observation_order, is_keyword);
  k.Add("observation_normalize", true, &P::observation_normalize, is_keyword);
  k.Add("observation_clip", d.observation_clip, &P::observation_clip, is_keyword);
  k.Add("observation_see_behind", false, &P::observation_see_behind, is_keyword);
  k.Add("observation_observe_intentions", false, &P::observation_observe_intentions,
        is_keyword);
  k.Add("observation_features_range", d.observation_features_range,
        &P::observation_features_range, is_keyword);
  k.Add("observation_include_obstacles", true, &P::observation_include_obstacles, is_keyword);
  k.Add("observation_horizon", d.observation_horizon, &P::observation_horizon, is_keyword)
      .In(1, 1000);
  // LidarObservation's (the package's defaults)
  k.Add("observation_cells", 16, &P::observation_cells, is_keyword).In(1, 4096);
  k.Add("observation_maximum_range", 60.0, &P::observation_maximum_range, is_keyword)
      .In(1e-3, 1e5);
  // GrayscaleObservation's (the package's example config: 128 x 64, 4 frames)
  k.Add("observation_shape", std::vector<double>{128, 64}, &P::observation_shape, is_keyword);
  k.Add("observation_stack_size", 4, &P::observation_stack_size, is_keyword).In(1, 64);
  k.Add("observation_weights", std::vector<double>{0.2989, 0.5870, 0.1140},
        &P::observation_weights, is_keyword)
      .In(-1e6, 1e6);
  k.Add("observation_scaling", 0.0, &P::observation_scaling, is_keyword).In(0, 50);
  k.Add("observation_centering_position", std::vector<double>{},
        &P::observation_centering_position, is_keyword)
      .In(-1e3, 1e3);
}

// The common keywords, with a task's defaults.
template <class P>
void AddCommonKeywords(Keywords<P>& k, const CommonDefaults& d) {
  AddActionKeywords(k, d);
  AddObservationKeywords(k, d);
  k.Add("offroad_terminal", false, &P::offroad_terminal);
}
// The hidden keywords of numpy's ziggurat tables, for a task whose scene draws normals.
template <class P>
void AddZigguratKeywords(Keywords<P>& k) {
  k.Add("_ziggurat_ki", std::vector<double>{}, &P::zig_ki);
  k.Add("_ziggurat_wi", std::vector<double>{}, &P::zig_wi);
  k.Add("_ziggurat_fi", std::vector<double>{}, &P::zig_fi);
}

template <class P>
void AddCommonKeywords(Keywords<P>& k, int simulation_frequency) {
  CommonDefaults d;
  d.simulation_frequency = simulation_frequency;
  AddCommonKeywords(k, d);
}

// The rewards of info["rewards"], in the package's dict order.
struct RewardTerm {
  const char* name;
  double value;
};

class AbstractEnv : public Env {
 public:
  // The observation types, one per agent: observation_factory's for the keywords
  // (CommonParams' MakeObservation), or the task's own (`observation`, single-agent, where
  // it observes otherwise).
  explicit AbstractEnv(const CommonParams& p,
                       std::unique_ptr<ObservationType> observation = nullptr)
      : common_(p) {
    if (observation != nullptr) {
      observations_.push_back(std::move(observation));
    } else {
      for (int i = 0; i < p.Agents(); ++i) observations_.push_back(p.MakeObservation());
    }
    road_.np_random = &np_random_;
    road_.blas = p.blas;
    last_action_.assign(static_cast<std::size_t>(p.ContinuousSize() * p.Agents()), 0.0F);
    last_discrete_.assign(static_cast<std::size_t>(p.Agents()), 0);
    if (p.agents > 0) player_obs_.obs = {ObsSpec(p)};
  }

  // The spec: the observation (Kinematics: vehicles x features, unbounded; TimeToCollision:
  // 3 x 3 x time cells in [0, 1]; LidarObservation: cells x 2 in [-1, 1] or within the
  // range), the action, info speed, crashed, action and the task's
  // reward terms (info["rewards"] flattened: "rewards_<name>").
  static EnvSpec CommonSpec(const CommonParams& p, const std::vector<std::string>& terms) {
    EnvSpec spec;
    ArraySpec obs = ObsSpec(p);
    if (p.agents > 0) {  // MultiAgentObservation: one observation per player
      obs.per_player = true;
      spec.max_num_players = p.MaxPlayers();
    }
    spec.obs.push_back(obs);
    AddActionAndInfoSpec(p, terms, &spec);
    return spec;
  }
  // One observer's observation (observation_factory's type).
  static ArraySpec ObsSpec(const CommonParams& p) {
    const double inf = INFINITY;
    ArraySpec obs;
    if (p.observation_type == "GrayscaleObservation") {  // stack x W x H
      obs = BoxSpec("obs", DType::kUInt8,
                    {p.observation_stack_size, static_cast<std::int64_t>(p.observation_shape[0]),
                     static_cast<std::int64_t>(p.observation_shape[1])},
                    {0.0}, {255.0});
    } else if (p.observation_type == "LidarObservation") {  // cells x (distance, velocity)
      const double high = p.observation_normalize ? 1.0 : p.observation_maximum_range;
      obs = BoxSpec("obs", DType::kFloat32, {p.observation_cells, 2}, {-high}, {high});
    } else if (p.observation_type == "TimeToCollision") {
      obs = BoxSpec(
          "obs", DType::kFloat32,
          {3, 3, TimeToCollisionObservation::TimeCells(p.observation_horizon, p.policy_frequency)},
          {0.0}, {1.0});
    } else {
      obs = BoxSpec("obs", DType::kFloat32,
                    {p.observation_vehicles_count,
                     static_cast<std::int64_t>(p.observation_features.size())},
                    {-inf}, {inf});
    }
    return obs;
  }
  // The action and the info of CommonSpec, for a task with its own observation type (info
  // fields 0 to 2 + terms; a task's own info fields follow).
  static void AddActionAndInfoSpec(const CommonParams& p, const std::vector<std::string>& terms,
                                   EnvSpec* out) {
    EnvSpec& spec = *out;
    // MultiAgentAction: one action per player (the env's own action has no elements), and
    // the info's "action" the agents' (the package's tuple)
    std::vector<std::int64_t> agents_dim;
    if (p.agents > 0) agents_dim.push_back(p.agents);
    ArraySpec action;
    if (p.continuous) {
      action = BoxSpec("action", DType::kFloat32, {p.ContinuousSize()}, {-1.0}, {1.0});
      std::vector<std::int64_t> shape = agents_dim;
      shape.push_back(p.ContinuousSize());
      spec.info.push_back(BoxSpec("action", DType::kFloat32, shape));
    } else {
      action = DiscreteSpec("action", static_cast<std::int64_t>(p.MetaActions().size()),
                            DType::kInt32);
      spec.info.push_back(BoxSpec("action", DType::kInt32, agents_dim));
    }
    if (p.agents > 0) {
      spec.action = BoxSpec("action", DType::kInt32, {0});
      action.name = "players.action";
      action.per_player = true;
      spec.player_actions = {action};
      spec.player_actions_per_env = p.agents;
    } else {
      spec.action = action;
    }
    // info["speed"]: the package's float64 speed in float32, as sail-sg EnvPool gives it
    spec.info.push_back(BoxSpec("speed", DType::kFloat32, {}));
    spec.info.push_back(BoxSpec("crashed", DType::kBool, {}));
    for (const std::string& t : terms) {
      spec.info.push_back(BoxSpec("rewards_" + t, DType::kFloat64, {}));
    }
  }

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  // render_mode="rgb_array": the viewer's screen_height x screen_width picture, at the
  // package's render_fps (2 x policy_frequency). A non-zero render_width / render_height is
  // the viewer's width / height instead (as sail-sg EnvPool draws them: the package's picture
  // with that screen_width / screen_height), from 1 to 4096 pixels.
  static FrameSize RenderSize(const CommonParams& p, int width, int height, int camera_id) {
    for (const int side : {width, height}) {
      if (side < 0 || side > 4096) {
        throw std::invalid_argument("highway: render_width and render_height must be 0 (the "
                                    "screen's) or 1 to 4096, got " + std::to_string(side));
      }
    }
    return draw::FixedFrame("highway", width == 0 ? p.screen_width : width,
                            height == 0 ? p.screen_height : height, 2.0 * p.policy_frequency,
                            0, 0, camera_id);
  }
  // env.render(): the viewer centred on the first controlled vehicle.
  void Render(int width, int height, int /*camera_id*/, std::uint8_t* out) override {
    ViewerConfig settings = common_.ViewerSettings();
    if (width != 0) settings.width = width;
    if (height != 0) settings.height = height;
    Viewer viewer(settings);
    viewer.Draw(road_, controlled_.empty() ? Vec2{0, 0} : vehicle().position, out);
    // ObservationGraphics.display(env.observation_type): a single-agent LidarObservation
    const auto* lidar = dynamic_cast<const LidarObservation*>(observations_.front().get());
    if (common_.agents == 0 && lidar != nullptr) viewer.DrawLidar(*lidar, out);
  }

  // reset(): time = steps = 0, the task's scene, the observation (its ranges anew).
  void Reset(Rng& /*rng*/) override {
    time_ = 0.0;
    steps_ = 0;
    road_.vehicles.clear();
    road_.objects.clear();
    controlled_.clear();
    CreateScene();
    for (auto& o : observations_) o->Reset();
    last_action_.assign(last_action_.size(), 0.0F);
    last_discrete_.assign(last_discrete_.size(), 0);
    Observe();
    terms_ = Rewards();
    RecordInfo();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    if (common_.agents > 0 && action.NumPlayers() != common_.agents) {
      throw std::invalid_argument(
          "highway: the multi-agent env takes one action per controlled vehicle (" +
          std::to_string(common_.agents) + " players.action rows an env), got " +
          std::to_string(action.NumPlayers()));
    }
    if (common_.continuous) {
      const float* a = common_.agents > 0 ? action.Player<float>(0) : action.As<float>();
      last_action_.assign(a, a + last_action_.size());
    } else {
      const std::int32_t* a =
          common_.agents > 0 ? action.Player<std::int32_t>(0) : action.As<std::int32_t>();
      last_discrete_.assign(a, a + last_discrete_.size());
    }
    time_ += 1.0 / common_.policy_frequency;
    Simulate();
    Observe();
    StepOutcome out;
    terms_ = Rewards();
    out.reward = Reward(terms_);
    out.terminated = IsTerminated();
    out.truncated = IsTruncated();
    RecordInfo();
    AfterStep();
    return out;
  }

  // The scene as numbers (debug_state.h; envpool/tasks/highway.py's debug_states, sail-sg
  // EnvPool's debug hook, decodes them). Read only; no SetState.
  std::vector<double> GetState() const override {
    const DebugScene scene = Debug();
    std::vector<double> s;
    DebugStateWriter w(&s);
    const int frames = common_.simulation_frequency / common_.policy_frequency;
    w.Number(time_);
    w.Number(static_cast<double>(frames > 0 ? steps_ / frames : steps_));
    w.Number(common_.simulation_frequency);
    w.Number(common_.policy_frequency);
    w.Number(scene.lanes_count);
    w.Text(scene.scenario);
    w.Network(road_.network);
    w.Number(static_cast<double>(road_.vehicles.size()));
    for (const auto& v : road_.vehicles) w.VehicleFields(*v, scene.kind_base);
    w.Number(static_cast<double>(road_.objects.size()));
    for (const auto& o : road_.objects) w.ObjectFields(*o);
    return s;
  }

  void Write(const Slot& slot) const override {
    if (common_.agents > 0) {  // each player's observation: its row of "obs"
      slot.SetNumPlayers(common_.agents);
      const std::size_t bytes = player_obs_.obs[0].NumBytes();
      for (std::size_t i = 0; i < observations_.size(); ++i) {
        std::byte* row = slot.ObsBytes(0) + i * bytes;
        observations_[i]->Write(slot.WithObs(&row, &player_obs_), 0);
      }
    } else {
      observations_.front()->Write(slot, 0);
    }
    if (common_.continuous) {
      std::copy(last_action_.begin(), last_action_.end(), slot.Info<float>(0));
    } else {
      std::copy(last_discrete_.begin(), last_discrete_.end(), slot.Info<std::int32_t>(0));
    }
    *slot.Info<float>(1) = static_cast<float>(speed_);
    *slot.Info<bool>(2) = crashed_;
    for (std::size_t i = 0; i < terms_.size(); ++i) *slot.Info<double>(3 + i) = terms_[i].value;
  }

 protected:
  // The task's scene: road_.network, the vehicles (controlled_ first among them).
  virtual void CreateScene() = 0;
  // The task's scenario name, lanes_count and vehicle kind codes, for GetState.
  virtual DebugScene Debug() const = 0;
  // _rewards(action), in the package's dict order.
  virtual std::vector<RewardTerm> Rewards() const = 0;
  // _reward(action) from the terms.
  virtual double Reward(const std::vector<RewardTerm>& terms) const = 0;
  // The package's `sum(config.get(name, 0) * reward for name, reward in rewards.items())`:
  // from 0, each term times its weight (0 for a term the config does not weigh), added in
  // the dict's order, as Python's sum adds them.
  static double WeightedSum(const std::vector<RewardTerm>& terms,
                            std::initializer_list<double> weights) {
    double sum = 0;
    std::size_t i = 0;
    for (double weight : weights) sum = sum + weight * terms[i++].value;
    return sum;
  }
  virtual bool IsTerminated() const = 0;
  virtual bool IsTruncated() const = 0;
  // What the task's step does after AbstractEnv.step (the info is written as it was).
  virtual void AfterStep() {}
  // The info's speed and crashed: the first controlled vehicle's now (at the step's end,
  // before AfterStep; a task with its own step calls it there).
  void RecordInfo() {
    speed_ = vehicle().speed;
    crashed_ = vehicle().crashed;
  }
  // The info fields CommonSpec declares: the task's own come after them.
  std::size_t CommonInfoCount() const { return 3 + terms_.size(); }

  // `action in [0, 2]` (the lane_change_reward terms): the discrete label 0 or 2, or a
  // one-number continuous action equal to 0 or 2 (the package cannot compare a two-number
  // one: false here). False at reset, where the package's term reads action_space.sample()
  // from the space's own unseeded generator.
  bool LaneChanged() const {
    if (steps_ == 0) return false;
    if (!common_.continuous) return last_discrete_[0] == 0 || last_discrete_[0] == 2;
    return last_action_.size() == 1 && (last_action_[0] == 0.0F || last_action_[0] == 2.0F);
  }

  // np_random.normal(): loc 0, scale 1.
  double Normal() { return common_.ziggurat.Normal(np_random_, 0.0, 1.0); }

  // RoadObject.make_on_lane(road, lane_index, longitudinal, speed) for an IDMVehicle: on the
  // lane's centre at longitudinal, with the lane's heading there.
  IDMVehicle* MakeIdmOnLane(const LaneIndex& index, double longitudinal, double speed) {
    const Lane& lane = road_.network.GetLane(index);
    road_.vehicles.push_back(std::make_unique<IDMVehicle>(
        &road_, lane.Position(longitudinal, 0), lane.HeadingAt(longitudinal), speed));
    return static_cast<IDMVehicle*>(road_.vehicles.back().get());
  }
  LaneIndex Index(const std::string& from, const std::string& to, int id) const {
    return {road_.network.FindNode(from), road_.network.FindNode(to), id};
  }

  // The first controlled vehicle (self.vehicle).
  Vehicle& vehicle() const { return *controlled_.front(); }

  // action_type.vehicle_class(road, position, heading, speed): an MDPVehicle with
  // target_speeds (DiscreteMetaAction), a plain Vehicle (ContinuousAction) or a
  // BicycleVehicle (ContinuousAction, dynamical).
  std::unique_ptr<Vehicle> MakeControlled(Vec2 position, double heading, double speed) {
    if (common_.continuous && common_.action_dynamical) {
      return std::make_unique<BicycleVehicle>(&road_, position, heading, speed, common_.matvec2);
    }
    if (common_.continuous) return std::make_unique<Vehicle>(&road_, position, heading, speed);
    return std::make_unique<MDPVehicle>(&road_, position, heading, speed, common_.target_speeds);
  }

  // Vehicle.create_random(road, speed, lane_from, lane_to, lane_id, spacing): the road's
  // origin and destination by np_random.choice, the lane id by choice unless given, the
  // speed uniform in [0.7, 0.8] x speed limit unless given; behind the frontmost vehicle
  // (or at 3 offsets) by offset x uniform(0.9, 1.1), offset = spacing x (12 + speed) x
  // exp(-5 / 40 x lanes).
  struct Spawn {
    Vec2 position;
    double heading;
    double speed;
  };
  // (lane_from, lane_to: a node id, or -1 for None: drawn.)
  Spawn CreateRandom(double speed, bool has_speed, int lane_id, double spacing,
                     int lane_from = -1, int lane_to = -1) {
    const RoadNetwork& net = road_.network;
    int from = lane_from;
    if (from < 0) {
      const std::vector<int> origins = net.Origins();
      from = origins[static_cast<std::size_t>(
          np_random_.Integers(0, static_cast<std::int64_t>(origins.size())))];
    }
    int to = lane_to;
    if (to < 0) {
      const std::vector<int> dests = net.Destinations(from);
      to = dests[static_cast<std::size_t>(
          np_random_.Integers(0, static_cast<std::int64_t>(dests.size())))];
    }
    const int n = net.LaneCount(from, to);
    const int id = lane_id >= 0 ? lane_id : static_cast<int>(np_random_.Integers(0, n));
    const Lane& lane = net.GetLane({from, to, id});
    if (!has_speed) speed = np_random_.Uniform(0.7 * lane.speed_limit(), 0.8 * lane.speed_limit());
    const double default_spacing = 12 + 1.0 * speed;
    const double offset = spacing * default_spacing * std::exp(-5.0 / 40 * n);
    double x0;
    if (!road_.vehicles.empty()) {  // np.max of the vehicles' longitudinal coordinates
      x0 = road_.vehicles[0]->LocalOn(lane)[0];
      for (std::size_t i = 1; i < road_.vehicles.size(); ++i) {
        const double x = road_.vehicles[i]->LocalOn(lane)[0];
        if (x > x0 || std::isnan(x)) x0 = x;
      }
    } else {
      x0 = 3 * offset;
    }
    x0 += offset * np_random_.Uniform(0.9, 1.1);
    return {lane.Position(x0, 0), lane.HeadingAt(x0), speed};
  }

  CommonParams common_;
  NumpyGenerator np_random_;
  Road road_;
  std::vector<Vehicle*> controlled_;  // road_.vehicles owns them
  double time_ = 0.0;
  std::int64_t steps_ = 0;
  std::vector<std::int32_t> last_discrete_;  // one per agent
  std::vector<float> last_action_;           // ContinuousSize() per agent
  std::vector<RewardTerm> terms_;

  // _simulate(action): the action on the first frame (unless the task acted itself:
  // _simulate(None)), then road.act() and road.step(dt).
  void Simulate(bool with_action = true) {
    const int frames = common_.simulation_frequency / common_.policy_frequency;
    for (int frame = 0; frame < frames; ++frame) {
      if (with_action && steps_ % frames == 0) Act();
      road_.Act();
      road_.Step(1.0 / common_.simulation_frequency);
      ++steps_;
    }
  }

  // action_type.act(action): each agent's (MultiAgentAction), in order.
  void Act() {
    for (std::size_t i = 0; i < last_discrete_.size(); ++i) Act(i);
  }
  void Act(std::size_t agent) {
    Vehicle& v = *controlled_[agent];
    if (!common_.continuous) {  // DiscreteMetaAction: the label's meta-action
      const std::vector<MetaAction> actions = common_.MetaActions();
      static_cast<ControlledVehicle&>(v).ActMeta(
          actions[static_cast<std::size_t>(last_discrete_[agent])]);
      return;
    }
    // ContinuousAction.get_action: np.clip(action, -1, 1) and lmap onto the ranges, in
    // float32 (the action is a float32 array; numpy keeps float32 with Python scalars)
    const std::size_t n = static_cast<std::size_t>(common_.ContinuousSize());
    std::vector<float> a(last_action_.begin() + static_cast<std::ptrdiff_t>(agent * n),
                         last_action_.begin() + static_cast<std::ptrdiff_t>((agent + 1) * n));
    if (common_.action_clip) {
      for (float& x : a) x = x < -1.0F ? -1.0F : (x > 1.0F ? 1.0F : x);
    }
    auto lmap32 = [](float v, double y0, double y1) {
      const float fy0 = static_cast<float>(y0);
      const float span = static_cast<float>(y1 - y0);
      return fy0 + (v - (-1.0F)) * span / 2.0F;
    };
    VehicleAction act;
    if (common_.action_longitudinal && common_.action_lateral) {
      act.acceleration = lmap32(a[0], common_.acceleration_range.first,
                                common_.acceleration_range.second);
      act.steering = lmap32(a[1], common_.steering_range.first, common_.steering_range.second);
    } else if (common_.action_longitudinal) {
      act.acceleration = lmap32(a[0], common_.acceleration_range.first,
                                common_.acceleration_range.second);
    } else {
      act.steering = lmap32(a[0], common_.steering_range.first, common_.steering_range.second);
    }
    v.SetAction(act);
  }

  // observe(): each observation type's, of its controlled vehicle (the first alone for a
  // single-agent type).
  void Observe() {
    for (std::size_t i = 0; i < observations_.size(); ++i) {
      observations_[i]->Observe(road_, *controlled_[i], np_random_);
    }
  }

 private:
  std::vector<std::unique_ptr<ObservationType>> observations_;  // one per agent
  EnvSpec player_obs_;  // a multi-agent env's: one player's observation
  double speed_ = 0.0;  // the info's, at the step's end (before AfterStep)
  bool crashed_ = false;
};

}  // namespace envpool::highway

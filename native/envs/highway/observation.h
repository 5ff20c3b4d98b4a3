// highway-env's envs/common/observation.py KinematicObservation, restated: the observer's
// row, then the nearest vehicles' (and obstacles') rows (Road.close_objects_to), each a
// feature list of Vehicle.to_dict (RoadObject.to_dict for an object: no heading nor lane
// offsets, NaN in the package's table), relative to the observer unless absolute;
// normalised by lmap over the features' ranges (features_range, or the default ranges from
// the observer's road at the first observation of an episode), clipped to [-1, 1]; rows of
// zeros to vehicles_count; shuffled below the first row with the env's np_random where
// order is "shuffled"; float64 arithmetic, cast to float32.
//
// ObservationType is what an env observes through (observation_factory's types); the
// other types have their own headers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "envs/common/numpy_random.h"
#include "envs/highway/vehicle.h"

namespace envpool::highway {

// Vehicle.to_dict's keys.
enum class Feature {
  kPresence, kX, kY, kVx, kVy, kHeading, kCosH, kSinH, kCosD, kSinD, kLongOff, kLatOff, kAngOff
};

inline Feature FeatureFromName(const std::string& name) {
  static const char* const kNames[] = {"presence", "x",     "y",     "vx",       "vy",
                                       "heading",  "cos_h", "sin_h", "cos_d",    "sin_d",
                                       "long_off", "lat_off", "ang_off"};
  for (int i = 0; i < 13; ++i) {
    if (name == kNames[i]) return static_cast<Feature>(i);
  }
  throw std::invalid_argument(
      "highway: unknown Kinematics feature '" + name +
      "' (presence, x, y, vx, vy, heading, cos_h, sin_h, cos_d, sin_d, long_off, lat_off, "
      "ang_off)");
}

// ObservationType: what an env observes through, one per observer (observation_factory's
// types, or a task's own: KinematicsGoal, OccupancyGrid, Attributes). Observe keeps the
// observation of the state; Write puts it into the slot's observation keys from `key` on
// (one key for an array, one per entry, in the spec's order, for a Dict).
class ObservationType {
 public:
  virtual ~ObservationType() = default;
  // A new episode (the package makes its observation type anew at each reset).
  virtual void Reset() {}
  virtual void Observe(const Road& road, const Vehicle& observer, NumpyGenerator& np_random) = 0;
  virtual void Write(const Slot& slot, std::size_t key) const = 0;
};

// An observation that is one float32 array of Size() numbers (Kinematics, TimeToCollision,
// ExitObservation, OccupancyGrid): the type computes it into a buffer (ObserveInto).
class ArrayObservation : public ObservationType {
 public:
  virtual std::size_t Size() const = 0;
  virtual void ObserveInto(const Road& road, const Vehicle& observer, NumpyGenerator& np_random,
                           float* out) = 0;
  void Observe(const Road& road, const Vehicle& observer, NumpyGenerator& np_random) final {
    values_.resize(Size());
    ObserveInto(road, observer, np_random, values_.data());
  }
  void Write(const Slot& slot, std::size_t key) const final {
    std::copy(values_.begin(), values_.end(), slot.Obs<float>(key));
  }

 private:
  std::vector<float> values_;
};

struct KinematicsConfig {
  std::vector<Feature> features;
  // features_range as x, y, vx, vy (low, high) pairs; empty: None (the defaults)
  std::vector<double> features_range;
  bool include_obstacles = true;
  int vehicles_count = 5;
  bool absolute = false;
  bool shuffled = false;  // order == "shuffled"
  bool normalize = true;
  bool clip = true;
  bool see_behind = false;
  bool observe_intentions = false;
};

class KinematicObservation : public ArrayObservation {
 public:
  static constexpr double kPerceptionDistance = 5.0 * Vehicle::kMaxSpeed;  // AbstractEnv's

  explicit KinematicObservation(const KinematicsConfig& config) : config_(config) {}

  int Rows() const { return config_.vehicles_count; }
  int Cols() const { return static_cast<int>(config_.features.size()); }
  std::size_t Size() const override { return static_cast<std::size_t>(Rows() * Cols()); }

  // A new episode: the ranges are the observer's road's at the next observation.
  void Reset() override { ranges_set_ = false; }

  // observe(): writes vehicles_count x len(features) float32s. The nearest vehicles sorted by
  // |lane distance| (order "sorted"), or the first in the road's list ("shuffled").
  void ObserveInto(const Road& road, const Vehicle& observer, NumpyGenerator& np_random,
                   float* out) override {
    const int cols = Cols();
    std::vector<double> rows;
    AppendRow(observer, nullptr, true, &rows);
    AdjustObserverRow(road, observer, &rows);
    const std::vector<const Vehicle*> close = CloseObjects(road, observer);
    // close_vehicles[-vehicles_count + 1:]
    std::size_t first = 0;
    const std::size_t keep = static_cast<std::size_t>(config_.vehicles_count - 1);
    if (close.size() > keep) first = close.size() - keep;
    for (std::size_t i = first; i < close.size(); ++i) {
      AppendRow(*close[i], config_.absolute ? nullptr : &observer, config_.observe_intentions,
                &rows);
    }
    if (config_.normalize) {
      if (!ranges_set_) SetRanges(road, observer);  // self.features_range, set once
      const std::size_t n = rows.size() / static_cast<std::size_t>(cols);
      for (int c = 0; c < cols; ++c) {
        const Range* range = RangeOf(config_.features[static_cast<std::size_t>(c)]);
        if (range == nullptr) continue;
        for (std::size_t r = 0; r < n; ++r) {
          double& v = rows[r * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)];
          v = Lmap(v, range->low, range->high, -1, 1);
          if (config_.clip) v = Clip(v, -1, 1);
        }
      }
    }
    rows.resize(static_cast<std::size_t>(config_.vehicles_count * cols), 0.0);
    if (config_.shuffled) {  // np_random.shuffle(obs[1:]): Fisher-Yates over the rows
      const std::size_t n = static_cast<std::size_t>(config_.vehicles_count - 1);
      std::vector<std::size_t> order(n);
      for (std::size_t i = 0; i < n; ++i) order[i] = i;
      np_random.Shuffle(order);
      std::vector<double> copy(rows);
      for (std::size_t i = 0; i < n; ++i) {
        for (int c = 0; c < cols; ++c) {
          rows[(1 + i) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)] =
              copy[(1 + order[i]) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)];
        }
      }
    }
    for (std::size_t i = 0; i < rows.size(); ++i) out[i] = static_cast<float>(rows[i]);
  }

 protected:
  // What a subclass changes in the observer's row (ExitObservation: its x).
  virtual void AdjustObserverRow(const Road& /*road*/, const Vehicle& /*observer*/,
                                 std::vector<double>* /*rows*/) const {}
  // The rows below the observer's: close_objects_to(observer, PERCEPTION_DISTANCE,
  // vehicles_count - 1, see_behind, sort=order == "sorted" (road order if shuffled),
  // vehicles_only=not include_obstacles).
  virtual std::vector<const Vehicle*> CloseObjects(const Road& road,
                                                   const Vehicle& observer) const {
    return road.CloseObjectsTo(observer, kPerceptionDistance, config_.vehicles_count - 1,
                               config_.see_behind, /*sort=*/!config_.shuffled,
                               /*vehicles_only=*/!config_.include_obstacles);
  }
  // The column of a feature, -1 where it is not observed.
  int Column(Feature f) const {
    for (std::size_t c = 0; c < config_.features.size(); ++c) {
      if (config_.features[c] == f) return static_cast<int>(c);
    }
    return -1;
  }
  const KinematicsConfig& config() const { return config_; }

 private:
  struct Range {
    double low, high;
  };

  // normalize_obs's features_range: the configured one, else x +-5 MAX_SPEED, y
  // +-DEFAULT_WIDTH * (lanes of the observer's road), vx and vy +-2 MAX_SPEED.
  void SetRanges(const Road& road, const Vehicle& observer) {
    if (config_.features_range.size() == 8) {
      const std::vector<double>& r = config_.features_range;
      x_ = {r[0], r[1]};
      y_ = {r[2], r[3]};
      vx_ = {r[4], r[5]};
      vy_ = {r[6], r[7]};
      ranges_set_ = true;
      return;
    }
    const int lanes = road.network.LaneCount(observer.lane_index.from, observer.lane_index.to);
    x_ = {-5.0 * Vehicle::kMaxSpeed, 5.0 * Vehicle::kMaxSpeed};
    y_ = {-Lane::kDefaultWidth * lanes, Lane::kDefaultWidth * lanes};
    vx_ = {-2 * Vehicle::kMaxSpeed, 2 * Vehicle::kMaxSpeed};
    vy_ = vx_;
    ranges_set_ = true;
  }
  const Range* RangeOf(Feature f) const {
    switch (f) {
      case Feature::kX: return &x_;
      case Feature::kY: return &y_;
      case Feature::kVx: return &vx_;
      case Feature::kVy: return &vy_;
      default: return nullptr;
    }
  }

  // Vehicle.to_dict(origin_vehicle, observe_intentions), the configured features in order
  // (cos_d, sin_d: destination_direction; 0 without intentions). RoadObject.to_dict for an
  // obstacle: velocity 0, cos_d = sin_d = 0, no heading nor lane offsets (NaN).
  void AppendRow(const Vehicle& v, const Vehicle* origin, bool observe_intentions,
                 std::vector<double>* rows) const {
    const bool object = !v.IsVehicle();
    const Vec2 vel = object ? Vec2{0.0, 0.0} : v.Velocity();
    const Vec2 dir = v.Direction();
    const Vec2 dest_dir =
        observe_intentions && !object ? v.DestinationDirection() : Vec2{0.0, 0.0};
    constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
    Vec2 ovel{}, opos{};
    if (origin != nullptr) {
      ovel = origin->Velocity();
      opos = origin->position;
    }
    for (const Feature f : config_.features) {
      double x = 0.0;
      switch (f) {
        case Feature::kPresence: x = 1; break;
        case Feature::kX: x = origin ? v.position[0] - opos[0] : v.position[0]; break;
        case Feature::kY: x = origin ? v.position[1] - opos[1] : v.position[1]; break;
        case Feature::kVx: x = origin ? vel[0] - ovel[0] : vel[0]; break;
        case Feature::kVy: x = origin ? vel[1] - ovel[1] : vel[1]; break;
        case Feature::kHeading: x = object ? kMissing : v.heading; break;
        case Feature::kCosH: x = dir[0]; break;
        case Feature::kSinH: x = dir[1]; break;
        case Feature::kCosD: x = dest_dir[0]; break;
        case Feature::kSinD: x = dest_dir[1]; break;
        case Feature::kLongOff:
        case Feature::kLatOff:
        case Feature::kAngOff: {  // lane_offset: the lane's (long, lat, local_angle)
          if (object) {
            x = kMissing;
            break;
          }
          const Vec2 sl = v.lane().LocalCoordinates(v.position);
          x = f == Feature::kLongOff   ? sl[0]
              : f == Feature::kLatOff ? sl[1]
                                      : v.lane().LocalAngle(v.heading, sl[0]);
          break;
        }
      }
      rows->push_back(x);
    }
  }

  KinematicsConfig config_;
  bool ranges_set_ = false;
  Range x_{}, y_{}, vx_{}, vy_{};
};

}  // namespace envpool::highway

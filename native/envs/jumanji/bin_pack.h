// BinPack-v2: jumanji 1.1.2's environments/packing/bin_pack (RandomGenerator(max_num_items=20,
// max_num_ems=40, split_num_same_items=2) in a twenty-foot container of 5870 x 2330 x 2200
// mm, obs_num_ems=40, normalize_dimensions=True, DenseReward).
//
// Reset (RandomGenerator): `key, split_key = split(key)`; the container is cut into items
// (20 slots, slot 0 the whole container, the others free) while fewer than 20 - 2 + 1 slots
// are in use: `key, sub = split(key)`, `axis_key, axis_split_key = split(sub)`, axis =
// randint(axis_key, (), 0, 3) (x, y, z), and `item_key, split_key, mode_key =
// split(axis_split_key, 3)`: the item to cut is choice(item_key, 20, p=the slots' lengths
// along the axis, 0 for free slots) (jax_random::ChoiceWeighted; the float32 running sum is
// exact, lengths being integers below 2**24 in total). With uniform(mode_key) < 0.7 it is cut
// once: at randint(split_key, (), a1 + e, a2 - e) with e = int32(0.3f * float32(a2 - a1)),
// the upper part going to the first free slot; otherwise into n = randint(split_key, (), 1,
// 3) equal parts, part i spanning a1 + int32(float32(i * len) / n) .. a1 + int32(float32((i +
// 1) * len) / n), parts 1 .. n - 1 to the first free slots. Then every slot whose space is
// empty (a side <= 0) is freed. The items are the slots' sides (free slots keep theirs),
// items_mask the slots in use; no item is placed and the only EMS (empty maximal space) is the
// container. The key left over is not used again (BinPack's steps draw nothing).
//
// A step (obs_ems_id, item_id) (each indexed as jax does: see Index): valid when the action
// mask says so (the mask of the observation before it). A valid action puts the item at the
// bottom corner (x1, y1, z1) of EMS sorted_ems_indexes[obs_ems_id] and updates the EMSs as
// jumanji's _update_ems does (UpdateEms below); an invalid one changes nothing. Reward
// (float32): the item's volume / the container's (float32 volumes, see Volume; a true
// division, the container being the state's), 0 when invalid. The episode ends
// (termination) after an invalid action or when no action is valid any more; BinPack has no
// time limit of its own (EnvPool's is 20 steps).
//
// Observation: the 40 EMSs of largest volume (all 40, sorted by decreasing float32 volume of
// the masked EMSs, a stable sort: ties keep the lower index first, as jnp.argsort does), each
// coordinate as float32(c) * (1 / float32(the container's side)) (see Reciprocal); ems_mask
// in that order; items (x_len, y_len, z_len) scaled alike; items_mask; items_placed;
// action_mask (40, 20): item not placed, in items_mask, EMS in ems_mask and the item fits in
// it (integer sides). Info: jumanji's extras: volume_utilization (float32: the placed items'
// float32 volumes summed in index order, as XLA's CPU backend reduces these 20 values, over
// the container's volume: a true division, as the reward's), packed_items (int32),
// ratio_packed_items (float32: packed / items in items_mask), active_ems (int32: EMSs in the
// mask) and invalid_action (bool).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

#include "envs/common/keywords.h"
#include "envs/jumanji/jumanji_env.h"

namespace envpool::jumanji {

class BinPack final : public JumanjiEnv {
 public:
  static constexpr int kItems = 20;     // RandomGenerator's max_num_items
  static constexpr int kEms = 40;       // max_num_ems (= obs_num_ems)
  static constexpr int kSplitSame = 2;  // split_num_same_items
  // TWENTY_FOOT_DIMS, in millimetres.
  static constexpr std::array<std::int32_t, 3> kContainer = {5870, 2330, 2200};

  struct Params {
    static Keywords<Params> Keys() { return Keywords<Params>(); }
    explicit Params(const Config& c) { Keys().Read(c, *this); }
  };
  static Config Defaults() { return Params::Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& /*params*/) {
    EnvSpec spec;
    spec.obs_layout = ObsLayout::kDict;
    for (const char* name : {"x1", "x2", "y1", "y2", "z1", "z2"}) {
      spec.obs.push_back(
          BoxSpec(std::string("ems:") + name, DType::kFloat32, {kEms}, {0.0}, {1.0}));
    }
    spec.obs.push_back(BoxSpec("ems_mask", DType::kBool, {kEms}));
    for (const char* name : {"x_len", "y_len", "z_len"}) {
      spec.obs.push_back(
          BoxSpec(std::string("items:") + name, DType::kFloat32, {kItems}, {0.0}, {1.0}));
    }
    spec.obs.push_back(BoxSpec("items_mask", DType::kBool, {kItems}));
    spec.obs.push_back(BoxSpec("items_placed", DType::kBool, {kItems}));
    spec.obs.push_back(BoxSpec("action_mask", DType::kBool, {kEms, kItems}));
    spec.info.push_back(BoxSpec("volume_utilization", DType::kFloat32, {}));
    spec.info.push_back(BoxSpec("packed_items", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("ratio_packed_items", DType::kFloat32, {}));
    spec.info.push_back(BoxSpec("active_ems", DType::kInt32, {}));
    spec.info.push_back(BoxSpec("invalid_action", DType::kBool, {}));
    spec.action = BoxSpec("action", DType::kInt32, {2}, {0.0}, {kEms - 1.0, kItems - 1.0});
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  explicit BinPack(const Params& /*params*/) {}
  static FrameSize RenderSize(const Params& /*params*/, int width, int height, int camera_id) {
    return JumanjiFrame(width, height, camera_id);
  }

  void Reset(Rng& /*rng*/) override {
    Generate(ResetKey());
    ems_.fill(Box{});
    ems_[0] = Box{{0, 0, 0}, kContainer};
    ems_mask_.fill(false);
    ems_mask_[0] = true;
    placed_.fill(false);
    location_.fill({0, 0, 0});
    invalid_action_ = false;
    Observe();
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const std::int32_t* a = action.As<std::int32_t>();
    const int obs_ems = Index(a[0], kEms);
    const int item = Index(a[1], kItems);
    const bool valid = action_mask_[obs_ems][item];
    if (valid) {
      const Box& ems = ems_[static_cast<std::size_t>(sorted_[obs_ems])];
      location_[item] = ems.low;
      placed_[item] = true;
      UpdateEms(item);
    }
    Observe();
    bool any = false;
    for (const auto& row : action_mask_) {
      for (bool m : row) any = any || m;
    }
    invalid_action_ = !valid;
    // DenseReward: the item's volume over the container's, 0 for an invalid action.
    const float reward = valid ? Volume(ItemSides(item)) / Volume(kContainer) : 0.0F;
    return Outcome(reward, (!any || !valid) ? StepType::kTermination : StepType::kMid);
  }

  void Write(const Slot& slot) const override {
    for (int c = 0; c < 6; ++c) {
      float* out = slot.Obs<float>(c);
      const int axis = c / 2;
      const float scale = Reciprocal(axis);
      for (int e = 0; e < kEms; ++e) {
        const Box& ems = ems_[static_cast<std::size_t>(sorted_[e])];
        out[e] = static_cast<float>(c % 2 == 0 ? ems.low[axis] : ems.high[axis]) * scale;
      }
    }
    bool* ems_mask = slot.Obs<bool>(6);
    for (int e = 0; e < kEms; ++e) ems_mask[e] = ems_mask_[sorted_[e]];
    for (int axis = 0; axis < 3; ++axis) {
      float* out = slot.Obs<float>(7 + axis);
      const float scale = Reciprocal(axis);
      for (int i = 0; i < kItems; ++i) out[i] = static_cast<float>(items_[i][axis]) * scale;
    }
    std::copy(items_mask_.begin(), items_mask_.end(), slot.Obs<bool>(10));
    std::copy(placed_.begin(), placed_.end(), slot.Obs<bool>(11));
    bool* mask = slot.Obs<bool>(12);
    for (int e = 0; e < kEms; ++e) {
      std::copy(action_mask_[e].begin(), action_mask_[e].end(), mask + e * kItems);
    }
    // _get_extras: the placed items' volume summed in index order (XLA's CPU loop over the
    // 20 products of volume and placed flag, one float32 rounding per addition).
    float placed_volume = 0.0F;
    int packed = 0;
    int in_mask = 0;
    for (int i = 0; i < kItems; ++i) {
      placed_volume += Volume(ItemSides(i)) * (placed_[i] ? 1.0F : 0.0F);
      packed += placed_[i] ? 1 : 0;
      in_mask += items_mask_[i] ? 1 : 0;
    }
    int active = 0;
    for (bool m : ems_mask_) active += m ? 1 : 0;
    *slot.Info<float>(0) = placed_volume / Volume(kContainer);
    *slot.Info<std::int32_t>(1) = packed;
    *slot.Info<float>(2) = static_cast<float>(packed) / static_cast<float>(in_mask);
    *slot.Info<std::int32_t>(3) = active;
    *slot.Info<bool>(4) = invalid_action_;
  }

 private:
  using Point = std::array<std::int32_t, 3>;
  // A space: its bottom corner (x1, y1, z1) and its top corner (x2, y2, z2), integers.
  struct Box {
    Point low{0, 0, 0};
    Point high{0, 0, 0};
  };

  // Space.volume / item_volume: float32 sides multiplied as (x * y) * z in float32 (jumanji
  // takes volumes as floats "to prevent overflow").
  static float Volume(const Point& sides) {
    return static_cast<float>(sides[0]) * static_cast<float>(sides[1]) *
           static_cast<float>(sides[2]);
  }
  // _normalize_ems_and_items divides by the container's side, a scalar broadcast over the
  // array: XLA's algebraic simplifier turns x / broadcast(s) into x * broadcast(1 / s), so
  // each value is float32(c) times the float32 reciprocal of float32(side).
  static float Reciprocal(int axis) { return 1.0F / static_cast<float>(kContainer[axis]); }
  static Point Sides(const Box& b) {
    return {b.high[0] - b.low[0], b.high[1] - b.low[1], b.high[2] - b.low[2]};
  }
  Point ItemSides(int i) const { return items_[static_cast<std::size_t>(i)]; }
  // Space.is_empty: a side <= 0.
  static bool Empty(const Box& b) {
    for (int k = 0; k < 3; ++k) {
      if (b.low[k] >= b.high[k]) return true;
    }
    return false;
  }
  // Space.is_included: `a` inside `b` (faces may touch).
  static bool Included(const Box& a, const Box& b) {
    for (int k = 0; k < 3; ++k) {
      if (a.low[k] < b.low[k] || a.high[k] > b.high[k]) return false;
    }
    return true;
  }
  // Space.intersect: the intersection (elementwise max of the lows, min of the highs) is
  // not empty.
  static bool Intersect(const Box& a, const Box& b) {
    for (int k = 0; k < 3; ++k) {
      if (std::max(a.low[k], b.low[k]) >= std::min(a.high[k], b.high[k])) return false;
    }
    return true;
  }
  // jax's indexing by a traced integer: a negative index counts from the end, then the
  // index is clamped to the array (an action outside the action space).
  static int Index(std::int32_t i, int n) { return std::clamp(i < 0 ? i + n : i, 0, n - 1); }
  static int FirstFree(const std::array<bool, kItems>& mask) {
    for (int i = 0; i < kItems; ++i) {
      if (!mask[i]) return i;
    }
    return 0;  // jnp.argmin of all-true flags
  }

  // RandomGenerator._generate_solved_instance / _split_container_into_items_spaces.
  void Generate(const Key& reset_key) {
    key_ = jax_random::SplitAt(reset_key, 0);     // state.key
    Key key = jax_random::SplitAt(reset_key, 1);  // `key, split_key = split(key)`
    std::array<Box, kItems> slots;
    slots.fill(Box{{0, 0, 0}, kContainer});
    std::array<bool, kItems> mask{};
    mask[0] = true;
    auto count = [&mask] { return static_cast<int>(std::count(mask.begin(), mask.end(), true)); };
    while (count() < kItems - kSplitSame + 1) {
      const Key sub = jax_random::SplitAt(key, 1);
      key = jax_random::SplitAt(key, 0);
      const Key axis_key = jax_random::SplitAt(sub, 0);
      const Key axis_split_key = jax_random::SplitAt(sub, 1);
      const int axis = jax_random::RandIntAt(axis_key, 0, 0, 3);
      const Key item_key = jax_random::SplitAt(axis_split_key, 0);
      const Key split_key = jax_random::SplitAt(axis_split_key, 1);
      const Key mode_key = jax_random::SplitAt(axis_split_key, 2);
      std::vector<float> weights(kItems);
      for (int i = 0; i < kItems; ++i) {
        weights[i] = mask[i] ? static_cast<float>(slots[i].high[axis] - slots[i].low[axis]) : 0.0F;
      }
      const int item = jax_random::ChoiceWeighted(item_key, weights);
      const Box space = slots[item];
      const std::int32_t a1 = space.low[axis];
      const std::int32_t a2 = space.high[axis];
      const std::int32_t len = a2 - a1;
      if (jax_random::UniformF32(mode_key, 0, 0.0F, 1.0F, false) < 0.7F) {
        // _split_item_once: the margins are int32(0.3f * float32(len)).
        const auto margin = static_cast<std::int32_t>(0.3F * static_cast<float>(len));
        const std::int32_t at = jax_random::RandIntAt(split_key, 0, a1 + margin, a2 - margin);
        const int free = FirstFree(mask);
        slots[free] = slots[item];
        slots[item].high[axis] = at;
        slots[free].low[axis] = at;
        mask[free] = true;
      } else {
        // _split_item_multiple_times: true divisions in float32, truncated to int32.
        const std::int32_t n = jax_random::RandIntAt(split_key, 0, 1, kSplitSame + 1);
        auto part = [&](std::int32_t i) {
          return a1 + static_cast<std::int32_t>(static_cast<float>(i * len) /
                                                static_cast<float>(n));
        };
        slots[item].high[axis] =
            a1 + static_cast<std::int32_t>(static_cast<float>(len) / static_cast<float>(n));
        for (std::int32_t i = 1; i < n; ++i) {
          const int free = FirstFree(mask);
          slots[free] = slots[item];
          slots[free].low[axis] = part(i);
          slots[free].high[axis] = part(i + 1);
          mask[free] = true;
        }
      }
      for (int i = 0; i < kItems; ++i) mask[i] = mask[i] && !Empty(slots[i]);
    }
    for (int i = 0; i < kItems; ++i) items_[i] = Sides(slots[i]);
    items_mask_ = mask;
  }

  // _make_observation_and_extras: the EMSs sorted by decreasing masked float32 volume
  // (jnp.argsort(-volumes), stable; -0.0 and 0.0 tie as XLA's sort canonicalises them), and
  // the action mask over them.
  void Observe() {
    std::array<float, kEms> volumes{};
    for (int e = 0; e < kEms; ++e) {
      volumes[e] = Volume(Sides(ems_[e])) * (ems_mask_[e] ? 1.0F : 0.0F);
    }
    std::iota(sorted_.begin(), sorted_.end(), 0);
    std::stable_sort(sorted_.begin(), sorted_.end(),
                     [&volumes](int a, int b) { return -volumes[a] < -volumes[b]; });
    for (int e = 0; e < kEms; ++e) {
      const int k = sorted_[e];
      const Point room = Sides(ems_[k]);
      for (int i = 0; i < kItems; ++i) {
        const Point& item = items_[i];
        action_mask_[e][i] = !placed_[i] && items_mask_[i] && ems_mask_[k] &&
                             item[0] <= room[0] && item[1] <= room[1] && item[2] <= room[2];
      }
    }
  }

  // BinPack._update_ems after placing `item`: the EMSs it meets are dropped; each one's
  // parts on the six sides of the item (x lower, x upper, y lower, y upper, z lower, z
  // upper: the EMS cut by the item's face plane) are the candidates of that side, kept when
  // not empty and from a dropped EMS. A candidate strictly inside (included, not equal)
  // another kept candidate of any side is dropped, in jumanji's order (_get_intersections_dict:
  // for each side d in turn, for each side a in turn, d's candidates inside a's; d's flags
  // as they stood when d's turn began, a's as they stand now; a candidate is not compared
  // with itself). Then side by side, candidate by candidate, each kept one not included in
  // an EMS of the mask (as it grows) takes the first free EMS slot (jnp.argmin of the mask:
  // slot 0 when none is free).
  void UpdateEms(int item) {
    const Point& sides = items_[item];
    const Point& at = location_[item];
    const Box placed{at, {at[0] + sides[0], at[1] + sides[1], at[2] + sides[2]}};
    std::array<bool, kEms> kept{};
    for (int e = 0; e < kEms; ++e) kept[e] = !Intersect(placed, ems_[e]) && ems_mask_[e];
    std::array<std::array<Box, kEms>, 6> cut;
    std::array<std::array<bool, kEms>, 6> flag{};
    for (int d = 0; d < 6; ++d) {
      const int axis = d / 2;
      for (int e = 0; e < kEms; ++e) {
        Box b = ems_[e];
        if (d % 2 == 0) {
          b.high[axis] = std::min(placed.low[axis], b.high[axis]);
        } else {
          b.low[axis] = std::max(placed.high[axis], b.low[axis]);
        }
        cut[d][e] = b;
        flag[d][e] = ems_mask_[e] && !Empty(b) && !(Included(b, ems_[e]) && kept[e]);
      }
    }
    for (int d = 0; d < 6; ++d) {
      const std::array<bool, kEms> mine = flag[d];  // d's flags when its turn began
      for (int a = 0; a < 6; ++a) {
        const std::array<bool, kEms> theirs = flag[a];
        std::array<bool, kEms> remove{};
        for (int i = 0; i < kEms; ++i) {
          if (!mine[i]) continue;
          for (int j = 0; j < kEms && !remove[i]; ++j) {
            if (!theirs[j] || (d == a && i == j)) continue;
            remove[i] = Included(cut[d][i], cut[a][j]) && !Included(cut[a][j], cut[d][i]);
          }
        }
        for (int i = 0; i < kEms; ++i) flag[d][i] = flag[d][i] && !remove[i];
      }
    }
    ems_mask_ = kept;
    for (int d = 0; d < 6; ++d) {
      for (int i = 0; i < kEms; ++i) {
        if (!flag[d][i]) continue;
        bool inside = false;
        for (int e = 0; e < kEms && !inside; ++e) {
          inside = ems_mask_[e] && Included(cut[d][i], ems_[e]);
        }
        if (inside) continue;
        int slot = 0;
        while (slot < kEms && ems_mask_[slot]) ++slot;
        if (slot == kEms) slot = 0;
        ems_[slot] = cut[d][i];
        ems_mask_[slot] = true;
      }
    }
  }

  // jumanji's State, its fields in sorted order (chex dataclasses flatten so, the Spaces'
  // too: x1, x2, y1, y2, z1, z2); items (x_len, y_len, z_len) and items_location (x, y, z)
  // are NamedTuples of arrays; the EMSs in their slots (the observation's are sorted).
  void WriteState(StateLeaves& out) const override {
    out.AddRows(action_mask_, {kEms, kItems});
    for (int axis = 0; axis < 3; ++axis) out.Scalar(0).Scalar(kContainer[axis]);
    std::array<std::int32_t, kEms> coord{};
    for (int c = 0; c < 6; ++c) {
      for (int e = 0; e < kEms; ++e) coord[e] = c % 2 == 0 ? ems_[e].low[c / 2] : ems_[e].high[c / 2];
      out.Add(coord, {kEms});
    }
    out.Add(ems_mask_, {kEms});
    std::array<std::int32_t, kItems> item{};
    for (const auto* points : {&items_, &location_}) {
      for (int axis = 0; axis < 3; ++axis) {
        for (int i = 0; i < kItems; ++i) item[i] = (*points)[i][axis];
        out.Add(item, {kItems});
      }
    }
    out.Add(items_mask_, {kItems}).Add(placed_, {kItems}).KeyLeaf(key_);
    out.Add(sorted_, {kEms});
  }

  std::array<Point, kItems> items_{};
  std::array<bool, kItems> items_mask_{};
  std::array<bool, kItems> placed_{};
  std::array<Point, kItems> location_{};
  std::array<Box, kEms> ems_{};
  std::array<bool, kEms> ems_mask_{};
  std::array<int, kEms> sorted_{};
  std::array<std::array<bool, kItems>, kEms> action_mask_{};
  bool invalid_action_ = false;
  Key key_{};  // the generator's key left over (BinPack's steps draw nothing)
};

}  // namespace envpool::jumanji

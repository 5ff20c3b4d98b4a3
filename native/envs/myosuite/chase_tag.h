// MyoChallenge 2023's locomotion track, chase tag (myosuite 2.12.2,
// envs/myo/myochallenge/chasetag_v0.py: ChaseTagEnvV0, a WalkEnvV0), on the legs model
// envs/myo/assets/leg/myolegs_chasetag.xml with a mocap opponent (chase_tag_opponent.h).
// ChaseTagEnvV0 replaces WalkEnvV0's observation, reward and reset; what it keeps of it
// (the muscle terms of the observation, the keyframe reset, the hidden terrain) is restated
// here on MyoEnv rather than through walk.h's WalkBase, whose defaults are the walk's.
//
// What the package does, restated:
//   - Construction (gym.make(id, seed=s)): np_random seeded; the terrain's construction
//     (terrain "random": ChaseTagField, which populates its patches: draws); the opponent's
//     construction (chase_tag_opponent.h: the noise buffer's draws, a policy for the player's
//     CHASE, a pose away from body "root" at the model's initial state, a chase velocity);
//     then MujocoEnv._setup's step with zero actions, whose opponent move (from the initial
//     state's pelvis) is what it leaves behind: the opponent's velocity (seen by the first
//     reset's observation), its noise buffer's position, and any draw a repeller makes. A
//     reset starts everything else anew. init_qpos is keyframe 0, init_qvel 0; the geom
//     "terrain" is hidden at (0, 0, -10) until a reset.
//   - Reset: (1) the terrain: FLAT hides it; "random" populates its patches (below) and shows
//     it at (0, 0, 0). (2) The task: CHASE or EVADE, or np_random.choice((CHASE, EVADE)) for
//     "random". (3) The start: reset_type "init" keyframe 2, "random" keyframe 2 or 3
//     (uniform() < 0.5 picks 2) plus normal(0, 0.02) on every qpos number but qpos[2] (the
//     package keeps a view of the rotation, which the noise reaches), then x, y =
//     uniform(-5, 5, size=2), the heading uniform(0, 2 pi) replacing quat2euler's third angle
//     (euler2quat back), qvel[:2] = (cos, sin) of it times norm(qvel[:2]); else keyframe 0.
//     (4) With a terrain, the patch under the start made flat. (5) BaseV0.reset from there:
//     the observation. (6) Then the opponent's reset (for the task; a new noise buffer) and
//     mj_forward: the returned observation shows the opponent where its last move left it
//     (chase_tag_opponent.h: the robot resets its own MjData, not the env's, whose mocap body
//     this is) and the velocity of that move.
//   - Step: the opponent moves (from the previous step's state), then BaseV0.step.
//   - Observation dict (of the env's MjData after sensor2sim's mj_forward, whose solver starts
//     from a zero warmstart, with zero controls: ObservedForward): time, internal_qpos (qpos[7:35]), internal_qvel (qvel[6:34] * dt),
//     grf (sensordata of r_foot, r_toes, l_foot, l_toes), torso_angle (pelvis's xquat),
//     muscle_length, muscle_velocity (clipped to +-100), muscle_force (/ 1000, clipped to
//     +-100), act, opponent_pose (x, y, angle), opponent_vel, model_root_pos (qpos[:2]),
//     model_root_vel (qvel[:2]), task (0 CHASE, 1 EVADE). Default keys: internal_qpos,
//     internal_qvel, grf, torso_angle, opponent_pose, opponent_vel, model_root_pos,
//     model_root_vel, muscle_length, muscle_velocity, muscle_force (and act).
//   - Rewards: win and lose by task. CHASE: win when |pelvis xy - opponent xy| <= win_distance
//     (BLAS's dot norm); lose when fallen (FLAT: pelvis z < 0.5; else the head site less than
//     0.2 above the feet's (talus_l, talus_r) mean height), time >= 20 or |pelvis x| or |y| >
//     6.5. EVADE: win when time >= 20; lose when caught (the same distance test) or out of
//     bounds. sparse: the score when CHASE wins (1 - round(time, 2) / 20) or EVADE ends
//     (round(time, 2) / 20), else 0; solved: win; done: lose or win; act_reg norm(act) / na;
//     distance |qpos[:2] - opponent xy|; lose. Default weights distance -0.1, lose -1000.
//     (The package also sets obs_dict["time"] to 20 when CHASE loses; done reads it again,
//     which the loss already made true, and the observation vector was taken before.) The
//     site "opponent_indicator" turns green (0, 2, 0, 0.2) when solved, red (2, 0, 0, 0)
//     otherwise.
//   - ChaseTagField (the "random" terrain, 100 x 100 heightfield of 12 m x 12 m, 3 x 3
//     patches of 33 x 33): each patch's type np_random.choice((FLAT, HILLY, ROUGH)), redrawn
//     while HILLY and two HILLY patches are there; its data, in order: FLAT 0; ROUGH
//     uniform(-1, 1, (33, 33)) normalized by its min and max, times uniform(rough_range),
//     minus 0.02; HILLY uniform(hills_range) s, then sin(linspace(0, 10 pi, 1089) + pi / 2) - 1
//     normalized, times s, flipped over both axes, rotated by np.rot90 when uniform() < 0.5.
//     Then when uniform() < 0.2, the patch (integers(0, 3, size=2)) becomes the relief
//     (myo_relief.npy normalized, flipped up-down, times uniform(relief_range)). Stored into
//     the float32 heightfield. The agent's patch: cart2map's int16 of x / 0.12 + 50 (and y),
//     clipped to [0, 98], // 33.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/numpy_normal.h"
#include "envs/common/rotations.h"
#include "envs/myosuite/chase_tag_opponent.h"
#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/walk.h"

namespace envpool::myosuite {

// ChaseTagField: the "random" terrain's patches.
class ChaseTagField {
 public:
  ChaseTagField() = default;
  ChaseTagField(mjModel* mw, int hfield, Range rough, Range hills, Range relief,
                std::vector<double> relief_data)
      : rough_(rough), hills_(hills), relief_(relief), relief_data_(std::move(relief_data)) {
    nrow_ = mw->hfield_nrow[hfield];
    ncol_ = mw->hfield_ncol[hfield];
    data_ = mw->hfield_data + mw->hfield_adr[hfield];
    patch_ = nrow_ / kPatches;
    if (nrow_ < 2 || ncol_ < 2 || patch_ < 1 || kPatches * patch_ > ncol_) {
      throw std::invalid_argument("ChaseTag's terrain needs a square heightfield 'terrain'");
    }
    const int n = patch_ * patch_;
    if (static_cast<int>(relief_data_.size()) != n) {
      throw std::invalid_argument("ChaseTag's relief (myo_relief.npy, the _relief keyword) must "
                                  "have " + std::to_string(n) + " numbers");
    }
    // sin(linspace(0, 10 pi, n) + pi / 2) - 1, normalized by its min and max.
    const double stop = 10 * M_PI;
    const double step = (stop - 0.0) / (n - 1);
    hill_.resize(n);
    for (int i = 0; i < n; ++i) {
      const double x = i == n - 1 ? stop : static_cast<double>(i) * step + 0.0;
      hill_[i] = std::sin(x + M_PI / 2) - 1;
    }
    Normalize(hill_);
    Normalize(relief_data_);
  }

  // _populate_patches.
  void Populate(NumpyGenerator& rng) {
    int generated[3] = {0, 0, 0};
    for (int i = 0; i < kPatches; ++i) {
      for (int j = 0; j < kPatches; ++j) {
        int type = static_cast<int>(rng.Integers(0, 3));
        while (type == kHilly && generated[kHilly] >= 2) type = static_cast<int>(rng.Integers(0, 3));
        generated[type] += 1;
        Fill(i, j, PatchData(type, rng));
      }
    }
    if (rng.NextDouble() < 0.2) {
      const int i = static_cast<int>(rng.Integers(0, kPatches));
      const int j = static_cast<int>(rng.Integers(0, kPatches));
      Fill(i, j, Relief(rng));
    }
  }

  // flatten_agent_patch(qpos).
  void FlattenAgentPatch(double x, double y) {
    const int i = MapIndex(x, nrow_) / patch_;
    const int j = MapIndex(y, ncol_) / patch_;
    Fill(i, j, std::vector<double>(patch_ * patch_, 0.0));
  }

 private:
  static constexpr int kPatches = 3;
  static constexpr int kFlat = 0, kHilly = 1, kRough = 2;
  static constexpr double kLength = 12.0;

  static void Normalize(std::vector<double>& x) {
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    const double low = *lo, span = *hi - *lo;
    for (double& v : x) v = (v - low) / span;
  }

  // cart2map: int16(p / (12 / n) + n / 2), clipped to [0, n - 2].
  static int MapIndex(double p, int n) {
    const double delta = kLength / n;
    const double offset = n / 2.0;
    const int index = static_cast<std::int16_t>(p / delta + offset);
    return std::min(std::max(index, 0), n - 2);
  }

  std::vector<double> PatchData(int type, NumpyGenerator& rng) const {
    const int n = patch_ * patch_;
    if (type == kRough) {
      std::vector<double> rough(n);
      for (double& v : rough) v = rng.Uniform(-1.0, 1.0);
      Normalize(rough);
      const double scalar = rng.Uniform(rough_.first, rough_.second);
      for (double& v : rough) v = v * scalar - 0.02;
      return rough;
    }
    if (type == kHilly) {
      const double scalar = rng.Uniform(hills_.first, hills_.second);
      // np.flip over both axes: the flat order reversed.
      std::vector<double> flipped(n);
      for (int k = 0; k < n; ++k) flipped[k] = hill_[n - 1 - k] * scalar;
      if (rng.NextDouble() < 0.5) {
        // np.rot90: out[r][c] = in[c][p - 1 - r].
        std::vector<double> rotated(n);
        for (int r = 0; r < patch_; ++r) {
          for (int c = 0; c < patch_; ++c) rotated[r * patch_ + c] = flipped[c * patch_ + patch_ - 1 - r];
        }
        return rotated;
      }
      return flipped;
    }
    return std::vector<double>(n, 0.0);
  }

  // _compute_relief_terrain: the normalized relief flipped up-down, times a draw.
  std::vector<double> Relief(NumpyGenerator& rng) const {
    const double scalar = rng.Uniform(relief_.first, relief_.second);
    std::vector<double> out(patch_ * patch_);
    for (int r = 0; r < patch_; ++r) {
      for (int c = 0; c < patch_; ++c) {
        out[r * patch_ + c] = relief_data_[(patch_ - 1 - r) * patch_ + c] * scalar;
      }
    }
    return out;
  }

  // _fill_patch: the patch's rows and columns of hfield.data (float32).
  void Fill(int i, int j, const std::vector<double>& patch) {
    for (int r = 0; r < patch_; ++r) {
      for (int c = 0; c < patch_; ++c) {
        data_[(i * patch_ + r) * ncol_ + j * patch_ + c] = static_cast<float>(patch[r * patch_ + c]);
      }
    }
  }

  Range rough_{0.0, 0.0}, hills_{0.0, 0.0}, relief_{0.0, 0.0};
  std::vector<double> relief_data_, hill_;
  int nrow_ = 0, ncol_ = 0, patch_ = 0;
  float* data_ = nullptr;
};

class ChaseTag final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (reset_type != "init" && reset_type != "random" && reset_type != "none") {
        throw std::invalid_argument("reset_type must be 'init', 'random' or 'none', got '" +
                                    reset_type + "'");
      }
      if (task_choice != "CHASE" && task_choice != "EVADE" && task_choice != "random") {
        throw std::invalid_argument("task_choice must be 'CHASE', 'EVADE' or 'random', got '" +
                                    task_choice + "'");
      }
      // assert_settings.
      if (!(chase_vel_range.first >= 0 && chase_vel_range.second > 0)) {
        throw std::invalid_argument("chase_vel_range must be positive");
      }
      if (repeller_opponent && repeller_vel_range.first > repeller_vel_range.second) {
        throw std::invalid_argument("repeller_vel_range must be ordered (low <= high)");
      }
      const std::size_t n = repeller_opponent ? 4 : 3;
      if (opponent_probabilities.size() != n) {
        throw std::invalid_argument(std::string("opponent_probabilities: the ") +
                                    (repeller_opponent ? "repeller" : "standard") +
                                    " opponent needs " + std::to_string(n) + " probabilities");
      }
      for (double x : opponent_probabilities) {
        if (!(0 <= x && x <= 1)) {
          throw std::invalid_argument("opponent_probabilities must lie in [0, 1]");
        }
      }
      // The standard opponent's draw past the three's sum leaves its first policy undrawn
      // (the package's AttributeError at the first move): refused here.
      const std::vector<double>& p = opponent_probabilities;
      if (!repeller_opponent && !(p[0] + p[1] + p[2] >= 1.0)) {
        throw std::invalid_argument("opponent_probabilities must sum to at least 1 for the "
                                    "standard opponent (no repeller_opponent)");
      }
      Load();
      NeedKeyframes(model.get(), 4);
    }
    std::string reset_type = "none", task_choice = "CHASE", terrain = "FLAT";
    double win_distance = 0.5, min_spawn_distance = 2.0;
    Range hills_range{0.0, 0.0}, rough_range{0.0, 0.0}, relief_range{0.0, 0.0};
    bool repeller_opponent = false;
    Range chase_vel_range{1.0, 1.0}, random_vel_range{1.0, 1.0}, repeller_vel_range{1.0, 1.0};
    std::vector<double> opponent_probabilities{0.1, 0.45, 0.45};
    std::vector<double> relief;
    std::vector<double> ziggurat_ki, ziggurat_wi, ziggurat_fi;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/leg/myolegs_chasetag.xml", 10);
    k.Add("reset_type", std::string("none"), &Params::reset_type);
    k.Add("win_distance", 0.5, &Params::win_distance);
    // Poses are drawn in [-5, 5]^2 until one is this far from the start: beyond 5 sqrt(2)
    // (the farthest corner from the square's centre) none may be.
    k.Add("min_spawn_distance", 2.0, &Params::min_spawn_distance).Above(0.0).AtMost(7.0);
    k.Add("task_choice", std::string("CHASE"), &Params::task_choice);
    k.Add("terrain", std::string("FLAT"), &Params::terrain);
    k.Add("hills_range", Range{0.0, 0.0}, &Params::hills_range);
    k.Add("rough_range", Range{0.0, 0.0}, &Params::rough_range);
    k.Add("relief_range", Range{0.0, 0.0}, &Params::relief_range);
    k.Add("repeller_opponent", false, &Params::repeller_opponent);
    k.Add("chase_vel_range", Range{1.0, 1.0}, &Params::chase_vel_range).AtLeast(0.0).Ordered();
    k.Add("random_vel_range", Range{1.0, 1.0}, &Params::random_vel_range).Ordered();
    k.Add("repeller_vel_range", Range{1.0, 1.0}, &Params::repeller_vel_range);
    k.Add("opponent_probabilities", std::vector<double>{0.1, 0.45, 0.45},
          &Params::opponent_probabilities)
        .In(0.0, 1.0);
    k.Add("_relief", std::vector<double>{}, &Params::relief);
    k.Add("_ziggurat_ki", std::vector<double>{}, &Params::ziggurat_ki);
    k.Add("_ziggurat_wi", std::vector<double>{}, &Params::ziggurat_wi);
    k.Add("_ziggurat_fi", std::vector<double>{}, &Params::ziggurat_fi);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    ChaseTag env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit ChaseTag(const Params& p)
      : MyoEnv(p,
               {"internal_qpos", "internal_qvel", "grf", "torso_angle", "opponent_pose",
                "opponent_vel", "model_root_pos", "model_root_vel", "muscle_length",
                "muscle_velocity", "muscle_force"},
               {{"distance", -0.1}, {"lose", -1000.0}}),
        reset_type_(p.reset_type),
        task_choice_(p.task_choice),
        flat_(p.terrain == "FLAT"),
        win_distance_(p.win_distance),
        dot_fma_(p.numpy_dot_fma),
        ziggurat_(NumpyZiggurat::From(p.ziggurat_ki, p.ziggurat_wi, p.ziggurat_fi)) {
    if (!ziggurat_.loaded) {
      throw std::invalid_argument("ChaseTag's opponent draws normals: it needs numpy's ziggurat "
                                  "tables (the _ziggurat_* keywords, which envpool.make passes)");
    }
    if (m_->nmocap < 1 || m_->nq < 35 || m_->nv < 34) {
      throw std::invalid_argument("ChaseTag needs the chase-tag legs model (a mocap opponent)");
    }
    // WalkEnvV0._setup and ChaseTagEnvV0._setup: keyframe 0, at rest; the terrain hidden.
    init_qpos_.assign(m_->key_qpos, m_->key_qpos + m_->nq);
    init_qvel_.assign(m_->nv, 0.0);
    HideTerrain(mw_);
    terrain_geom_ = TerrainGeom(m_);
    root_ = BodyId("root");
    pelvis_ = BodyId("pelvis");
    talus_l_ = BodyId("talus_l");
    talus_r_ = BodyId("talus_r");
    head_ = SiteId("head");
    indicator_ = SiteId("opponent_indicator");
    for (const char* name : {"r_foot", "r_toes", "l_foot", "l_toes"}) {
      const int s = mj_name2id(m_, mjOBJ_SENSOR, name);
      if (s < 0) throw std::invalid_argument(std::string("the model has no sensor '") + name + "'");
      grf_.push_back(m_->sensor_adr[s]);
    }
    if (!flat_) {
      const int h = m_->geom_dataid[terrain_geom_];
      if (m_->geom_type[terrain_geom_] != mjGEOM_HFIELD || h < 0) {
        throw std::invalid_argument("the geom 'terrain' must be a heightfield");
      }
      std::vector<double> relief = p.relief;
      field_ = ChaseTagField(mw_, h, p.rough_range, p.hills_range, p.relief_range, relief);
    }
    ChaseTagOpponent::Settings s;
    s.repeller = p.repeller_opponent;
    s.probabilities = p.opponent_probabilities;
    s.min_spawn_distance = p.min_spawn_distance;
    s.chase_vel = p.chase_vel_range;
    s.random_vel = p.random_vel_range;
    s.repeller_vel = p.repeller_vel_range;
    // opponent.dt = timestep * frame_skip (the constructor's 0.01 before: the same here).
    s.dt = dt_;
    s.dot_fma = p.numpy_dot_fma;
    opponent_ = ChaseTagOpponent(std::move(s), ziggurat_);
  }

  // A new env: the construction's draws (terrain, opponent) and its step's opponent move.
  void Seed(std::uint64_t seed) override {
    MyoEnv::Seed(seed);
    mj_resetData(m_, d_);
    mj_forward(m_, d_);
    if (!flat_) field_.Populate(np_random_);
    chase_ = true;
    opponent_.ResetMocap(m_);
    opponent_.Construct(np_random_, d_->xpos + 3 * root_);
    // The construction step moves it with the constructor's dt (0.01); _setup then sets
    // timestep * frame_skip.
    opponent_.SetDt(0.01);
    opponent_.Update(np_random_, d_->xpos + 3 * pelvis_);
    opponent_.SetDt(dt_);
    opponent_.WriteMocap(d_);
  }

 protected:
  void ResetTask() override {
    // _maybe_sample_terrain.
    if (flat_) {
      HideTerrain(mw_);
    } else {
      field_.Populate(np_random_);
      mw_->geom_rgba[4 * terrain_geom_ + 3] = 1.0F;
      for (int k = 0; k < 3; ++k) mw_->geom_pos[3 * terrain_geom_ + k] = 0.0;
    }
    // _sample_task.
    if (task_choice_ == "random") {
      chase_ = np_random_.Integers(0, 2) == 0;
    } else {
      chase_ = task_choice_ == "CHASE";
    }
    // _get_reset_state.
    int key = 0;
    const bool random = reset_type_ == "random";
    if (random) {
      key = np_random_.NextDouble() < 0.5 ? 2 : 3;
    } else if (reset_type_ == "init") {
      key = 2;
    }
    std::vector<double> qpos(m_->key_qpos + key * m_->nq, m_->key_qpos + (key + 1) * m_->nq);
    std::vector<double> qvel(m_->key_qvel + key * m_->nv, m_->key_qvel + (key + 1) * m_->nv);
    if (random) {
      std::vector<double> noise(m_->nq);
      for (double& x : noise) x = ziggurat_.Normal(np_random_, 0.0, 0.02);
      for (int i = 0; i < m_->nq; ++i) {
        if (i != 2) qpos[i] = qpos[i] + noise[i];
      }
      // _randomize_position_orientation.
      qpos[0] = np_random_.Uniform(-5.0, 5.0);
      qpos[1] = np_random_.Uniform(-5.0, 5.0);
      const double orientation = np_random_.Uniform(0.0, 2 * M_PI);
      rotations::Vec3 euler =
          rotations::Quat2Euler({qpos[3], qpos[4], qpos[5], qpos[6]});
      euler[2] = orientation;
      const rotations::Quat q = rotations::Euler2Quat(euler);
      for (int k = 0; k < 4; ++k) qpos[3 + k] = q[k];
      const double speed = std::sqrt(NumpyBlas::Sum(qvel.data(), qvel.data(), 2, dot_fma_));
      qvel[0] = std::cos(orientation) * speed;
      qvel[1] = std::sin(orientation) * speed;
    }
    // _maybe_flatten_agent_patch.
    if (!flat_) field_.FlattenAgentPatch(qpos[0], qpos[1]);
    SetResetQpos(std::move(qpos));
    SetResetQvel(std::move(qvel));
  }

  // After BaseV0.reset's observation: the opponent's reset, then mj_forward.
  void AfterReset() override {
    opponent_.Reset(chase_, np_random_, d_->xpos + 3 * root_);
    opponent_.WriteMocap(d_);
    mj_forward(m_, d_);
  }

  // ChaseTagEnvV0.step: the opponent moves first.
  void TaskAction(std::vector<double>& /*a*/, bool& /*float64*/) override {
    opponent_.Update(np_random_, d_->xpos + 3 * pelvis_);
    opponent_.WriteMocap(d_);
  }

  void ObsDict(TermDict& obs) override {
    ObservedForward();
    obs["time"].assign(1, d_->time);
    obs["internal_qpos"].assign(d_->qpos + 7, d_->qpos + 35);
    std::vector<double>& qvel = obs["internal_qvel"];
    qvel.resize(28);
    for (int i = 0; i < 28; ++i) qvel[i] = d_->qvel[6 + i] * dt_;
    std::vector<double>& grf = obs["grf"];
    grf.resize(grf_.size());
    for (std::size_t i = 0; i < grf_.size(); ++i) grf[i] = d_->sensordata[grf_[i]];
    obs["torso_angle"].assign(d_->xquat + 4 * pelvis_, d_->xquat + 4 * pelvis_ + 4);
    obs["muscle_length"].assign(d_->actuator_length, d_->actuator_length + m_->nu);
    std::vector<double>& velocity = obs["muscle_velocity"];
    std::vector<double>& force = obs["muscle_force"];
    velocity.resize(m_->nu);
    force.resize(m_->nu);
    for (int i = 0; i < m_->nu; ++i) {
      velocity[i] = NumpyClip(d_->actuator_velocity[i], -100.0, 100.0);
      force[i] = NumpyClip(d_->actuator_force[i] / 1000.0, -100.0, 100.0);
    }
    if (m_->na > 0) obs["act"].assign(d_->act, d_->act + m_->na);
    const std::array<double, 3> pose = opponent_.Pose();
    obs["opponent_pose"].assign(pose.begin(), pose.end());
    const std::array<double, 2>& vel = opponent_.Velocity();
    obs["opponent_vel"].assign(vel.begin(), vel.end());
    obs["model_root_pos"].assign(d_->qpos, d_->qpos + 2);
    obs["model_root_vel"].assign(d_->qvel, d_->qvel + 2);
    obs["task"].assign(1, chase_ ? 0.0 : 1.0);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const double time = obs.Scalar("time");
    const std::vector<double>& opponent = obs.At("opponent_pose");
    const bool win = Win(time, opponent);
    const bool lose = Lose(time, opponent);
    double score = 0.0;
    if (chase_ ? win : (win || lose)) score = Score(time);
    const std::vector<double>& root = obs.At("model_root_pos");
    const double diff[2] = {root[0] - opponent[0], root[1] - opponent[1]};
    const double distance = std::sqrt(NumpyBlas::Sum(diff, diff, 2, dot_fma_));
    rwd.Set("act_reg", act_mag);
    rwd.Set("distance", distance);
    rwd.Set("lose", lose ? 1.0 : 0.0);
    rwd.Set("sparse", score);
    rwd.Set("solved", win ? 1.0 : 0.0);
    rwd.Set("done", lose || win ? 1.0 : 0.0);
    // The success indicator's color.
    const float green[4] = {0.0F, 2.0F, 0.0F, 0.2F}, red[4] = {2.0F, 0.0F, 0.0F, 0.0F};
    std::copy(win ? green : red, (win ? green : red) + 4, mw_->site_rgba + 4 * indicator_);
  }

 private:
  // The package observes the env's own MjData, into which Robot.sensor2sim copies the robot's
  // state (time, qpos, qvel, act) before an mj_forward; the robot steps its own MjData, so
  // the env's is never stepped and its constraint solver always starts from a zero warmstart
  // (qacc_warmstart stays 0), and its controls are never set (0). The contact forces the
  // foot sensors (grf) read are that solve's: the forward again from a zero warmstart and
  // zero controls, the physics' warmstart and controls kept for its next step.
  void ObservedForward() {
    warmstart_.assign(d_->qacc_warmstart, d_->qacc_warmstart + m_->nv);
    ctrl_.assign(d_->ctrl, d_->ctrl + m_->nu);
    std::fill(d_->qacc_warmstart, d_->qacc_warmstart + m_->nv, 0.0);
    std::fill(d_->ctrl, d_->ctrl + m_->nu, 0.0);
    mj_forward(m_, d_);
    std::copy(warmstart_.begin(), warmstart_.end(), d_->qacc_warmstart);
    std::copy(ctrl_.begin(), ctrl_.end(), d_->ctrl);
  }

  // |pelvis xy - opponent xy| <= win_distance.
  bool Caught(const std::vector<double>& opponent) const {
    const double* pelvis = d_->xpos + 3 * pelvis_;
    const double diff[2] = {pelvis[0] - opponent[0], pelvis[1] - opponent[1]};
    return std::sqrt(NumpyBlas::Sum(diff, diff, 2, dot_fma_)) <= win_distance_;
  }
  bool OutOfBounds() const {
    const double* pelvis = d_->xpos + 3 * pelvis_;
    return std::fabs(pelvis[0]) > 6.5 || std::fabs(pelvis[1]) > 6.5;
  }
  // _get_fallen_condition.
  bool Fallen() const {
    if (flat_) return d_->xpos[3 * pelvis_ + 2] < 0.5;
    const double mean = (d_->xpos[3 * talus_l_ + 2] + d_->xpos[3 * talus_r_ + 2]) / 2;
    return d_->site_xpos[3 * head_ + 2] - mean < 0.2;
  }
  bool Win(double time, const std::vector<double>& opponent) const {
    return chase_ ? Caught(opponent) : time >= kMaxTime;
  }
  bool Lose(double time, const std::vector<double>& opponent) const {
    if (chase_) return Fallen() || time >= kMaxTime || OutOfBounds();
    return Caught(opponent) || OutOfBounds();
  }
  // _get_score: np.round(time, 2) (rint(time * 100) / 100), then over maxTime.
  double Score(double time) const {
    const double t = std::nearbyint(time * 100.0) / 100.0;
    return chase_ ? 1 - (t / kMaxTime) : t / kMaxTime;
  }

  static constexpr double kMaxTime = 20;

  std::string reset_type_, task_choice_;
  bool flat_;
  double win_distance_;
  bool dot_fma_;
  NumpyZiggurat ziggurat_;
  ChaseTagField field_;
  ChaseTagOpponent opponent_;
  bool chase_ = true;
  int terrain_geom_ = -1, root_ = -1, pelvis_ = -1, talus_l_ = -1, talus_r_ = -1;
  int head_ = -1, indicator_ = -1;
  std::vector<int> grf_;
  std::vector<double> warmstart_, ctrl_;
};

}  // namespace envpool::myosuite

// MyoChallenge 2024's prosthesis running track (envs/myo/myochallenge/run_track_v0.py:
// RunTrack, with envs/heightfields.py's TrackField, of myosuite 2.12.2): the legs model with
// an Open Source Leg on the right (envs/myo/assets/leg/myoosl_runtrack.xml) runs along a
// 120 m track towards -y; ids myoChallengeOslRunFixed-v0 (flat track) and
// myoChallengeOslRunRandom-v0 (a terrain drawn at each reset).
//
// The package's RunTrack derives from WalkEnvV0 but replaces everything of it that a step or
// a reset reaches (its observation dict, reward dict, done and reset; its reset calls
// BaseV0.reset past WalkEnvV0's), so this env derives from MyoEnv and keeps only what
// WalkEnvV0._setup leaves: the terrain geom hidden at (0, 0, -10) until the first reset.
//
// What the package does, restated:
//   - Setup: init_qpos is the keyframe "stand", init_qvel zero. The action is the na muscles
//     only (the prosthesis's two motors are driven by its controller, osl_controller.h, with
//     the total body mass np.sum(body_mass)); without normalize_act the package's action Box
//     has all nu ctrlranges, of which its step reads the first na.
//   - Step: the nu controls are a float64 array: the user's na muscle actions, then for the
//     knee and the ankle motor (osl_knee_torque_actuator, osl_ankle_torque_actuator) the
//     controller's torque after its update from the sensors (the joints osl_knee_angle_r
//     and osl_ankle_angle_r's qpos and qvel, the load -r_osl_load[1], all of the state
//     before the step): torque / gear[0], clipped to the ctrlrange, and with normalize_act
//     (ctrl - mid) / half-range. BaseV0.step then runs on the float64 array: the muscles'
//     sigmoid and the fatigue model in float64, the motors' values as they are.
//   - Reset: the heightfield's data (float32) cleared, then by `terrain`:
//       "flat": nothing more (terrain type 0);
//       "random": np_random.choice(3) picks stairs (type 3), hills (1) or rough (2) for the
//         whole track: the rows in patches of nrow // n rows (n the number of difficulties,
//         which are taken in reverse order), all patches but the last filled;
//       "random_mixed": 24 patches, each drawing its own kind (type 4);
//     stairs patch i: six flats of int(len / 6) rows at 0, h, 2h, 3h, 2h, h (h the i-th
//     difficulty, the heights summed step by step); hills patch i: sin(linspace(0, pi,
//     len * ncol)), normalized by its min and max, times the difficulty, in reverse order;
//     rough patch i: np.random.uniform(-1, 1, (len, ncol)) from numpy's GLOBAL generator
//     (see below), normalized, times np_random.uniform(0, difficulty). The terrain geom
//     visible at (0, 0, 0.005). Then the start by reset_type:
//       "random": np_random.integers(0, 3) picks keyframe k (its qpos and qvel); the
//         controller to early stance (k 0, 2) or early swing (k 1); qpos[0] =
//         np_random.uniform(-0.8 w, 0.8 w) (w = real_width), qpos[1] = start_pos + 1; then
//         the heading yaw = np_random.uniform(deg2rad(-125), deg2rad(-60)): the root's
//         quaternion to intrinsic Euler angles (quat2euler_intrinsic), the yaw replaced,
//         back (intrinsic_euler2quat); qvel[:2] = (cos yaw, sin yaw) * norm(qvel[:2]);
//       "osl_init": a row of the gait cycle (init_pose_path, the package's
//         sample_gait_cycle.csv, read when the pool is made): GaitStart;
//       "init" and any other name: keyframe 0, the controller to early stance.
//     BaseV0.reset from there (the fatigue state, Robot.reset, the observation), mj_forward;
//     then, unless reset_type is "init", the lowest of the sites r_heel_btm, r_toe_btm,
//     l_heel_btm, l_toe_btm is brought to z 0.005 (qpos[2] moved) and BaseV0.reset runs
//     again from there (the fatigue state again), whose observation the reset returns
//     (ResetReturnsFirstAttempt false).
//   - The observed sim: the package's Robot steps a MjData of its own; the env's mj_data,
//     which the observation dict, the rewards and the controller's sensors read, is another,
//     which each observation copies time, qpos, qvel and act into before its mj_forward. Its
//     controls stay 0 and its qacc_warmstart 0 (mj_forward does not write it), so its contact
//     and constraint forces (touch and force sensors, joint-limit forces) are a cold solve
//     without the motors' torques: here MyoEnv::Observed(), kept the same way.
//   - Observation dict: time, terrain (the type), internal_qpos / internal_qvel (the 17
//     biological joints' first qpos / qvel, the qvel times dt), grf (l_foot, l_toes touch
//     sensors), socket_force (r_socket_load), torso_angle (the pelvis's xquat),
//     muscle_length / muscle_velocity (clipped to +-100) / muscle_force (/ 1000, clipped to
//     +-100) of the 54 biological muscles by name, act, model_root_pos (qpos[:2]),
//     model_root_vel (qvel[:2]), hfield (the heightfield's data around the root, 100 numbers:
//     HeightmapObs). Default keys internal_qpos, internal_qvel, grf,
//     torso_angle, model_root_pos, model_root_vel, muscle_length, muscle_velocity,
//     muscle_force (and act): 260 numbers.
//   - Rewards: act_reg np.mean(act^2); pain the mean over 12 joints of
//     clip(|joint-limit force|, 0, 1000) / 1000 (efc_force of the joint-limit rows through
//     mj_mulJacTVec, at the joint's dof), summed from the first; sparse -qvel[1]; solved
//     qpos[1] < end_pos; done: solved, or lost: |qpos[0]| > real_width, qpos[1] > start_pos
//     + 2, or fallen (the head site less than 0.2 above the mean of talus_l's and
//     osl_foot_assembly's z, or below 0.2). Default weights sparse 1, solved 10.
//
// numpy's global generator: TrackField's rough patches draw from np.random (a RandomState
// over MT19937 that no one seeds), not from the env's np_random. Here each env has its own
// legacy generator seeded with the env's seed (np.random.seed(seed): the low 32 bits), so an
// env draws what the package draws in a process that calls np.random.seed(seed) before the
// env's first reset and draws nothing else from np.random (envs/common/numpy_legacy_random.h).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/common/numpy_blas.h"
#include "envs/common/numpy_legacy_random.h"
#include "envs/common/rotations.h"
#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/osl_controller.h"
#include "envs/myosuite/walk.h"

namespace envpool::myosuite {

// generate_init_lookup's phases of the gait cycle's rows: early swing below 48, late swing
// below 99, early stance below 183, late stance below 247.
inline constexpr int kGaitPhaseEnds[4] = {48, 99, 183, 247};

class OslRun final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      if (terrain != "flat" && terrain != "random" && terrain != "random_mixed") {
        throw std::invalid_argument("terrain must be 'flat', 'random' or 'random_mixed', got '" +
                                    terrain + "'");
      }
      if (!init_pose_path.empty()) ReadGaitCycle(assets_dir + "/" + init_pose_path);
      if (reset_type == "osl_init" && gait_rows == 0) {
        throw std::invalid_argument("reset_type 'osl_init' needs init_pose_path (a gait cycle)");
      }
      if (gait_rows > kGaitPhaseEnds[3]) {
        throw std::invalid_argument("the gait cycle has more rows than the package's phase "
                                    "table (247)");
      }
      for (const auto* d : {&hills_difficulties, &rough_difficulties, &stairs_difficulties}) {
        if (d->empty()) throw std::invalid_argument("the terrain difficulties must not be empty");
      }
      if (real_width <= 0) throw std::invalid_argument("real_width must be > 0");
      Load();
    }
    std::string reset_type = "init", terrain = "random";
    std::vector<double> hills_difficulties{0, 0}, rough_difficulties{0, 0},
        stairs_difficulties{0, 0};
    double real_width = 1, real_length = 120, end_pos = -15, start_pos = 14;
    int osl_param_set = 4;
    std::string init_pose_path;
    // The gait cycle's table (np.loadtxt of the CSV past its header; the header's names).
    std::vector<std::string> gait_headers;
    std::vector<double> gait_data;
    int gait_rows = 0;

   private:
    void ReadGaitCycle(const std::string& path) {
      std::ifstream file(path);
      if (!file) throw std::invalid_argument("cannot read the gait cycle " + path);
      std::string line, cell;
      // Lines end in "\r\n" (the file's) or "\n".
      const auto chomp = [](std::string& l) {
        if (!l.empty() && l.back() == '\r') l.pop_back();
      };
      std::getline(file, line);
      chomp(line);
      std::stringstream header(line);
      while (std::getline(header, cell, ',')) gait_headers.push_back(cell);
      while (std::getline(file, line)) {
        chomp(line);
        if (line.empty()) continue;
        std::stringstream row(line);
        std::size_t n = 0;
        while (std::getline(row, cell, ',')) {
          gait_data.push_back(std::strtod(cell.c_str(), nullptr));
          ++n;
        }
        if (n != gait_headers.size()) {
          throw std::invalid_argument("the gait cycle " + path + " has a row of " +
                                      std::to_string(n) + " numbers for " +
                                      std::to_string(gait_headers.size()) + " columns");
        }
        ++gait_rows;
      }
    }
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/leg/myoosl_runtrack.xml", 5);
    k.Add("reset_type", std::string("init"), &Params::reset_type);
    k.Add("terrain", std::string("random"), &Params::terrain);
    k.Add("hills_difficulties", std::vector<double>{0, 0}, &Params::hills_difficulties);
    k.Add("rough_difficulties", std::vector<double>{0, 0}, &Params::rough_difficulties);
    k.Add("stairs_difficulties", std::vector<double>{0, 0}, &Params::stairs_difficulties);
    k.Add("real_width", 1.0, &Params::real_width);
    k.Add("real_length", 120.0, &Params::real_length);
    k.Add("end_pos", -15.0, &Params::end_pos);
    k.Add("start_pos", 14.0, &Params::start_pos);
    k.Add("osl_param_set", 4, &Params::osl_param_set).AtLeast(1);
    k.Add("init_pose_path", std::string(), &Params::init_pose_path);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    OslRun env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act, env.ActionSize());
  }

  explicit OslRun(const Params& p)
      : MyoEnv(p,
               {"internal_qpos", "internal_qvel", "grf", "torso_angle", "model_root_pos",
                "model_root_vel", "muscle_length", "muscle_velocity", "muscle_force"},
               {{"sparse", 1.0}, {"solved", 10.0}}),
        reset_type_(p.reset_type),
        terrain_(p.terrain),
        real_width_(p.real_width),
        real_length_(p.real_length),
        end_pos_(p.end_pos),
        start_pos_(p.start_pos),
        dot_fma_(p.numpy_dot_fma),
        normalize_act_(p.normalize_act),
        osl_(mujoco::NumpySum(m_->body_mass, m_->nbody)) {
    // TrackField keeps the difficulties in reverse order (the heightfield's rows run against
    // the running direction).
    hills_.assign(p.hills_difficulties.rbegin(), p.hills_difficulties.rend());
    rough_.assign(p.rough_difficulties.rbegin(), p.rough_difficulties.rend());
    stairs_.assign(p.stairs_difficulties.rbegin(), p.stairs_difficulties.rend());
    if (m_->na <= 0 || m_->nkey < 3) {
      throw std::invalid_argument("OslRun needs the OSL legs model (muscles, 3 keyframes)");
    }
    const int stand = mj_name2id(m_, mjOBJ_KEY, "stand");
    if (stand < 0) throw std::invalid_argument("the model has no keyframe 'stand'");
    init_qpos_.assign(m_->key_qpos + stand * m_->nq, m_->key_qpos + (stand + 1) * m_->nq);
    init_qvel_.assign(m_->nv, 0.0);
    HideTerrain(mw_);
    geom_ = TerrainGeom(m_);
    const int h = m_->geom_dataid[geom_];
    if (m_->geom_type[geom_] != mjGEOM_HFIELD || h < 0) {
      throw std::invalid_argument("the geom 'terrain' must be a heightfield");
    }
    nrow_ = m_->hfield_nrow[h];
    ncol_ = m_->hfield_ncol[h];
    hfield_ = mw_->hfield_data + m_->hfield_adr[h];
    const int patches = terrain_ == "random_mixed" ? 24 : -1;
    for (const auto* d : {&hills_, &rough_, &stairs_}) {
      const int n = patches > 0 ? patches : static_cast<int>(d->size());
      if (nrow_ / n < 1) {
        throw std::invalid_argument("more terrain patches than the heightfield has rows");
      }
      // The patches filled index the difficulties: all but the last patch.
      if (patches > 0 && d->size() + 1 < PatchStarts(n).size()) {
        throw std::invalid_argument("terrain 'random_mixed' needs a difficulty per patch (23)");
      }
    }
    for (const char* name : kBiologicalJoints) {
      const int j = Named(mjOBJ_JOINT, "joint", name);
      bio_qpos_.push_back(m_->jnt_qposadr[j]);
      bio_dof_.push_back(m_->jnt_dofadr[j]);
    }
    for (const char* name : kPainJoints) {
      pain_dof_.push_back(m_->jnt_dofadr[Named(mjOBJ_JOINT, "joint", name)]);
    }
    for (const char* name : kBiologicalMuscles) {
      bio_act_.push_back(Named(mjOBJ_ACTUATOR, "actuator", name));
    }
    knee_act_ = Named(mjOBJ_ACTUATOR, "actuator", "osl_knee_torque_actuator");
    ankle_act_ = Named(mjOBJ_ACTUATOR, "actuator", "osl_ankle_torque_actuator");
    const int knee = Named(mjOBJ_JOINT, "joint", "osl_knee_angle_r");
    const int ankle = Named(mjOBJ_JOINT, "joint", "osl_ankle_angle_r");
    knee_qpos_ = m_->jnt_qposadr[knee];
    knee_dof_ = m_->jnt_dofadr[knee];
    ankle_qpos_ = m_->jnt_qposadr[ankle];
    ankle_dof_ = m_->jnt_dofadr[ankle];
    load_ = m_->sensor_adr[Named(mjOBJ_SENSOR, "sensor", "r_osl_load")];
    l_foot_ = m_->sensor_adr[Named(mjOBJ_SENSOR, "sensor", "l_foot")];
    l_toes_ = m_->sensor_adr[Named(mjOBJ_SENSOR, "sensor", "l_toes")];
    const int socket = Named(mjOBJ_SENSOR, "sensor", "r_socket_load");
    socket_ = m_->sensor_adr[socket];
    socket_dim_ = m_->sensor_dim[socket];
    for (const char* name : {"r_heel_btm", "r_toe_btm", "l_heel_btm", "l_toe_btm"}) {
      feet_sites_.push_back(Named(mjOBJ_SITE, "site", name));
    }
    head_ = Named(mjOBJ_SITE, "site", "head");
    talus_l_ = Named(mjOBJ_BODY, "body", "talus_l");
    osl_foot_ = Named(mjOBJ_BODY, "body", "osl_foot_assembly");
    pelvis_ = Named(mjOBJ_BODY, "body", "pelvis");
    // The action space: the na muscles in [-1, 1] with normalize_act; without, the package's
    // Box keeps all nu ctrlranges (its step reads the first na).
    SetActionSize(normalize_act_ ? m_->na : m_->nu);
    ReadGaitColumns(p);
  }

  void Seed(std::uint64_t seed) override {
    global_random_.Seed(static_cast<std::uint32_t>(seed));
    gait_qpos_ = init_qpos_;  // a new env's init_qpos
    MyoEnv::Seed(seed);
  }

 protected:
  // RunTrack.reset up to its first BaseV0.reset (the terrain, the start), or, in the second
  // pass, the start moved to the ground.
  void ResetTask() override {
    if (second_pass_) {
      SetResetQpos(adjusted_qpos_);
      SetResetQvel(adjusted_qvel_);
      return;
    }
    SampleTerrain();
    mw_->geom_rgba[4 * geom_ + 3] = 1.0F;
    mw_->geom_pos[3 * geom_ + 0] = 0.0;
    mw_->geom_pos[3 * geom_ + 1] = 0.0;
    mw_->geom_pos[3 * geom_ + 2] = 0.005;
    terrain_type_ = track_type_;
    std::vector<double> qpos, qvel;
    if (reset_type_ == "random") {
      RandomStart(qpos, qvel);
    } else if (reset_type_ == "osl_init") {
      GaitStart(qpos, qvel);
    } else {
      osl_.Reset(OslController::kEarlyStance);
      qpos.assign(m_->key_qpos, m_->key_qpos + m_->nq);
      qvel.assign(m_->key_qvel, m_->key_qvel + m_->nv);
    }
    SetResetQpos(std::move(qpos));
    SetResetQvel(std::move(qvel));
  }

  // After each BaseV0.reset (its mj_forward of the observed sim changes nothing there): after
  // the first (reset_type not "init"), adjust_model_height's start for the second.
  void AfterReset() override {
    if (second_pass_ || reset_type_ == "init") {
      second_pass_ = false;
      return;
    }
    double lowest = 100;
    for (int s : feet_sites_) {
      if (lowest > Observed()->site_xpos[3 * s + 2]) lowest = Observed()->site_xpos[3 * s + 2];
    }
    adjusted_qpos_.assign(Observed()->qpos, Observed()->qpos + m_->nq);
    adjusted_qvel_.assign(Observed()->qvel, Observed()->qvel + m_->nv);
    adjusted_qpos_[2] = adjusted_qpos_[2] + (0.005 - lowest);
    second_pass_ = true;
  }
  bool ResetAgain() const override { return second_pass_; }
  bool ResetReturnsFirstAttempt() const override { return false; }

  // _append_osl_actions: the muscles' actions, then the motors' controls from the
  // controller (float64).
  void TaskAction(std::vector<double>& a, bool& float64) override {
    std::vector<double> full(m_->nu, 0.0);
    std::copy(a.begin(), a.begin() + m_->na, full.begin());
    OslController::Sensors s;
    s.knee_angle = Observed()->qpos[knee_qpos_];
    s.knee_vel = Observed()->qvel[knee_dof_];
    s.ankle_angle = Observed()->qpos[ankle_qpos_];
    s.ankle_vel = Observed()->qvel[ankle_dof_];
    s.load = -1 * Observed()->sensordata[load_ + 1];
    osl_.Update(s);
    full[knee_act_] = MotorControl(knee_act_, osl_.KneeTorque());
    full[ankle_act_] = MotorControl(ankle_act_, osl_.AnkleTorque());
    a = std::move(full);
    float64 = true;
  }

  void ObsDict(TermDict& obs) override {
    SyncObserved();  // get_obs's sensor2sim: everything below reads the observed sim
    obs["time"].assign(1, Observed()->time);
    obs["terrain"].assign(1, static_cast<double>(terrain_type_));
    std::vector<double>& qpos = obs["internal_qpos"];
    std::vector<double>& qvel = obs["internal_qvel"];
    qpos.resize(bio_qpos_.size());
    qvel.resize(bio_dof_.size());
    for (std::size_t i = 0; i < bio_qpos_.size(); ++i) {
      qpos[i] = Observed()->qpos[bio_qpos_[i]];
      qvel[i] = Observed()->qvel[bio_dof_[i]] * dt_;
    }
    obs["grf"] = {Observed()->sensordata[l_foot_], Observed()->sensordata[l_toes_]};
    obs["socket_force"].assign(Observed()->sensordata + socket_, Observed()->sensordata + socket_ + socket_dim_);
    obs["torso_angle"].assign(Observed()->xquat + 4 * pelvis_, Observed()->xquat + 4 * pelvis_ + 4);
    std::vector<double>& length = obs["muscle_length"];
    std::vector<double>& velocity = obs["muscle_velocity"];
    std::vector<double>& force = obs["muscle_force"];
    length.resize(bio_act_.size());
    velocity.resize(bio_act_.size());
    force.resize(bio_act_.size());
    for (std::size_t i = 0; i < bio_act_.size(); ++i) {
      length[i] = Observed()->actuator_length[bio_act_[i]];
      velocity[i] = NumpyClip(Observed()->actuator_velocity[bio_act_[i]], -100.0, 100.0);
      force[i] = NumpyClip(Observed()->actuator_force[bio_act_[i]] / 1000, -100.0, 100.0);
    }
    obs["act"].assign(Observed()->act, Observed()->act + m_->na);
    obs["model_root_pos"].assign(Observed()->qpos, Observed()->qpos + 2);
    obs["model_root_vel"].assign(Observed()->qvel, Observed()->qvel + 2);
    HeightmapObs(obs["hfield"]);
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const std::vector<double>& act = obs.At("act");
    std::vector<double> sq(act.size());
    for (std::size_t i = 0; i < act.size(); ++i) sq[i] = act[i] * act[i];
    const double act_mag = Sum(sq) / static_cast<double>(sq.size());
    const double x = obs.At("model_root_pos")[0], y = obs.At("model_root_pos")[1];
    const bool win = y < end_pos_;
    const bool lose = x > real_width_ || x < -real_width_ || y > start_pos_ + 2 || Fallen();
    rwd.Set("act_reg", act_mag);
    rwd.Set("pain", Pain());
    rwd.Set("sparse", -obs.At("model_root_vel")[1]);
    rwd.Set("solved", win ? 1.0 : 0.0);
    rwd.Set("done", lose || win ? 1.0 : 0.0);
  }

 private:
  static constexpr const char* kBiologicalJoints[] = {
      "hip_adduction_l", "hip_flexion_l", "hip_rotation_l", "hip_adduction_r", "hip_flexion_r",
      "hip_rotation_r", "knee_angle_l", "knee_angle_l_beta_rotation1",
      "knee_angle_l_beta_translation1", "knee_angle_l_beta_translation2", "knee_angle_l_rotation2",
      "knee_angle_l_rotation3", "knee_angle_l_translation1", "knee_angle_l_translation2",
      "mtp_angle_l", "ankle_angle_l", "subtalar_angle_l"};
  static constexpr const char* kPainJoints[] = {
      "hip_adduction_l", "hip_adduction_r", "hip_flexion_l", "hip_flexion_r",
      "hip_rotation_l", "hip_rotation_r", "knee_angle_l", "knee_angle_l_rotation2",
      "knee_angle_l_rotation3", "mtp_angle_l", "ankle_angle_l", "subtalar_angle_l"};
  static constexpr const char* kBiologicalMuscles[] = {
      "addbrev_l", "addbrev_r", "addlong_l", "addlong_r", "addmagDist_l", "addmagIsch_l",
      "addmagMid_l", "addmagProx_l", "bflh_l", "bfsh_l", "edl_l", "ehl_l", "fdl_l", "fhl_l",
      "gaslat_l", "gasmed_l", "glmax1_l", "glmax1_r", "glmax2_l", "glmax2_r", "glmax3_l",
      "glmax3_r", "glmed1_l", "glmed1_r", "glmed2_l", "glmed2_r", "glmed3_l", "glmed3_r",
      "glmin1_l", "glmin1_r", "glmin2_l", "glmin2_r", "glmin3_l", "glmin3_r", "grac_l",
      "iliacus_l", "iliacus_r", "perbrev_l", "perlong_l", "piri_l", "piri_r", "psoas_l",
      "psoas_r", "recfem_l", "sart_l", "semimem_l", "semiten_l", "soleus_l", "tfl_l",
      "tibant_l", "tibpost_l", "vasint_l", "vaslat_l", "vasmed_l"};
  static constexpr double kPi = 3.141592653589793;
  // _init_height_points' coordinates.
  static constexpr double kGrid[10] = {-0.4, -0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5};

  int Named(mjtObj type, const char* what, const char* name) const {
    const int id = mj_name2id(m_, type, name);
    if (id < 0) {
      throw std::invalid_argument(std::string("the model has no ") + what + " '" + name + "'");
    }
    return id;
  }

  // initializeFromData's columns: the pelvis's Euler angles and velocity by name, the feet's
  // relative positions unused, every other column a joint's first qpos number.
  void ReadGaitColumns(const Params& p) {
    gait_data_ = p.gait_data;
    gait_rows_ = p.gait_rows;
    gait_cols_ = static_cast<int>(p.gait_headers.size());
    gait_qpos_ = init_qpos_;
    if (gait_rows_ == 0) return;
    const char* const skipped[] = {"l_foot_relative_X", "l_foot_relative_Y", "l_foot_relative_Z",
                                   "r_foot_relative_X", "r_foot_relative_Y", "r_foot_relative_Z"};
    for (int c = 0; c < gait_cols_; ++c) {
      const std::string& name = p.gait_headers[c];
      if (name == "pelvis_euler_roll") {
        gait_roll_ = c;
      } else if (name == "pelvis_euler_pitch") {
        gait_pitch_ = c;
      } else if (name == "pelvis_euler_yaw") {
        gait_yaw_ = c;
      } else if (name == "pelvis_vel_X" || name == "pelvis_vel_Y" || name == "pelvis_vel_Z") {
        gait_vel_[name.back() - 'X'] = c;
      } else if (std::find(std::begin(skipped), std::end(skipped), name) == std::end(skipped)) {
        gait_joints_.emplace_back(c, m_->jnt_qposadr[Named(mjOBJ_JOINT, "joint", name.c_str())]);
      }
    }
    if (gait_roll_ < 0 || gait_pitch_ < 0 || gait_yaw_ < 0 || gait_vel_[0] < 0 ||
        gait_vel_[1] < 0 || gait_vel_[2] < 0) {
      throw std::invalid_argument("the gait cycle lacks the pelvis's Euler angles or velocity");
    }
  }

  // np.arange(0, nrow, nrow // n).
  std::vector<int> PatchStarts(int n) const {
    std::vector<int> starts;
    const int step = nrow_ / n;
    for (int r = 0; r < nrow_; r += step) starts.push_back(r);
    return starts;
  }

  // The motor's control: torque / gear, clipped to the ctrlrange, normalized if asked.
  double MotorControl(int act, double torque) const {
    const double lo = m_->actuator_ctrlrange[2 * act], hi = m_->actuator_ctrlrange[2 * act + 1];
    // gear[0] (six numbers an actuator).
    double ctrl = NumpyClip(torque / m_->actuator_gear[6 * act], lo, hi);
    if (normalize_act_) {
      const double mean = (lo + hi) / 2.0, range = (hi - lo) / 2.0;
      ctrl = (ctrl - mean) / range;
    }
    return ctrl;
  }

  // TrackField.sample: the data cleared, then filled by `terrain`.
  void SampleTerrain() {
    std::fill(hfield_, hfield_ + nrow_ * ncol_, 0.0F);
    if (terrain_ == "flat") {
      track_type_ = 0;
      return;
    }
    // [stairs, hills, rough], as _fill_terrain lists them; their track types.
    static constexpr int kTypes[] = {3, 1, 2};
    if (terrain_ == "random") {
      const int kind = static_cast<int>(np_random_.Integers(0, 3));
      track_type_ = kTypes[kind];
      const std::vector<double>& d = kind == 0 ? stairs_ : (kind == 1 ? hills_ : rough_);
      const std::vector<int> starts = PatchStarts(static_cast<int>(d.size()));
      for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
        FillPatch(kind, starts[i], starts[i + 1], static_cast<int>(i));
      }
    } else {
      track_type_ = 4;
      const std::vector<int> starts = PatchStarts(24);
      for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
        const int kind = static_cast<int>(np_random_.Integers(0, 3));
        FillPatch(kind, starts[i], starts[i + 1], static_cast<int>(i));
      }
    }
  }

  void FillPatch(int kind, int start, int end, int i) {
    const int length = end - start;
    float* rows = hfield_ + start * ncol_;
    if (kind == 0) {
      // _compute_stairs_track: 6 flats of int(length / 6) rows.
      const double h = stairs_[i];
      const int flat = length / 6;
      double height = 0;
      for (int j = 0; j < 6; ++j) {
        std::fill(rows + j * flat * ncol_, rows + (j + 1) * flat * ncol_,
                  static_cast<float>(height));
        height = j < 3 ? height + h : height - h;
      }
    } else if (kind == 1) {
      // _compute_hilly_track: sin over np.linspace(0, pi, n), normalized, scaled, reversed.
      const int n = length * ncol_;
      std::vector<double> data(n);
      const double stop = 1.0 * kPi;
      const double step = (stop - 0.0) / (n - 1);
      for (int k = 0; k < n; ++k) {
        const double x = k == n - 1 ? stop : static_cast<double>(k) * step + 0.0;
        data[k] = std::sin(x);
      }
      const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
      const double low = *lo, span = *hi - *lo;
      const double scalar = hills_[i];
      for (int k = 0; k < n; ++k) {
        rows[k] = static_cast<float>((data[n - 1 - k] - low) / span * scalar);
      }
    } else {
      // _compute_rough_track: np.random.uniform(-1, 1, (length, ncol)), then the scale from
      // np_random.
      const int n = length * ncol_;
      std::vector<double> data(n);
      for (double& v : data) v = global_random_.Uniform(-1, 1);
      const double scalar = np_random_.Uniform(0, rough_[i]);
      const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
      const double low = *lo, span = *hi - *lo;
      const double offset = 0.0;
      for (int k = 0; k < n; ++k) {
        rows[k] = static_cast<float>((data[k] - low) / span * scalar - offset);
      }
    }
  }

  // _get_randomized_initial_state, then _randomize_position_orientation.
  void RandomStart(std::vector<double>& qpos, std::vector<double>& qvel) {
    const int key = static_cast<int>(np_random_.Integers(0, 3));
    qpos.assign(m_->key_qpos + key * m_->nq, m_->key_qpos + (key + 1) * m_->nq);
    qvel.assign(m_->key_qvel + key * m_->nv, m_->key_qvel + (key + 1) * m_->nv);
    osl_.Reset(key == 0 || key == 2 ? OslController::kEarlyStance : OslController::kEarlySwing);
    qpos[0] = np_random_.Uniform(-real_width_ * 0.8, real_width_ * 0.8);
    qpos[1] = start_pos_ + 1;
    const double deg = kPi / 180.0;
    const double yaw = np_random_.Uniform(-125 * deg, -60 * deg);
    // quat2euler_intrinsic: roll and pitch (the yaw is replaced).
    const double w = qpos[3], x = qpos[4], y = qpos[5], z = qpos[6];
    const double roll = std::atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y));
    const double sinp = 2 * (w * y - z * x);
    const double pitch = std::fabs(sinp) >= 1 ? std::copysign(kPi / 2, sinp) : std::asin(sinp);
    IntrinsicEuler2Quat(roll, pitch, yaw, qpos.data() + 3);
    // np.linalg.norm(qvel[:2]): sqrt of BLAS's dot.
    const double speed = std::sqrt(NumpyBlas::Sum(qvel.data(), qvel.data(), 2, dot_fma_));
    const double c = std::cos(yaw), s = std::sin(yaw);
    qvel[0] = c * speed;
    qvel[1] = s * speed;
  }

  // quat_math.intrinsic_euler2quat(roll, pitch, yaw) (the half angles' libm sines and cosines).
  static void IntrinsicEuler2Quat(double roll, double pitch, double yaw, double* q) {
    const double sr = std::sin(roll * 0.5), cr = std::cos(roll * 0.5);
    const double sp = std::sin(pitch * 0.5), cp = std::cos(pitch * 0.5);
    const double sy = std::sin(yaw * 0.5), cy = std::cos(yaw * 0.5);
    q[0] = cr * cp * cy + sr * sp * sy;
    q[1] = sr * cp * cy - cr * sp * sy;
    q[2] = cr * sp * cy + sr * cp * sy;
    q[3] = cr * cp * sy - sr * sp * cy;
  }

  // initializeFromData: a row of the gait cycle (np_random.integers(0, rows)) written into
  // init_qpos (which keeps it: the package edits its init_qpos in place), its joints' columns
  // by name; the root's rotation from the row's pelvis Euler angles (intrinsic_euler2quat);
  // qvel zero but the root's: the row's pelvis velocity x, y turned by the yaw of the rotation
  // init_qpos had before (quat2euler_intrinsic; rotate_frame: (cos t x - sin t y,
  // sin t x + cos t y)), and z; the controller to the row's phase (rows 0-47 early swing,
  // 48-98 late swing, 99-182 early stance, 183-246 late stance).
  void GaitStart(std::vector<double>& qpos, std::vector<double>& qvel) {
    const int row = static_cast<int>(np_random_.Integers(0, gait_rows_));
    const double* data = gait_data_.data() + static_cast<std::size_t>(row) * gait_cols_;
    for (const auto& [col, adr] : gait_joints_) gait_qpos_[adr] = data[col];
    const double w = gait_qpos_[3], x = gait_qpos_[4], y = gait_qpos_[5], z = gait_qpos_[6];
    IntrinsicEuler2Quat(data[gait_roll_], data[gait_pitch_], data[gait_yaw_],
                        gait_qpos_.data() + 3);
    const double t = std::atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
    const double vx = data[gait_vel_[0]], vy = data[gait_vel_[1]];
    qvel.assign(m_->nv, 0.0);
    qvel[0] = std::cos(t) * vx - std::sin(t) * vy;
    qvel[1] = std::sin(t) * vx + std::cos(t) * vy;
    qvel[2] = data[gait_vel_[2]];
    static constexpr OslController::Phase kPhases[] = {
        OslController::kEarlySwing, OslController::kLateSwing, OslController::kEarlyStance,
        OslController::kLateStance};
    int phase = 0;
    while (row >= kGaitPhaseEnds[phase]) ++phase;
    osl_.Reset(kPhases[phase]);
    qpos = gait_qpos_;
  }

  // get_pain: the joint-limit constraint forces in joint space (mj_mulJacTVec of efc_force
  // with the other rows zeroed), |force| clipped to 1000 and / 1000, summed, / 12.
  double Pain() {
    std::vector<double> efc(Observed()->nefc, 0.0);
    for (int i = 0; i < Observed()->nefc; ++i) {
      if (Observed()->efc_type[i] == mjCNSTR_LIMIT_JOINT) efc[i] = Observed()->efc_force[i];
    }
    std::vector<double> force(m_->nv, 0.0);
    mj_mulJacTVec(m_, Observed(), force.data(), efc.data());
    double pain = 0;
    for (int dof : pain_dof_) pain += NumpyClip(std::fabs(force[dof]), -1000.0, 1000.0) / 1000;
    return pain / static_cast<double>(pain_dof_.size());
  }

  // HeightField.get_heightmap_obs (_measure_height): the heightfield's data at a 10 x 10 grid
  // of points (x, y in -0.4, -0.3, ..., 0.5, np.meshgrid's order: x the faster) turned by
  // the root's yaw (quat2euler(qpos[3:7])[2]; the points times euler2mat([0, 0, yaw])'s
  // transpose, np.einsum's sums from the first term), spread by view_distance 5, moved to
  // qpos[:3]; cart2map (the package's x and y swapped): row int16(y / (real_length / nrow) +
  // nrow / 2), column int16(x / (real_width / ncol) + ncol / 2), each clipped to [0, n - 2];
  // then np.flipud(np.rot90(heights (10 x 10), axes=(1, 0))): entry (i, j) is the height of
  // point (9 - j, 9 - i).
  void HeightmapObs(std::vector<double>& out) const {
    const double yaw =
        rotations::Quat2Euler({Observed()->qpos[3], Observed()->qpos[4], Observed()->qpos[5], Observed()->qpos[6]})[2];
    const rotations::Mat3 rot = rotations::Euler2Mat({0.0, 0.0, yaw});
    const double delta_row = real_length_ / nrow_, delta_col = real_width_ / ncol_;
    const double offset_row = nrow_ / 2.0, offset_col = ncol_ / 2.0;
    std::array<float, 100> heights{};
    for (int k = 0; k < 100; ++k) {
      const double p[3] = {kGrid[k % 10], kGrid[k / 10], 0.0};
      double q[3];
      for (int r = 0; r < 3; ++r) {
        double acc = 0.0;
        for (int j = 0; j < 3; ++j) acc += p[j] * rot[3 * r + j];
        q[r] = acc * 5 + Observed()->qpos[r];
      }
      const int row = std::clamp(Int16(q[1] / delta_row + offset_row), 0, nrow_ - 2);
      const int col = std::clamp(Int16(q[0] / delta_col + offset_col), 0, ncol_ - 2);
      heights[k] = hfield_[row * ncol_ + col];
    }
    out.resize(100);
    for (int i = 0; i < 10; ++i) {
      for (int j = 0; j < 10; ++j) out[10 * i + j] = heights[10 * (9 - j) + (9 - i)];
    }
  }

  // np.array(x, dtype=np.int16): truncated toward zero (the map's coordinates are small).
  static int Int16(double x) { return static_cast<std::int16_t>(static_cast<int>(x)); }

  // _get_fallen_condition.
  bool Fallen() const {
    const double head = Observed()->site_xpos[3 * head_ + 2];
    const double mean = (Observed()->xpos[3 * talus_l_ + 2] + Observed()->xpos[3 * osl_foot_ + 2]) / 2;
    return head - mean < 0.2 || head < 0.2;
  }

  std::string reset_type_, terrain_;
  double real_width_, real_length_, end_pos_, start_pos_;
  bool dot_fma_, normalize_act_;
  OslController osl_;
  NumpyRandomState global_random_;
  std::vector<double> hills_, rough_, stairs_;
  int geom_ = -1, nrow_ = 0, ncol_ = 0;
  float* hfield_ = nullptr;
  int track_type_ = 0, terrain_type_ = 0;
  std::vector<int> bio_qpos_, bio_dof_, pain_dof_, bio_act_, feet_sites_;
  int knee_act_ = -1, ankle_act_ = -1, knee_qpos_ = -1, knee_dof_ = -1, ankle_qpos_ = -1,
      ankle_dof_ = -1;
  int load_ = -1, l_foot_ = -1, l_toes_ = -1, socket_ = -1, socket_dim_ = 0;
  int head_ = -1, talus_l_ = -1, osl_foot_ = -1, pelvis_ = -1;
  // The gait cycle (reset_type "osl_init"): its table, its joint columns' qpos addresses, the
  // columns of the pelvis's Euler angles and velocity; the init_qpos its resets edit.
  std::vector<double> gait_data_;
  int gait_rows_ = 0, gait_cols_ = 0;
  std::vector<std::pair<int, int>> gait_joints_;
  int gait_roll_ = -1, gait_pitch_ = -1, gait_yaw_ = -1;
  int gait_vel_[3] = {-1, -1, -1};
  std::vector<double> gait_qpos_;
  bool second_pass_ = false;
  std::vector<double> adjusted_qpos_, adjusted_qvel_;
};

}  // namespace envpool::myosuite

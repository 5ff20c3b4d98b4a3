// The shared base of gymnasium's MuJoCo tasks (gymnasium/envs/mujoco/
// mujoco_env.py): model loading, the per-env mjData, frame skipping and the
// few numpy reductions whose order the rewards depend on.
//
// The compiled mjModel is loaded once per pool (in the env's Params, which
// BasicFactory builds once) and shared read-only by all envs through a
// shared_ptr<const mjModel>; each env owns its mjData.
//
// Shared by the families on MuJoCo: gymnasium's MuJoCo tasks, Gymnasium-Robotics,
// Meta-World and MyoSuite derive their envs from MujocoEnv; the Control Suite takes
// its model and data deleters and reductions. Its names live in envpool::mujoco,
// the engine's namespace.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/keywords.h"
#include "envs/common/mujoco_renderer.h"
#include "envs/common/numpy_blas.h"

namespace envpool::mujoco {

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::shared_ptr<const mjModel>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;
using Range = std::pair<double, double>;

// gymnasium's expand_model_path: paths starting with '.' or '/' are taken as
// they are, '~' is the home directory, anything else names a file of
// gymnasium's assets folder (`assets_dir`, set by envpool/tasks/mujoco.py); a
// name ending in `_envpool.xml` (sail-sg EnvPool's own models) that is not
// there is looked up in `extra_dir` (the envpool-assets package's models). Its
// other files (`ant.xml`, ...) are never taken for gymnasium's.
inline std::string ExpandModelPath(const std::string& xml_file, const std::string& assets_dir,
                                   const std::string& extra_dir = std::string()) {
  std::string path;
  if (!xml_file.empty() && (xml_file[0] == '.' || xml_file[0] == '/')) {
    path = xml_file;
  } else if (!xml_file.empty() && xml_file[0] == '~') {
    const char* home = std::getenv("HOME");
    path = std::string(home != nullptr ? home : "") + xml_file.substr(1);
  } else {
    if (assets_dir.empty()) {
      throw std::invalid_argument("assets_dir is empty: cannot resolve the model file '" +
                                  xml_file + "'");
    }
    path = assets_dir + "/" + xml_file;
    const std::string suffix = "_envpool.xml";
    const bool envpool_model = xml_file.size() > suffix.size() &&
                               xml_file.compare(xml_file.size() - suffix.size(), suffix.size(),
                                                suffix) == 0;
    if (envpool_model && !std::ifstream(path).good()) {
      if (extra_dir.empty()) {
        throw std::invalid_argument("File " + path + " does not exist (sail-sg EnvPool's "
                                    "models come with the envpool-assets package: pip install "
                                    "envpool-assets)");
      }
      path = extra_dir + "/" + xml_file;
    }
  }
  if (!std::ifstream(path).good()) throw std::invalid_argument("File " + path + " does not exist");
  return path;
}

// The model keywords of every MuJoCo env: `assets_dir` (gymnasium's assets folder, set by
// envpool/tasks/mujoco.py) and `xml_file` (a keyword of the v5 tasks and Ant-v4; fixed to the
// task's model in the other v4 tasks). An env's Params derives from ModelParams and starts
// its keyword list with ModelKeywords.
// `_numpy_dot_fma` (hidden, set by envpool/tasks/mujoco.py): the running numpy's order of
// x.dot(y), which gymnasium's np.linalg.norm infos and rewards follow (envs/common/numpy_blas.h).
// `_extra_assets_dir` (hidden, set there too): envpool-assets' folder of EnvPool's models.
// `_post_constraint` (hidden; false for sail-sg EnvPool's legacy ids Ant-v3, Reacher-v2, ...):
// whether each step ends with mj_rnePostConstraint as gymnasium's v4 and v5 envs do. gym's
// v2 / v3 envs ran on mujoco-py, which on MuJoCo >= 2.0 never called it: cacc, cfrc_int and
// cfrc_ext stayed zero (gymnasium's Ant-v4 docs say so), and the dynamics are the same.
struct ModelParams {
  std::string assets_dir, xml_file, extra_assets_dir;
  bool numpy_dot_fma = true, post_constraint = true;
  ModelPtr model;
  NumpyBlas blas;  // np.linalg.norm of the infos and rewards; resets use NumpyBlas::Fixed()
};

template <class P>
Keywords<P> ModelKeywords(const std::string& xml_file, bool xml_file_is_keyword) {
  Keywords<P> k;
  k.Add("assets_dir", std::string(), &P::assets_dir);
  k.Add("xml_file", xml_file, &P::xml_file, xml_file_is_keyword);
  k.Add("_numpy_dot_fma", true, &P::numpy_dot_fma);
  k.Add("_extra_assets_dir", std::string(), &P::extra_assets_dir);
  k.Add("_post_constraint", true, &P::post_constraint);
  return k;
}

// Reads `config` into `params` (its keyword list, `keys`), then compiles the model.
template <class P>
void ReadParams(const Keywords<P>& keys, const Config& config, P& params) {
  keys.Read(config, params);
  params.blas.dot_fma = params.numpy_dot_fma;
  const std::string path =
      ExpandModelPath(params.xml_file, params.assets_dir, params.extra_assets_dir);
  char error[1000] = "";
  mjModel* model = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (model == nullptr) {
    throw std::runtime_error("MuJoCo could not load " + path + ": " + error);
  }
  params.model = ModelPtr(model, ModelDeleter());
}

// numpy's pairwise summation (add.reduce over a contiguous array of T,
// accumulating in T), as np.sum computes it: 0 + pairwise(a).
template <class T>
T PairwiseSum(const T* a, std::int64_t n) {
  if (n < 8) {
    T res = 0;
    for (std::int64_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    T r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::int64_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return PairwiseSum(a, n2) + PairwiseSum(a + n2, n - n2);
}

template <class T>
T NumpySum(const T* a, std::int64_t n) {
  return T(0) + PairwiseSum(a, n);
}

// weight * np.sum(np.square(action)) with a float32 action and a Python float
// weight: under NumPy 2 (NEP 50) the whole product stays float32.
inline float ControlCost(double weight, const float* action, int n) {
  std::vector<float> sq(n);
  for (int i = 0; i < n; ++i) sq[i] = action[i] * action[i];
  return static_cast<float>(weight) * NumpySum(sq.data(), n);
}

// np.clip for doubles.
// mj_local2Global's position of site `site` of model `m` over the body frames of `d`: a site
// of an edited copy of the model placed on the kinematics of the pool's (the goal markers
// that the robotics tasks' frames move, as their references edit the model they render).
inline void SiteXposOn(const mjModel* m, const mjData* d, int site, double out[3]) {
  const int body = m->site_bodyid[site];
  const bool inertial = m->site_sameframe[site] == mjSAMEFRAME_INERTIA ||
                        m->site_sameframe[site] == mjSAMEFRAME_INERTIAROT;
  const double* origin = (inertial ? d->xipos : d->xpos) + 3 * body;
  if (m->site_sameframe[site] == mjSAMEFRAME_BODY ||
      m->site_sameframe[site] == mjSAMEFRAME_INERTIA) {
    std::copy(origin, origin + 3, out);
    return;
  }
  mju_mulMatVec3(out, (inertial ? d->ximat : d->xmat) + 9 * body, m->site_pos + 3 * site);
  mju_addTo3(out, origin);
}

inline double Clip(double x, double lo, double hi) {
  if (std::isnan(x)) return x;
  return std::min(std::max(x, lo), hi);
}

// An unbounded float64 observation of `size` numbers and the float32 action
// box of the model's ctrlrange; info arrays are float64 scalars.
// info_sizes: empty = all scalars, otherwise one per key, -1 for a scalar and
// n >= 0 for an array of n numbers.
inline EnvSpec MujocoSpec(const mjModel* model, std::int64_t obs_size,
                          const std::vector<std::string>& info_keys,
                          const std::vector<int>& info_sizes = {}) {
  EnvSpec spec;
  spec.obs.push_back(BoxSpec("obs", DType::kFloat64, {obs_size}));
  std::vector<double> low, high;
  for (int i = 0; i < model->nu; ++i) {
    low.push_back(static_cast<float>(model->actuator_ctrlrange[2 * i]));
    high.push_back(static_cast<float>(model->actuator_ctrlrange[2 * i + 1]));
  }
  spec.action = BoxSpec("action", DType::kFloat32, {model->nu}, low, high);
  for (std::size_t i = 0; i < info_keys.size(); ++i) {
    const int size = info_sizes.empty() ? -1 : info_sizes[i];
    spec.info.push_back(BoxSpec(info_keys[i], DType::kFloat64,
                                size < 0 ? std::vector<std::int64_t>{}
                                         : std::vector<std::int64_t>{size}));
  }
  // sail-sg EnvPool's test build's info of every MuJoCo task (its wheel has not got it; its
  // alignment tests read it): the qpos and qvel the episode started from (after the reset
  // noise), at its reset and every step of it (MujocoEnv::Write).
  spec.info.push_back(BoxSpec("qpos0", DType::kFloat64, {model->nq}));
  spec.info.push_back(BoxSpec("qvel0", DType::kFloat64, {model->nv}));
  return spec;
}

// gymnasium's DEFAULT_CAMERA_CONFIG of a task: the mjvCamera attributes that
// MujocoRenderer sets on its free camera after placing it (lookat: the median
// of the geoms' positions at the first render, distance: the model's extent).
// NaN: not set by the task.
struct CameraConfig {
  double distance = NAN, elevation = NAN, azimuth = NAN;
  double lookat[3] = {NAN, NAN, NAN};
  int trackbodyid = -2;  // -2: not set (it has no effect on a free camera)
};
// A frame's camera: the model's camera `camera_id`, or for -1 the free camera placed as a
// robotics task's DEFAULT_CAMERA_CONFIG places it (every attribute given).
inline mjvCamera FixedOrFreeCamera(int camera_id, double distance, double azimuth,
                                   double elevation, double lookat_x, double lookat_y,
                                   double lookat_z) {
  mjvCamera cam;
  mjv_defaultCamera(&cam);
  if (camera_id >= 0) {
    cam.type = mjCAMERA_FIXED;
    cam.fixedcamid = camera_id;
    return cam;
  }
  cam.type = mjCAMERA_FREE;
  cam.fixedcamid = -1;
  cam.distance = distance;
  cam.azimuth = azimuth;
  cam.elevation = elevation;
  cam.lookat[0] = lookat_x;
  cam.lookat[1] = lookat_y;
  cam.lookat[2] = lookat_z;
  return cam;
}

inline CameraConfig DistanceCamera(double distance) {
  CameraConfig c;
  c.distance = distance;
  return c;
}
// trackbodyid, distance, lookat (0, 0, lookat_z), elevation; NaN: not set.
inline CameraConfig TrackCamera(int trackbodyid, double distance = NAN, double lookat_z = NAN,
                                double elevation = NAN) {
  CameraConfig c = DistanceCamera(distance);
  c.trackbodyid = trackbodyid;
  if (!std::isnan(lookat_z)) {
    c.lookat[0] = c.lookat[1] = 0.0;
    c.lookat[2] = lookat_z;
  }
  c.elevation = elevation;
  return c;
}

// The base env: owns its mjData over the shared model.
class MujocoEnv : public Env {
 public:
  MujocoEnv(const ModelParams& params, int frame_skip, std::size_t num_info)
      : model_(params.model),
        m_(model_.get()),
        data_(mj_makeData(m_)),
        d_(data_.get()),
        frame_skip_(frame_skip),
        post_constraint_(params.post_constraint),
        dt_(m_->opt.timestep * frame_skip),
        info_(num_info, 0.0) {
    if (d_ == nullptr) throw std::runtime_error("MuJoCo could not allocate mjData");
    init_qpos_.assign(d_->qpos, d_->qpos + m_->nq);
    init_qvel_.assign(d_->qvel, d_->qvel + m_->nv);
    qpos0_ = init_qpos_;
    qvel0_ = init_qvel_;
  }

  // gymnasium's MuJoCo frames (every task, found by BasicFactory as
  // E::RenderSize): 480 x 480 (DEFAULT_SIZE), camera -1 the free camera of the
  // task's DEFAULT_CAMERA_CONFIG, another id a camera of the model (the
  // tracking ones follow their body); render_fps round(1 / dt).
  template <class P>
  static FrameSize RenderSize(const P& p, int width, int height, int camera_id) {
    const mjModel* m = p.model.get();
    const auto [w, h] = mjrender::CheckFrame(m, width, height, camera_id, 480, 480, "MuJoCo");
    return FrameSize{h, w, std::round(1.0 / (m->opt.timestep * p.frame_skip))};
  }

  // qpos then qvel.
  std::vector<double> GetState() const override {
    std::vector<double> state(d_->qpos, d_->qpos + m_->nq);
    state.insert(state.end(), d_->qvel, d_->qvel + m_->nv);
    return state;
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != static_cast<std::size_t>(m_->nq + m_->nv)) {
      throw std::invalid_argument("the state is qpos then qvel: " +
                                  std::to_string(m_->nq + m_->nv) + " numbers");
    }
    SetQposQvel(state.data(), state.data() + m_->nq, /*episode_start=*/false);
  }

  // gymnasium's MujocoRenderer.render("rgb_array") with camera_id (-1: the
  // free camera). The renderer and the free camera are made at the first
  // render, as gymnasium makes its viewer, from the state at that time.
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    if (width == 0) width = 480;
    if (height == 0) height = 480;
    if (!renderer_) {
      renderer_ = std::make_unique<mjrender::SceneRenderer>(m_, m_, width, height,
                                                            SceneMaxGeom());
      SceneOptions(renderer_->Options());
      InitFreeCamera();
    }
    mjvCamera cam = free_camera_;
    if (camera_id >= 0) {
      cam.type = mjCAMERA_FIXED;
      cam.fixedcamid = camera_id;
    }
    mjData* draw = d_;
    if (RenderForwardedCopy()) {
      if (!render_data_) render_data_.reset(mj_makeData(m_));
      draw = render_data_.get();
      mj_resetData(m_, draw);
      std::copy(d_->qpos, d_->qpos + m_->nq, draw->qpos);
      std::copy(d_->qvel, d_->qvel + m_->nv, draw->qvel);
      std::copy(d_->mocap_pos, d_->mocap_pos + 3 * m_->nmocap, draw->mocap_pos);
      std::copy(d_->mocap_quat, d_->mocap_quat + 4 * m_->nmocap, draw->mocap_quat);
      std::copy(d_->xfrc_applied, d_->xfrc_applied + 6 * m_->nbody, draw->xfrc_applied);
      mj_forward(m_, draw);
    }
    renderer_->Draw(m_, draw, &cam, width, height, out);
  }

  // Puts site `site` at `xyz` in this env's data until the next mj_forward or mj_step: for a
  // frame that draws a site where the reference's model edit moved it
  // (envs/robotics/ant_maze.h's target).
  void SetSiteXpos(int site, const double xyz[3]) {
    std::copy(xyz, xyz + 3, d_->site_xpos + 3 * site);
  }

  void Write(const Slot& slot) const override {
    WriteObs(slot.Obs<double>());
    std::size_t keys = info_.size();
    if (info_sizes_.empty()) {
      for (std::size_t i = 0; i < info_.size(); ++i) *slot.Info<double>(i) = info_[i];
    } else {
      keys = info_sizes_.size();
      std::size_t k = 0;
      for (std::size_t i = 0; i < info_sizes_.size(); ++i) {
        double* dst = slot.Info<double>(i);
        const int n = info_sizes_[i] < 0 ? 1 : info_sizes_[i];
        for (int j = 0; j < n; ++j) dst[j] = info_[k++];
      }
    }
    // After the task's own keys: qpos0, qvel0 (MujocoSpec).
    std::copy(qpos0_.begin(), qpos0_.end(), slot.Info<double>(keys));
    std::copy(qvel0_.begin(), qvel0_.end(), slot.Info<double>(keys + 1));
  }

 protected:
  virtual void WriteObs(double* obs) const = 0;

  // mujoco_env.set_state: qpos, qvel, then mj_forward. In a reset (episode_start) they
  // are also the info's qpos0 and qvel0 until the next one.
  void SetQposQvel(const double* qpos, const double* qvel, bool episode_start = true) {
    std::copy(qpos, qpos + m_->nq, d_->qpos);
    std::copy(qvel, qvel + m_->nv, d_->qvel);
    if (episode_start) {
      qpos0_.assign(qpos, qpos + m_->nq);
      qvel0_.assign(qvel, qvel + m_->nv);
    }
    mj_forward(m_, d_);
  }

  // mj_resetData, then init + U(-scale, scale) on qpos and the given noise on
  // qvel (uniform, or scale * standard normal), then set_state.
  void ResetWithNoise(Rng& rng, double scale, bool normal_qvel) {
    mj_resetData(m_, d_);
    std::vector<double> qpos(init_qpos_), qvel(init_qvel_);
    for (double& q : qpos) q += rng.Uniform(-scale, scale);
    for (double& v : qvel) v += normal_qvel ? scale * rng.Normal() : rng.Uniform(-scale, scale);
    SetQposQvel(qpos.data(), qvel.data());
  }

  // mujoco_env.do_simulation: ctrl = action, frame_skip mj_steps, then
  // mj_rnePostConstraint (for cacc, cfrc_int, cfrc_ext; not in the legacy ids).
  void DoSimulation(const float* action) {
    for (int i = 0; i < m_->nu; ++i) d_->ctrl[i] = static_cast<double>(action[i]);
    for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
    if (post_constraint_) mj_rnePostConstraint(m_, d_);
  }

  // Finite qpos and qvel (np.isfinite(state_vector()).all()).
  bool StateFinite() const {
    for (int i = 0; i < m_->nq; ++i) {
      if (!std::isfinite(d_->qpos[i])) return false;
    }
    for (int i = 0; i < m_->nv; ++i) {
      if (!std::isfinite(d_->qvel[i])) return false;
    }
    return true;
  }

  // qpos[skip:] then qvel (clipped to +-clip if clip > 0).
  int WriteQposQvel(double* obs, int skip, double clip = 0) const {
    int k = 0;
    for (int i = skip; i < m_->nq; ++i) obs[k++] = d_->qpos[i];
    for (int i = 0; i < m_->nv; ++i) obs[k++] = clip > 0 ? Clip(d_->qvel[i], -clip, clip) : d_->qvel[i];
    return k;
  }

  // The task's DEFAULT_CAMERA_CONFIG (none: gymnasium's None).
  virtual CameraConfig DefaultCamera() const { return {}; }
  // Whether camera -1 is MuJoCo's default free camera (mjv_defaultFreeCamera: the model's
  // center and extent, as mujoco.Renderer.update_scene(data, camera=-1) places it) instead of
  // gymnasium's.
  virtual bool MujocoFreeCamera() const { return false; }
  // Whether a frame draws the state's copy on fresh data (qpos, qvel, mocap_pos, mocap_quat
  // and xfrc_applied, then mj_forward), as MuJoCo Playground's render_array draws a State,
  // instead of the data as the last step left it (its poses one substep behind qpos).
  virtual bool RenderForwardedCopy() const { return false; }
  // The scene's capacity in geoms (mjv_makeScene's maxgeom): gymnasium's MujocoRenderer's
  // 1000; a scene with more drops the rest, as the reference's does.
  virtual int SceneMaxGeom() const { return 1000; }
  // The task's visualisation flags, set once on the scene's options (mjv_defaultOption).
  virtual void SceneOptions(mjvOption& /*opt*/) const {}

  ModelPtr model_;
  const mjModel* m_;
  DataPtr data_;
  mjData* d_;
  int frame_skip_;
  bool post_constraint_;
  double dt_;
  std::vector<double> init_qpos_, init_qvel_;
  // The info arrays, flat, in the order of the spec's info keys; their sizes
  // as in MujocoSpec when some are not scalars.
  std::vector<double> info_;
  std::vector<int> info_sizes_;
  // The qpos and qvel of the episode's reset: the info's qpos0 and qvel0.
  std::vector<double> qpos0_, qvel0_;

 private:
  // OffScreenViewer._init_camera, then MujocoRenderer._set_cam_config.
  void InitFreeCamera() {
    if (MujocoFreeCamera()) {
      mjv_defaultFreeCamera(m_, &free_camera_);
      return;
    }
    mjv_defaultCamera(&free_camera_);
    free_camera_.type = mjCAMERA_FREE;
    free_camera_.fixedcamid = -1;
    std::vector<double> column(m_->ngeom);
    for (int i = 0; i < 3; ++i) {
      for (int g = 0; g < m_->ngeom; ++g) column[g] = d_->geom_xpos[3 * g + i];
      free_camera_.lookat[i] = Median(column);
    }
    free_camera_.distance = m_->stat.extent;
    const CameraConfig c = DefaultCamera();
    if (!std::isnan(c.distance)) free_camera_.distance = c.distance;
    if (!std::isnan(c.elevation)) free_camera_.elevation = c.elevation;
    if (!std::isnan(c.azimuth)) free_camera_.azimuth = c.azimuth;
    if (!std::isnan(c.lookat[0])) std::copy(c.lookat, c.lookat + 3, free_camera_.lookat);
    if (c.trackbodyid != -2) free_camera_.trackbodyid = c.trackbodyid;
  }
  // np.median: the middle value, or the mean of the two middle ones.
  static double Median(std::vector<double> v) {
    const std::size_t n = v.size(), k = n / 2;
    std::nth_element(v.begin(), v.begin() + k, v.end());
    if (n % 2 == 1) return v[k];
    const double hi = v[k];
    const double lo = *std::max_element(v.begin(), v.begin() + k);
    return (lo + hi) / 2;
  }

  std::unique_ptr<mjrender::SceneRenderer> renderer_;
  mjvCamera free_camera_{};
  DataPtr render_data_;  // RenderForwardedCopy's data
};

}  // namespace envpool::mujoco

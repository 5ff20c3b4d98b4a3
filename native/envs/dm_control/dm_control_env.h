// The shared base of the DeepMind Control Suite tasks (dm_control/rl/control.py
// Environment, dm_control/mujoco/engine.py Physics, suite/base.py Task).
//
// Model: the Python task module (envpool/tasks/dm_control.py) reads the
// domain's XML from the installed dm_control package, generates the variants
// dm_control generates (n poles, n links, ...) and hands the text over as the
// hidden keyword `_model_xml`; it is compiled once per pool against a virtual
// file system holding dm_control's ./common/*.xml includes (and the domain's
// asset folder, `_asset_dir`, for meshes). Each env owns a copy of the model,
// since tasks move targets or regenerate terrain in the model at reset.
//
// Reset (Environment.reset): Physics.reset (mj_resetData, then mj_forward with
// actuation disabled), the task's InitializeEpisode, then Physics.after_reset
// (the same forward pass).
// Step (Environment.step): ctrl = action, Physics.step(n_sub_steps) in its
// legacy form (mj_step2, mj_step n - 1 times, mj_step1; plain mj_step n times
// then mj_step1 under RK4), then the task's reward, observation and
// termination. dm_control raises PhysicsError on MuJoCo warnings; here the
// episode simply goes on, as in sail-sg EnvPool.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/mujoco_env.h"
#include "envs/common/mujoco_renderer.h"
#include "envs/common/numpy_blas.h"
#include "envs/dm_control/randomizers.h"
#include "envs/dm_control/rewards.h"

namespace envpool::dm_control {

// The model and data owners of every MuJoCo family (envs/common/mujoco_env.h).
using mujoco::DataPtr;
using mujoco::ModelDeleter;
using mujoco::ModelPtr;
using OwnedModel = std::unique_ptr<mjModel, ModelDeleter>;

// An mjVFS that is deleted with its owner.
class Vfs {
 public:
  Vfs() : vfs_(std::make_unique<mjVFS>()) { mj_defaultVFS(vfs_.get()); }
  Vfs(const Vfs&) = delete;
  Vfs& operator=(const Vfs&) = delete;
  ~Vfs() { mj_deleteVFS(vfs_.get()); }

  void AddBuffer(const std::string& name, const std::string& content) {
    if (mj_addBufferVFS(vfs_.get(), name.c_str(), content.data(),
                        static_cast<int>(content.size())) != 0) {
      throw std::runtime_error("MuJoCo could not add " + name + " to its virtual file system");
    }
  }
  void AddFile(const std::string& name, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument("cannot read " + path);
    AddBuffer(name, std::string(std::istreambuf_iterator<char>(in), {}));
  }
  const mjVFS* get() const { return vfs_.get(); }

 private:
  std::unique_ptr<mjVFS> vfs_;
};

struct SpecDeleter {
  void operator()(mjSpec* s) const { mj_deleteSpec(s); }
};

// Removes what only a renderer reads and what would make every env's model
// copy large: textures (dm_control's skybox alone is 11.8 MB of texels) and
// skins (the dog's). Materials keep their colours. The physics is unchanged.
inline void DropTexturesAndSkins(mjSpec* spec) {
  for (mjsElement* el = mjs_firstElement(spec, mjOBJ_MATERIAL); el != nullptr;
       el = mjs_nextElement(spec, el)) {
    mjs_setStringVec(mjs_asMaterial(el)->textures, "");
  }
  for (mjtObj type : {mjOBJ_TEXTURE, mjOBJ_SKIN}) {
    for (mjsElement* el = mjs_firstElement(spec, type); el != nullptr;) {
      mjsElement* next = mjs_nextElement(spec, el);
      if (mjs_delete(spec, el) != 0) throw std::runtime_error("MuJoCo could not drop a texture");
      el = next;
    }
  }
}

// What a model is compiled from: `_model_xml` with dm_control's common
// includes from `_suite_dir` and every file named in `_asset_files` (paths
// relative to `_suite_dir`, registered under their base names, as
// dm_control's asset dicts do).
struct ModelSource {
  explicit ModelSource(const Config& config)
      : xml(config.GetString("_model_xml")),
        suite_dir(config.GetString("_suite_dir")),
        asset_files(config.GetStrings("_asset_files")) {
    if (xml.empty() || suite_dir.empty()) {
      throw std::invalid_argument(
          "the DeepMind Control Suite tasks read their models from the dm-control package: "
          "pip install 'dm-control==1.0.50'");
    }
  }
  std::string xml, suite_dir;
  std::vector<std::string> asset_files;
};

// Compiles the model; `for_physics` drops its textures and skins
// (DropTexturesAndSkins), which only a renderer reads.
inline ModelPtr CompileModel(const ModelSource& source, bool for_physics) {
  Vfs vfs;
  for (const char* name : {"materials.xml", "skybox.xml", "visual.xml"}) {
    vfs.AddFile(std::string("./common/") + name, source.suite_dir + "/common/" + name);
  }
  for (const std::string& rel : source.asset_files) {
    const std::size_t slash = rel.find_last_of('/');
    vfs.AddFile(slash == std::string::npos ? rel : rel.substr(slash + 1),
                source.suite_dir + "/" + rel);
  }
  vfs.AddBuffer("model_.xml", source.xml);
  char error[1000] = "";
  std::unique_ptr<mjSpec, SpecDeleter> spec(mj_parseXML("model_.xml", vfs.get(), error,
                                                        sizeof(error)));
  if (spec == nullptr) {
    throw std::runtime_error(std::string("MuJoCo could not parse the model: ") + error);
  }
  if (for_physics) DropTexturesAndSkins(spec.get());
  mjModel* model = mj_compile(spec.get(), vfs.get());
  if (model == nullptr) {
    throw std::runtime_error(std::string("MuJoCo could not compile the model: ") +
                             mjs_getError(spec.get()));
  }
  return ModelPtr(model, ModelDeleter());
}

// The model with its textures, which the renderers of a pool's envs upload to
// GL: compiled once, at the first render of any env, and shared read-only.
class RenderModel {
 public:
  explicit RenderModel(ModelSource source) : source_(std::move(source)) {}
  // Thread-safe; a failed compile is retried by the next call.
  const mjModel* Get() {
    std::call_once(once_, [this] { model_ = CompileModel(source_, /*for_physics=*/false); });
    return model_.get();
  }

 private:
  ModelSource source_;
  std::once_flag once_;
  ModelPtr model_;
};

// The keywords every Control Suite env has, with EnvPool's names. frame_skip
// is dm_control's n_sub_steps (physics steps per control step); frame_stack
// k > 1 gives every observation key a leading dimension of k, the last k
// observations, oldest first (the first one repeated after a reset).
inline Config Defaults(std::int64_t frame_skip, const std::string& task_name) {
  Config c;
  c.Set("frame_skip", frame_skip).AtLeast(1);
  c.Set("frame_stack", std::int64_t{1}).AtLeast(1);
  c.Set("task_name", task_name);
  c.Set("_model_xml", std::string());
  c.Set("_suite_dir", std::string());
  c.Set("_asset_files", std::vector<std::string>());
  NumpyBlas::AddDefaults(c);
  return c;
}

// What every task's Params holds besides its own settings.
struct CommonParams {
  explicit CommonParams(const Config& config)
      : model(CompileModel(ModelSource(config), /*for_physics=*/true)),
        render_model(std::make_shared<RenderModel>(ModelSource(config))),
        frame_skip(static_cast<int>(config.GetInt("frame_skip"))),
        frame_stack(static_cast<int>(config.GetInt("frame_stack"))),
        task(config.GetString("task_name")),
        blas(NumpyBlas::FromConfig(config)) {
    if (frame_skip < 1) throw std::invalid_argument("frame_skip must be >= 1");
    if (frame_stack < 1) throw std::invalid_argument("frame_stack must be >= 1");
  }
  ModelPtr model;
  std::shared_ptr<RenderModel> render_model;  // shared by the pool's envs
  int frame_skip, frame_stack;
  std::string task;
  NumpyBlas blas;  // the running numpy's order of np.dot and np.linalg.norm
};

// Observation keys and their sizes (-1: a scalar), in dm_control's order.
using ObsKeys = std::vector<std::pair<std::string, std::int64_t>>;

// dm_control's specs: float64 observations without bounds in a dict, and the
// float64 action box of mujoco.action_spec (ctrlrange where limited, else
// +-mjMAXVAL).
// `task_info`: the task's own info arrays after qpos0 and qvel0 (sail-sg EnvPool's
// test-build keys: reacher's target, swimmer's target0, ...), written by WriteTaskInfo.
inline EnvSpec DmcSpec(const CommonParams& p, const ObsKeys& keys, const ObsKeys& task_info = {}) {
  const mjModel* m = p.model.get();
  EnvSpec spec;
  for (const auto& [name, size] : keys) {
    std::vector<std::int64_t> shape;
    if (p.frame_stack > 1) shape.push_back(p.frame_stack);
    if (size >= 0) shape.push_back(size);
    spec.obs.push_back(BoxSpec(name, DType::kFloat64, shape));
  }
  spec.obs_layout = ObsLayout::kDict;
  std::vector<double> low(m->nu, -mjMAXVAL), high(m->nu, mjMAXVAL);
  for (int i = 0; i < m->nu; ++i) {
    if (m->actuator_ctrllimited[i]) {
      low[i] = m->actuator_ctrlrange[2 * i];
      high[i] = m->actuator_ctrlrange[2 * i + 1];
    }
  }
  spec.action = BoxSpec("action", DType::kFloat64, {m->nu}, low, high);
  // sail-sg EnvPool's qpos0 and qvel0 (its test build's; in the dm flavour's observation
  // here, as there): the state the episode started from (DmcEnv::MarkEpisodeStart).
  spec.info.push_back(BoxSpec("qpos0", DType::kFloat64, {m->nq}));
  spec.info.push_back(BoxSpec("qvel0", DType::kFloat64, {m->nv}));
  for (const auto& [name, size] : task_info) {
    spec.info.push_back(BoxSpec(name, DType::kFloat64, {size}));
  }
  return spec;
}

// The base env: its own model copy and mjData.
class DmcEnv : public Env {
 public:
  DmcEnv(const CommonParams& p, const ObsKeys& keys)
      : model_(mj_copyModel(nullptr, p.model.get())),
        m_(model_.get()),
        data_(m_ != nullptr ? mj_makeData(m_) : nullptr),
        d_(data_.get()),
        n_sub_steps_(p.frame_skip),
        blas_(p.blas),
        control_scratch_(m_ != nullptr ? m_->nu : 0),
        render_model_(p.render_model),
        frame_stack_(p.frame_stack) {
    if (d_ == nullptr) throw std::runtime_error("MuJoCo could not allocate the model or mjData");
    qpos0_.assign(d_->qpos, d_->qpos + m_->nq);
    qvel0_.assign(d_->qvel, d_->qvel + m_->nv);
    act0_.assign(d_->act, d_->act + m_->na);
    for (const auto& key : keys) sizes_.push_back(key.second < 0 ? 1 : key.second);
    if (frame_stack_ > 1) {
      for (std::int64_t n : sizes_) stack_.emplace_back(static_cast<std::size_t>(n * frame_stack_));
    }
  }

  void Reset(Rng& rng) override {
    mj_resetData(m_, d_);
    AfterReset();  // Physics.reset ends with the same forward pass
    start_marked_ = false;
    InitializeEpisode(rng);
    if (!start_marked_) MarkEpisodeStart();
    AfterReset();
    if (frame_stack_ > 1) {
      ObserveNewest();
      for (std::size_t k = 0; k < stack_.size(); ++k) {
        double* newest = NewestFrame(k);
        for (int f = 0; f + 1 < frame_stack_; ++f) {
          std::copy(newest, newest + sizes_[k], stack_[k].data() + f * sizes_[k]);
        }
      }
    }
  }

  void Write(const Slot& slot) const final {
    std::copy(qpos0_.begin(), qpos0_.end(), slot.Info<double>(0));
    std::copy(qvel0_.begin(), qvel0_.end(), slot.Info<double>(1));
    WriteTaskInfo(slot);
    std::vector<double*> out(sizes_.size());
    for (std::size_t k = 0; k < sizes_.size(); ++k) out[k] = slot.Obs<double>(k);
    if (frame_stack_ == 1) {
      Observe(out.data());
      return;
    }
    for (std::size_t k = 0; k < sizes_.size(); ++k) {
      std::copy(stack_[k].begin(), stack_[k].end(), out[k]);
    }
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    const double* a = action.As<double>();
    for (int i = 0; i < m_->nu; ++i) d_->ctrl[i] = a[i];
    PhysicsStep(n_sub_steps_);
    AfterStep();
    StepOutcome out;
    out.reward = GetReward();
    out.terminated = GetTermination();
    if (frame_stack_ > 1) {
      for (std::size_t k = 0; k < stack_.size(); ++k) {
        std::copy(stack_[k].begin() + sizes_[k], stack_[k].end(), stack_[k].begin());
      }
      ObserveNewest();
    }
    return out;
  }

  // dm_control's frames (every task, found by BasicFactory as E::RenderSize):
  // physics.render's defaults, 240 x 320 from camera -1 (the free camera, as
  // sail-sg EnvPool's default view), or a camera of the model; render_fps
  // 1 / control timestep.
  template <class P>
  static FrameSize RenderSize(const P& p, int width, int height, int camera_id) {
    const mjModel* m = p.model.get();
    const auto [w, h] = mjrender::CheckFrame(m, width, height, camera_id, kWidth, kHeight,
                                             "DeepMind Control");
    return FrameSize{h, w, 1.0 / (m->opt.timestep * p.frame_skip)};
  }

  // physics.render(height, width, camera_id): the scene of this env's model
  // and data, with the textures and meshes of the pool's RenderModel (this
  // env's model copy has none) and dm_control's options (MjvOption without
  // the rangefinder rays); height fields are uploaded from this env's model
  // whenever they changed (tasks regenerate terrain at reset).
  void Render(int width, int height, int camera_id, std::uint8_t* out) override {
    if (width == 0) width = kWidth;
    if (height == 0) height = kHeight;
    if (!renderer_) {
      const int max_geom = static_cast<int>(
          std::max<mjtSize>(1000, 2 * (m_->ngeom + m_->nsite + m_->ntendon + m_->nbody)));
      const mjModel* textured = render_model_->Get();
      // A model with skins (the dog, whose tasks never change their model) is
      // drawn from the textured model itself, which has them.
      scene_model_ = textured->nskin > 0 ? textured : m_;
      renderer_ = std::make_unique<mjrender::SceneRenderer>(textured, scene_model_, width, height,
                                                            max_geom);
      renderer_->Options().flags[mjVIS_RANGEFINDER] = 0;
    }
    mjvCamera cam;
    mjv_defaultCamera(&cam);
    cam.fixedcamid = camera_id;
    if (camera_id < 0) {
      cam.type = mjCAMERA_FREE;
      mjv_defaultFreeCamera(render_model_->Get(), &cam);  // Camera's, from physics.model
    } else {
      cam.type = mjCAMERA_FIXED;
    }
    renderer_->Draw(scene_model_, d_, &cam, width, height, out, [this](const mjrContext& con) {
      const float* data = m_->hfield_data;
      if (m_->nhfield == 0 || (uploaded_hfield_.size() == static_cast<std::size_t>(m_->nhfielddata) &&
                               std::equal(data, data + m_->nhfielddata, uploaded_hfield_.begin()))) {
        return;
      }
      for (int i = 0; i < m_->nhfield; ++i) mjr_uploadHField(m_, &con, i);
      uploaded_hfield_.assign(data, data + m_->nhfielddata);
    });
  }

  // mj_getState(mjSTATE_INTEGRATION) (time, qpos, qvel, act, warm start, ctrl,
  // applied forces, mocap, ...), then the task's own numbers (targets placed in
  // the model, ...). SetState puts both back and runs Physics.after_reset.
  std::vector<double> GetState() const override {
    std::vector<double> state(mj_stateSize(m_, mjSTATE_INTEGRATION));
    mj_getState(m_, d_, state.data(), mjSTATE_INTEGRATION);
    const std::vector<double> extra = GetTaskState();
    state.insert(state.end(), extra.begin(), extra.end());
    return state;
  }
  void SetState(const std::vector<double>& state) override {
    const std::size_t n = static_cast<std::size_t>(mj_stateSize(m_, mjSTATE_INTEGRATION));
    const std::size_t extra = GetTaskState().size();
    if (state.size() != n + extra) {
      throw std::invalid_argument("the state is mj_getState(mjSTATE_INTEGRATION) (" +
                                  std::to_string(n) + " numbers) then " +
                                  std::to_string(extra) + " task numbers");
    }
    mj_setState(m_, d_, state.data(), mjSTATE_INTEGRATION);
    SetTaskState(std::vector<double>(state.begin() + static_cast<std::ptrdiff_t>(n), state.end()));
    AfterReset();
    if (frame_stack_ > 1) ObserveNewest();
  }

 protected:
  // Task.get_observation: writes key k of the spec's observation keys to
  // obs[k] (in their order, one frame).
  virtual void Observe(double* const* obs) const = 0;
  // Task.initialize_episode, between mj_resetData and after_reset.
  virtual void InitializeEpisode(Rng& rng) = 0;
  // Task.after_step (only a few tasks have one).
  virtual void AfterStep() {}
  virtual double GetReward() = 0;
  // Task.get_termination: true where the episode ends early (discount 0).
  virtual bool GetTermination() { return false; }
  // The task's info arrays (DmcSpec's task_info), info indices 2, 3, ...
  virtual void WriteTaskInfo(const Slot& /*slot*/) const {}
  // The task's random quantities that live outside mjData (see GetState).
  virtual std::vector<double> GetTaskState() const { return {}; }
  virtual void SetTaskState(const std::vector<double>& /*state*/) {}

  // The "small control" factor of several rewards: (4 + tolerance(control,
  // margin=1, value_at_margin=0, sigmoid='quadratic').mean()) / 5, the mean
  // summed in numpy's (pairwise) order.
  double SmallControl() {
    for (int i = 0; i < m_->nu; ++i) {
      control_scratch_[i] = Tolerance(d_->ctrl[i], 0, 0, 1, Sigmoid::kQuadratic, 0);
    }
    return (4 + mujoco::NumpySum(control_scratch_.data(), m_->nu) / m_->nu) / 5;
  }

  // Random joints (randomize_limited_and_rotational_joints) and after_reset
  // until nothing is in contact, as humanoid's and finger's resets do; after
  // `max_attempts` tries (0: no limit) it gives up as finger does.
  void RandomizeJointsUntilNoContact(Rng& rng, int max_attempts = 0) {
    for (int attempt = 0;; ++attempt) {
      if (max_attempts > 0 && attempt == max_attempts) {
        throw std::runtime_error("Could not find a collision-free state after " +
                                 std::to_string(max_attempts) + " attempts");
      }
      RandomizeLimitedAndRotationalJoints(m_, d_, rng);
      AfterReset();
      if (d_->ncon == 0) return;
    }
  }

  // WriteTaskInfo of the tasks whose info is their task state (GetTaskState): it goes to
  // task info array `index` (2: the first after qpos0 and qvel0).
  void WriteTaskStateInfo(const Slot& slot, int index = 2) const {
    const std::vector<double> state = GetTaskState();
    std::copy(state.begin(), state.end(), slot.Info<double>(index));
  }
  // sail-sg EnvPool's act0 (dog, quadruped): the actuator activations when the episode
  // started (MarkEpisodeStart), into task info array `index`.
  void WriteStartAct(const Slot& slot, int index) const {
    std::copy(act0_.begin(), act0_.end(), slot.Info<double>(index));
  }
  // sail-sg EnvPool's qacc_warmstart0 (dog, quadruped, stacker): as there, MuJoCo's warm
  // start of qacc now (the next step's solver starts from it); at a reset, the episode's start.
  void WriteQaccWarmstart(const Slot& slot, int index) const {
    std::copy(d_->qacc_warmstart, d_->qacc_warmstart + m_->nv, slot.Info<double>(index));
  }

  // The info's qpos0 and qvel0: the state at the end of Task.initialize_episode, or where
  // a task calls this (cheetah: before its 200 settling steps, as sail-sg EnvPool records it).
  void MarkEpisodeStart() {
    qpos0_.assign(d_->qpos, d_->qpos + m_->nq);
    qvel0_.assign(d_->qvel, d_->qvel + m_->nv);
    act0_.assign(d_->act, d_->act + m_->na);
    start_marked_ = true;
  }

  // Physics.after_reset: mj_forward with actuation disabled.
  void AfterReset() {
    const int flags = m_->opt.disableflags;
    m_->opt.disableflags = flags | mjDSBL_ACTUATION;
    mj_forward(m_, d_);
    m_->opt.disableflags = flags;
  }

  // Physics.step(n) with legacy_step.
  void PhysicsStep(int n) {
    if (m_->opt.integrator != mjINT_RK4) {
      mj_step2(m_, d_);
      for (int i = 1; i < n; ++i) mj_step(m_, d_);
    } else {
      for (int i = 0; i < n; ++i) mj_step(m_, d_);
    }
    mj_step1(m_, d_);
  }

  // Named access, as physics.named.* does (throws on an unknown name).
  int Id(mjtObj type, const char* name) const {
    const int id = mj_name2id(m_, type, name);
    if (id < 0) throw std::invalid_argument(std::string("the model has no ") + name);
    return id;
  }
  int QposAdr(const char* joint) const { return m_->jnt_qposadr[Id(mjOBJ_JOINT, joint)]; }
  int DofAdr(const char* joint) const { return m_->jnt_dofadr[Id(mjOBJ_JOINT, joint)]; }
  const mjtNum* Sensor(const char* name) const {
    return d_->sensordata + m_->sensor_adr[Id(mjOBJ_SENSOR, name)];
  }

  OwnedModel model_;
  mjModel* m_;
  DataPtr data_;
  mjData* d_;
  int n_sub_steps_;
  // np.dot / np.linalg.norm of what Observe, GetReward and GetTermination
  // compute, in the running numpy's order; reset draws use NumpyBlas::Fixed().
  const NumpyBlas blas_;

 private:
  std::vector<double> control_scratch_;  // SmallControl's per-actuator values
  double* NewestFrame(std::size_t k) {
    return stack_[k].data() + (frame_stack_ - 1) * sizes_[k];
  }
  void ObserveNewest() {
    std::vector<double*> out(stack_.size());
    for (std::size_t k = 0; k < stack_.size(); ++k) out[k] = NewestFrame(k);
    Observe(out.data());
  }

  static constexpr int kWidth = 320, kHeight = 240;
  std::shared_ptr<RenderModel> render_model_;
  std::unique_ptr<mjrender::SceneRenderer> renderer_;  // made at the first render
  const mjModel* scene_model_ = nullptr;  // what the scene is drawn from (see Render)
  std::vector<float> uploaded_hfield_;  // the height fields the renderer has
  int frame_stack_;
  std::vector<std::int64_t> sizes_;
  std::vector<std::vector<double>> stack_;  // frame_stack > 1: k frames per key
  std::vector<double> qpos0_, qvel0_;        // the info's qpos0, qvel0 (MarkEpisodeStart)
  std::vector<double> act0_;                 // and act0 where a task has it
  bool start_marked_ = false;
};

}  // namespace envpool::dm_control

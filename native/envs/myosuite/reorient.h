// MyoSuite's hand reorientation tasks (envs/myo/myobase/reorient_sar_v0.py, the SAR paper's
// tasks): the hand, palm up, turns an object (the body "Object", geom "obj") to the
// orientation of a target copy of it (the body "target", geom "target"). The package's
// ProprioceptiveEnvV0 is the task; its subclasses Geometries8EnvV0, Geometries100EnvV0,
// InDistribution and OutofDistribution only add a reset that draws the object's shape from a
// set of their own. `objects` names the subclass.
//
// The four sets are tables in the package's Python code (a dict per shape in each class's
// reset: index -> (size, rgba)), which this repository does not copy: envpool/tasks/myosuite.py
// reads them from the installed package's reorient_sar_v0.py when a pool is made and passes
// them as the hidden keywords _capsule, _ellipsoid, _cylinder and _box (seven numbers an entry,
// the size's three and the rgba's four, in index order).
//
// What the package does, restated:
//   - Construction: pen_length and tar_length are np.linalg.norm of the model's geom_pos
//     differences top - bot and t_top - t_bot (numpy's dot order); they are not recomputed when
//     resets move those geoms. The object body's mass is scaled by 1.25 (each reset sets it to
//     1.2 anyway). init_qpos is zeroed for the hand (all but the object's last six numbers) and
//     its first joint set to -1.5 (palm up). The observation keys are the defaults below, to
//     which the base appends act.
//   - Reset: a shape is drawn, np_random.choice([3, 4, 5, 6]) (capsule, ellipsoid, cylinder,
//     box; an index draw, Generator.integers(0, 4)), then an entry of that shape's table,
//     choice(range(n)): Geometries8EnvV0 draws one index for the size and the color, the
//     others one for the size and then another for the color. The color is then replaced by a
//     constant of the set (Geometries8EnvV0 (1, 0.9, 0, 1), InDistribution (38, 194, 129,
//     255) / 255, OutofDistribution (128, 0, 0, 255) / 255; Geometries100EnvV0 keeps the
//     table's). The marker geoms top / bot (and t_top / t_bot) go to (0, 0, +-h), h = 1.3
//     size[1] for a capsule (the bottom's 1.3 * -size[1]), size[2] for an ellipsoid or a box,
//     size[1] for a cylinder. Both obj and target get the size, the type and the rgba; the
//     object body's mass is 1.2; all but Geometries8EnvV0 set obj's condim to 3. Two draws
//     uniform(-1, 1) and uniform(-0.8, 1.2) are the first two Euler angles (the third 0) of the
//     target body's body_quat (quat_math.euler2quat); the success site's first two rgba
//     numbers become (2, 0). Every edit stays in the model (no mj_setConst: geom_rbound and
//     geom_aabb stay the XML's, there as here). Then the base reset, from init_qpos.
//   - Observation dict: time, hand_jnt (the hand's qpos), obj_pos (the object body's xpos),
//     obj_des_pos (the site eps_ball's xpos), obj_vel (the object's six qvel * dt), obj_rot
//     ((top's geom_xpos - bot's) / pen_length), obj_des_rot (likewise of t_top, t_bot /
//     tar_length), obj_err_pos = obj_pos - obj_des_pos, obj_err_rot = obj_rot - obj_des_rot,
//     act, mlen, mvel, mforce (the actuators' length, velocity and force).
//   - Rewards: as the pen twirling task's: pos_align = norm(obj_err_pos); rot_align =
//     calculate_cosine(obj_rot, obj_des_rot); dropped = pos_align > 0.075; act_mag = norm(act)
//     / na. pos_align -pos_align, rot_align, act_reg -act_mag, drop -dropped, bonus
//     (rot_align > 0.9) (pos_align < 0.075) + 5 (rot_align > 0.95) (pos_align < 0.075), sparse
//     -pos_align + rot_align, solved rot_align > 0.95 and not dropped, done dropped. Default
//     weights pos_align 1, rot_align 1, act_reg 5, drop 5, bonus 10. The reward dict also
//     colors the success site: unless its first two rgba numbers are already (0, 2) (solved
//     once this episode), they become (0, 2) when solved, (2, 0) otherwise.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace envpool::myosuite {

class Reorient final : public MyoEnv {
 public:
  struct Params : MyoParams {
    explicit Params(const Config& c) {
      Keys().Read(c, *this);
      Load();
    }
    std::string objects;
    // The shapes' tables (the hidden keywords).
    std::vector<double> capsule, ellipsoid, cylinder, box;
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    AddMyoKeywords(k, "envs/myo/assets/hand/myohand_sar.xml", 5);
    k.Add("objects", std::string("Geometries8EnvV0"), &Params::objects);
    k.Add("_capsule", std::vector<double>{}, &Params::capsule);
    k.Add("_ellipsoid", std::vector<double>{}, &Params::ellipsoid);
    k.Add("_cylinder", std::vector<double>{}, &Params::cylinder);
    k.Add("_box", std::vector<double>{}, &Params::box);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    Reorient env(p);
    return Spec(env.m_, env.ObsSize(), p.normalize_act);
  }

  explicit Reorient(const Params& p)
      : MyoEnv(p, {"hand_jnt", "obj_pos", "obj_vel", "obj_rot", "obj_des_rot", "obj_err_pos",
                   "obj_err_rot", "mlen", "mvel", "mforce"},
               {{"pos_align", 1.0}, {"rot_align", 1.0}, {"act_reg", 5.0}, {"drop", 5.0},
                {"bonus", 10.0}}),
        set_(ObjectSet(p.objects)),
        tables_{p.capsule, p.ellipsoid, p.cylinder, p.box},
        target_(BodyId("target")),
        obj_(BodyId("Object")),
        eps_ball_(SiteId("eps_ball")),
        success_(SiteId("success")),
        obj_geom_(GeomId("obj")),
        tar_geom_(GeomId("target")),
        obj_top_(GeomId("top")),
        obj_bot_(GeomId("bot")),
        tar_top_(GeomId("t_top")),
        tar_bot_(GeomId("t_bot")),
        pen_length_(GeomDistance(p.blas, obj_top_, obj_bot_)),
        tar_length_(GeomDistance(p.blas, tar_top_, tar_bot_)) {
    for (const std::vector<double>& table : tables_) {
      if (table.empty() || table.size() % 7 != 0) {
        throw std::invalid_argument(
            "MyoReorient needs the object tables _capsule, _ellipsoid, _cylinder and _box "
            "(seven numbers an entry), which envpool/tasks/myosuite.py reads from the installed "
            "myosuite package's envs/myo/myobase/reorient_sar_v0.py");
      }
    }
    mw_->body_mass[obj_] *= 1.25;
    for (int i = 0; i + 6 < m_->nq; ++i) init_qpos_[i] *= 0;
    init_qpos_[0] = -1.5;
  }

 protected:
  void ResetTask() override {
    const int type = static_cast<int>(np_random_.Integers(0, 4)) + 3;  // choice([3, 4, 5, 6])
    const std::vector<double>& table = tables_[type - 3];
    const std::int64_t n = static_cast<std::int64_t>(table.size() / 7);
    const std::int64_t size_index = np_random_.Integers(0, n);
    const std::int64_t color_index =
        set_ == Set::kGeometries8 ? size_index : np_random_.Integers(0, n);
    const double* size = table.data() + 7 * size_index;
    double color[4];
    for (int k = 0; k < 4; ++k) color[k] = table[7 * color_index + 3 + k];
    if (set_ == Set::kGeometries8) {
      const double yellow[4] = {1, 0.9, 0, 1.0};
      std::copy(yellow, yellow + 4, color);
    } else if (set_ == Set::kInDistribution) {
      const double green[4] = {38, 194, 129, 255};
      for (int k = 0; k < 4; ++k) color[k] = green[k] / 255;
    } else if (set_ == Set::kOutofDistribution) {
      const double maroon[4] = {128, 0, 0, 255};
      for (int k = 0; k < 4; ++k) color[k] = maroon[k] / 255;
    }
    double top = 0.0, bot = 0.0;
    if (type == mjGEOM_CAPSULE) {
      top = 1.3 * size[1];
      bot = 1.3 * -size[1];
    } else if (type == mjGEOM_CYLINDER) {
      top = size[1];
      bot = -size[1];
    } else {  // ellipsoid, box
      top = size[2];
      bot = -size[2];
    }
    SetShape(obj_geom_, obj_top_, obj_bot_, type, size, color, top, bot);
    mw_->body_mass[obj_] = 1.2;
    SetShape(tar_geom_, tar_top_, tar_bot_, type, size, color, top, bot);
    if (set_ != Set::kGeometries8) mw_->geom_condim[obj_geom_] = 3;
    double euler[3] = {0.0, 0.0, 0.0};
    euler[0] = np_random_.Uniform(-1.0, 1.0);
    euler[1] = np_random_.Uniform(-0.8, 1.2);
    SetSuccessColor(false);
    Euler2Quat(euler, mw_->body_quat + 4 * target_);
  }

  void ObsDict(TermDict& obs) override {
    const double* x = d_->geom_xpos;
    ObjectObs(obs, obj_, eps_ball_, x + 3 * obj_top_, x + 3 * obj_bot_, pen_length_,
              x + 3 * tar_top_, x + 3 * tar_bot_, tar_length_);
    if (m_->na > 0) {
      obs["act"].assign(d_->act, d_->act + m_->na);
      obs["mlen"].assign(d_->actuator_length, d_->actuator_length + m_->nu);
      obs["mvel"].assign(d_->actuator_velocity, d_->actuator_velocity + m_->nu);
      obs["mforce"].assign(d_->actuator_force, d_->actuator_force + m_->nu);
    }
  }

  void RewardDict(const TermDict& obs, TermDict& rwd) override {
    const double pos_align = NormLastAxis(obs.At("obj_err_pos"));
    const double rot_align = Cosine3(obs.At("obj_rot"), obs.At("obj_des_rot"));
    const bool dropped = pos_align > 0.075;
    const double act_mag = m_->na != 0 ? NormLastAxis(obs.At("act")) / m_->na : 0.0;
    const bool near = pos_align < 0.075;
    const bool solved = rot_align > 0.95 && !dropped;
    rwd.Set("pos_align", -1.0 * pos_align);
    rwd.Set("rot_align", rot_align);
    rwd.Set("act_reg", -1.0 * act_mag);
    rwd.Set("drop", -1.0 * dropped);
    rwd.Set("bonus", (1.0 * (rot_align > 0.9)) * near + (5.0 * (rot_align > 0.95)) * near);
    rwd.Set("sparse", -1.0 * pos_align + rot_align);
    rwd.Set("solved", solved);
    rwd.Set("done", dropped);
    const float* rgba = m_->site_rgba + 4 * success_;
    if (!(rgba[0] == 0.0f && rgba[1] == 2.0f)) SetSuccessColor(solved);
  }

 private:
  enum class Set { kGeometries8, kGeometries100, kInDistribution, kOutofDistribution };

  static Set ObjectSet(const std::string& name) {
    if (name == "Geometries8EnvV0") return Set::kGeometries8;
    if (name == "Geometries100EnvV0") return Set::kGeometries100;
    if (name == "InDistribution") return Set::kInDistribution;
    if (name == "OutofDistribution") return Set::kOutofDistribution;
    throw std::invalid_argument("objects must be 'Geometries8EnvV0', 'Geometries100EnvV0', "
                                "'InDistribution' or 'OutofDistribution', got '" + name + "'");
  }

  int GeomId(const char* name) const {
    const int id = mj_name2id(m_, mjOBJ_GEOM, name);
    if (id < 0) throw std::invalid_argument(std::string("the model has no geom '") + name + "'");
    return id;
  }

  // np.linalg.norm(geom_pos[a] - geom_pos[b]) in the model.
  double GeomDistance(const NumpyBlas& blas, int a, int b) const {
    double v[3];
    for (int k = 0; k < 3; ++k) v[k] = m_->geom_pos[3 * a + k] - m_->geom_pos[3 * b + k];
    return blas.Norm(v, 3);
  }

  // A shape geom's size, type and rgba (float32 in the model), and its markers' positions.
  void SetShape(int geom, int top, int bot, int type, const double* size, const double* color,
                double top_z, double bot_z) {
    for (int k = 0; k < 3; ++k) mw_->geom_size[3 * geom + k] = size[k];
    mw_->geom_type[geom] = type;
    for (int k = 0; k < 4; ++k) mw_->geom_rgba[4 * geom + k] = static_cast<float>(color[k]);
    const double top_pos[3] = {0, 0, top_z}, bot_pos[3] = {0, 0, bot_z};
    std::copy(top_pos, top_pos + 3, mw_->geom_pos + 3 * top);
    std::copy(bot_pos, bot_pos + 3, mw_->geom_pos + 3 * bot);
  }

  // The success site's first two rgba numbers: (0, 2) when solved, (2, 0) otherwise.
  void SetSuccessColor(bool solved) const {
    mw_->site_rgba[4 * success_] = solved ? 0.0f : 2.0f;
    mw_->site_rgba[4 * success_ + 1] = solved ? 2.0f : 0.0f;
  }

  Set set_;
  std::array<std::vector<double>, 4> tables_;  // by geom type - 3
  int target_, obj_, eps_ball_, success_;
  int obj_geom_, tar_geom_, obj_top_, obj_bot_, tar_top_, tar_bot_;
  double pen_length_, tar_length_;
};

}  // namespace envpool::myosuite

// Model edits made on the MuJoCo spec before compiling, as the package's `edit_fn`s make
// them (envs/env_base.py, MujocoEnv._get_spec: the model's XML is parsed into an MjSpec,
// envs/myo/myoedits/model_editor.py's ModelEditor hands it to edit_fn, which edits it in
// place, and the edited spec is compiled). Here with MuJoCo's C spec API: each Python call
// of the package becomes the C call its binding makes (mjs_addBody / mjs_addGeom /
// mjs_addSite with no default class, mjs_delete, first_body = the first child body,
// not recursive), in the same order, so that the compiled model is the package's.
//
// edit_fn_arm_reaching (envs/myo/myoedits/__init__.py, the myoArmReach ids), restated:
//   - For each of the five metacarpals (firstmc .. fifthmc), the chain of its first child
//     bodies (the phalanges), each with its name, its position (not its orientation) and
//     the names of its mesh geoms, in order; and the IFtip site's name, size, pos and rgba.
//   - Each metacarpal's first child body is deleted with its subtree (the phalanges, their
//     joints, geoms and sites, and what refers to them: the fingers' tendons and muscles).
//   - Each chain is added back, each phalanx a child of the previous one (the first a
//     child of the metacarpal), at its position, with a mesh geom per mesh geom it had:
//     named as the body, its mesh the one named as the old geom (the old geoms are named
//     as their meshes). distph2 gets an IFtip site twice the old size, at its position and
//     with its color.
//   - The world gets the reach target: a sphere site IFtip_target, size 0.02, at
//     (-0.2, -0.2, 1.2), color (0, 0, 1, 0.3).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool::myosuite {

struct SpecDeleter {
  void operator()(mjSpec* s) const { mj_deleteSpec(s); }
};
using SpecPtr = std::unique_ptr<mjSpec, SpecDeleter>;

namespace detail {

inline mjsBody* FindBody(mjSpec* spec, const std::string& name) {
  mjsBody* body = mjs_findBody(spec, name.c_str());
  if (body == nullptr) throw std::invalid_argument("the model has no body '" + name + "'");
  return body;
}

inline mjsBody* FirstChildBody(mjsBody* body) {
  return mjs_asBody(mjs_firstChild(body, mjOBJ_BODY, 0));
}

inline void SetName(mjsElement* element, const std::string& name) {
  if (mjs_setName(element, name.c_str()) != 0) {
    throw std::runtime_error("MuJoCo could not name an element '" + name + "': " +
                             mjs_getError(mjs_getSpec(element)));
  }
}

}  // namespace detail

// edit_fn_arm_reaching on `spec`.
inline void EditArmReaching(mjSpec* spec) {
  using detail::FindBody;
  using detail::FirstChildBody;
  using detail::SetName;
  struct Phalanx {
    std::string name;
    std::array<double, 3> pos;
    std::vector<std::string> meshes;  // the names of its mesh geoms
  };
  const std::array<const char*, 5> roots = {"firstmc", "secondmc", "thirdmc", "fourthmc",
                                            "fifthmc"};
  std::vector<std::vector<Phalanx>> digits;
  for (const char* root : roots) {
    std::vector<Phalanx>& chain = digits.emplace_back();
    for (mjsBody* b = FirstChildBody(FindBody(spec, root)); b != nullptr; b = FirstChildBody(b)) {
      Phalanx& p = chain.emplace_back();
      p.name = mjs_getString(mjs_getName(b->element));
      p.pos = {b->pos[0], b->pos[1], b->pos[2]};
      for (mjsElement* e = mjs_firstChild(b, mjOBJ_GEOM, 0); e != nullptr;
           e = mjs_nextChild(b, e, 0)) {
        if (mjs_asGeom(e)->type == mjGEOM_MESH) {
          p.meshes.emplace_back(mjs_getString(mjs_getName(e)));
        }
      }
    }
  }
  mjsElement* tip_element = mjs_findElement(spec, mjOBJ_SITE, "IFtip");
  if (tip_element == nullptr) throw std::invalid_argument("the model has no site 'IFtip'");
  const mjsSite* tip = mjs_asSite(tip_element);
  const std::string tip_name = mjs_getString(mjs_getName(tip_element));
  const std::array<double, 3> tip_size = {tip->size[0], tip->size[1], tip->size[2]};
  const std::array<double, 3> tip_pos = {tip->pos[0], tip->pos[1], tip->pos[2]};
  const std::array<float, 4> tip_rgba = {tip->rgba[0], tip->rgba[1], tip->rgba[2], tip->rgba[3]};

  for (const char* root : roots) {
    mjsBody* child = FirstChildBody(FindBody(spec, root));
    if (child != nullptr && mjs_delete(spec, child->element) != 0) {
      throw std::runtime_error(std::string("MuJoCo could not delete the digit of '") + root +
                               "': " + mjs_getError(spec));
    }
  }

  for (std::size_t r = 0; r < roots.size(); ++r) {
    mjsBody* parent = FindBody(spec, roots[r]);
    for (const Phalanx& p : digits[r]) {
      mjsBody* body = mjs_addBody(parent, nullptr);
      SetName(body->element, p.name);
      for (int k = 0; k < 3; ++k) body->pos[k] = p.pos[k];
      for (const std::string& mesh : p.meshes) {
        mjsGeom* geom = mjs_addGeom(body, nullptr);
        SetName(geom->element, p.name);
        geom->type = mjGEOM_MESH;
        mjs_setString(geom->meshname, mesh.c_str());
      }
      if (p.name == "distph2") {
        mjsSite* site = mjs_addSite(body, nullptr);
        SetName(site->element, tip_name);
        for (int k = 0; k < 3; ++k) {
          site->size[k] = tip_size[k] * 2;
          site->pos[k] = tip_pos[k];
        }
        for (int k = 0; k < 4; ++k) site->rgba[k] = tip_rgba[k];
      }
      parent = body;
    }
  }

  mjsSite* target = mjs_addSite(FindBody(spec, "world"), nullptr);
  SetName(target->element, "IFtip_target");
  target->type = mjGEOM_SPHERE;
  const double target_pos[3] = {-0.2, -0.2, 1.2};
  for (int k = 0; k < 3; ++k) {
    target->size[k] = 0.02;
    target->pos[k] = target_pos[k];
  }
  const double target_rgba[4] = {0.0, 0.0, 1.0, 0.3};
  for (int k = 0; k < 4; ++k) target->rgba[k] = static_cast<float>(target_rgba[k]);
}

// TableTennisEnvV0._preprocess_spec (envs/myo/myochallenge/tabletennis_v0.py) with
// utils/spec_processing.py's recursive_immobilize / recursive_remove_contacts /
// recursive_mirror, restated (each Python loop over `spec.<kind>` or `body.<kind>` walks the
// list it got before deleting; here the elements are collected first, then changed):
//   - Every sensor whose name has neither "pingpong" nor "paddle" is deleted; the spec is
//     compiled once (temp_model: the joints' qpos addresses before the edit).
//   - recursive_immobilize(femur_l, then femur_r, remove_eqs): in each body of the subtree
//     (depth first, children in order), its sites are deleted, and for each joint its first
//     qpos address (in temp_model) is noted, the joint equalities naming it (name1 or
//     name2) are deleted, then the joint. Each keyframe's qpos loses the noted entries.
//   - remove_body_collisions: recursive_remove_contacts(full_body): contype = conaffinity
//     = 0 for every geom of the subtree but the subtrees of bodies whose name has "radius".
//   - add_left_arm: a copy of the spec (made before the frame below is added) loses its
//     keys, textures, materials, tendons, actuators, equalities, sensors and cameras (in
//     this order), every site and joint (recursive_immobilize from its world body), and
//     every geom's contacts. recursive_mirror(clavicle): each body of the subtree gets pos[1]
//     and quat[1], quat[3] negated and "_mirrored" appended to its name; its non-mesh geoms
//     are deleted, its mesh geoms get the same mirroring, "_mirrored" on their name and
//     meshname, group 1 (the mesh names noted); a child body whose name has "ping_pong" is
//     deleted with its subtree instead. The copy's noted meshes get "_mirrored" and scale[1]
//     negated, the others are deleted. The torso gets a frame at pos (0.05, 0.373, -0.04),
//     quat (0.5, 0.5, -0.5, 0.5), and clavicle_mirrored is attached to it (no prefix, no
//     suffix); then ulna_mirrored's quat is (0.546, 0, 0, -0.838) and humerus_mirrored's
//     (0.924, 0.383, 0, 0).
namespace detail {

template <class F>
std::vector<mjsElement*> Children(mjsBody* body, mjtObj type, F keep) {
  std::vector<mjsElement*> out;
  for (mjsElement* e = mjs_firstChild(body, type, 0); e != nullptr; e = mjs_nextChild(body, e, 0)) {
    if (keep(e)) out.push_back(e);
  }
  return out;
}
inline std::vector<mjsElement*> Children(mjsBody* body, mjtObj type) {
  return Children(body, type, [](mjsElement*) { return true; });
}
inline std::vector<mjsElement*> Elements(mjSpec* spec, mjtObj type) {
  std::vector<mjsElement*> out;
  for (mjsElement* e = mjs_firstElement(spec, type); e != nullptr; e = mjs_nextElement(spec, e)) {
    out.push_back(e);
  }
  return out;
}
inline std::string NameOf(mjsElement* e) { return mjs_getString(mjs_getName(e)); }
inline void Delete(mjSpec* spec, mjsElement* e) {
  if (mjs_delete(spec, e) != 0) {
    throw std::runtime_error("MuJoCo could not delete '" + NameOf(e) + "': " + mjs_getError(spec));
  }
}

// spec_processing.recursive_immobilize: the qpos addresses (in `temp`) of the joints removed.
inline void Immobilize(mjSpec* spec, const mjModel* temp, mjsBody* body, bool remove_eqs,
                       std::vector<int>& removed) {
  for (mjsElement* s : Children(body, mjOBJ_SITE)) Delete(spec, s);
  for (mjsElement* j : Children(body, mjOBJ_JOINT)) {
    const std::string name = NameOf(j);
    const int id = mj_name2id(temp, mjOBJ_JOINT, name.c_str());
    if (id < 0) throw std::invalid_argument("the model has no joint '" + name + "'");
    removed.push_back(temp->jnt_qposadr[id]);
    if (remove_eqs) {
      for (mjsElement* e : Elements(spec, mjOBJ_EQUALITY)) {
        const mjsEquality* eq = mjs_asEquality(e);
        if (eq->type == mjEQ_JOINT && (mjs_getString(eq->name1) == name ||
                                       mjs_getString(eq->name2) == name)) {
          Delete(spec, e);
        }
      }
    }
    Delete(spec, j);
  }
  for (mjsElement* child : Children(body, mjOBJ_BODY)) {
    Immobilize(spec, temp, mjs_asBody(child), remove_eqs, removed);
  }
}

// spec_processing.recursive_remove_contacts; `stop_at_radius`: its return_condition
// (a body whose name has "radius" keeps its subtree's contacts).
inline void RemoveContacts(mjsBody* body, bool stop_at_radius) {
  if (stop_at_radius && NameOf(body->element).find("radius") != std::string::npos) return;
  for (mjsElement* g : Children(body, mjOBJ_GEOM)) {
    mjs_asGeom(g)->contype = 0;
    mjs_asGeom(g)->conaffinity = 0;
  }
  for (mjsElement* child : Children(body, mjOBJ_BODY)) {
    RemoveContacts(mjs_asBody(child), stop_at_radius);
  }
}

// spec_processing.recursive_mirror.
inline void Mirror(std::vector<std::string>& meshes, mjSpec* spec, mjsBody* body) {
  body->pos[1] *= -1;
  body->quat[1] *= -1;
  body->quat[3] *= -1;
  SetName(body->element, NameOf(body->element) + "_mirrored");
  for (mjsElement* e : Children(body, mjOBJ_GEOM)) {
    mjsGeom* g = mjs_asGeom(e);
    if (g->type != mjGEOM_MESH) {
      Delete(spec, e);
      continue;
    }
    g->pos[1] *= -1;
    g->quat[1] *= -1;
    g->quat[3] *= -1;
    SetName(e, NameOf(e) + "_mirrored");
    g->group = 1;
    const std::string mesh = mjs_getString(g->meshname);
    if (std::find(meshes.begin(), meshes.end(), mesh) == meshes.end()) meshes.push_back(mesh);
    mjs_setString(g->meshname, (mesh + "_mirrored").c_str());
  }
  for (mjsElement* child : Children(body, mjOBJ_BODY)) {
    if (NameOf(child).find("ping_pong") != std::string::npos) {
      Delete(spec, child);
      continue;
    }
    Mirror(meshes, spec, mjs_asBody(child));
  }
}

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};

inline std::unique_ptr<mjModel, ModelDeleter> Compile(mjSpec* spec, const std::string& what) {
  std::unique_ptr<mjModel, ModelDeleter> m(mj_compile(spec, nullptr));
  if (m == nullptr) {
    throw std::runtime_error("MuJoCo could not compile " + what + ": " + mjs_getError(spec));
  }
  return m;
}

}  // namespace detail

// _preprocess_spec on `spec`. `copies` keeps the left arm's spec alive until the caller has
// compiled `spec`.
inline void EditTableTennis(mjSpec* spec, bool remove_body_collisions, bool add_left_arm,
                            std::vector<SpecPtr>& copies) {
  using namespace detail;  // NOLINT
  for (mjsElement* s : Elements(spec, mjOBJ_SENSOR)) {
    const std::string name = NameOf(s);
    if (name.find("pingpong") == std::string::npos && name.find("paddle") == std::string::npos) {
      Delete(spec, s);
    }
  }
  const auto temp = Compile(spec, "the table tennis model");
  std::vector<int> removed;
  Immobilize(spec, temp.get(), FindBody(spec, "femur_l"), true, removed);
  Immobilize(spec, temp.get(), FindBody(spec, "femur_r"), true, removed);
  for (mjsElement* e : Elements(spec, mjOBJ_KEY)) {
    mjsKey* key = mjs_asKey(e);
    int n = 0;
    const double* qpos = mjs_getDouble(key->qpos, &n);
    std::vector<double> kept;
    for (int i = 0; i < n; ++i) {
      if (std::find(removed.begin(), removed.end(), i) == removed.end()) kept.push_back(qpos[i]);
    }
    mjs_setDouble(key->qpos, kept.data(), static_cast<int>(kept.size()));
  }
  if (remove_body_collisions) RemoveContacts(FindBody(spec, "full_body"), true);
  if (!add_left_arm) return;
  mjsBody* torso = FindBody(spec, "torso");
  SpecPtr copy(mj_copySpec(spec));
  if (copy == nullptr) throw std::runtime_error("MuJoCo could not copy the table tennis spec");
  mjSpec* c = copy.get();
  mjsFrame* frame = mjs_addFrame(torso, nullptr);
  const double frame_quat[4] = {0.5, 0.5, -0.5, 0.5}, frame_pos[3] = {0.05, 0.373, -0.04};
  for (int k = 0; k < 4; ++k) frame->quat[k] = frame_quat[k];
  for (int k = 0; k < 3; ++k) frame->pos[k] = frame_pos[k];
  for (mjtObj type : {mjOBJ_KEY, mjOBJ_TEXTURE, mjOBJ_MATERIAL, mjOBJ_TENDON, mjOBJ_ACTUATOR,
                      mjOBJ_EQUALITY, mjOBJ_SENSOR, mjOBJ_CAMERA}) {
    for (mjsElement* e : Elements(c, type)) Delete(c, e);
  }
  mjsBody* world = FindBody(c, "world");
  std::vector<int> unused;
  Immobilize(c, temp.get(), world, false, unused);
  RemoveContacts(world, false);
  std::vector<std::string> meshes;
  Mirror(meshes, c, FindBody(c, "clavicle"));
  for (mjsElement* e : Elements(c, mjOBJ_MESH)) {
    const std::string name = NameOf(e);
    if (std::find(meshes.begin(), meshes.end(), name) != meshes.end()) {
      SetName(e, name + "_mirrored");
      mjs_asMesh(e)->scale[1] *= -1;
    } else {
      Delete(c, e);
    }
  }
  if (mjs_attach(frame->element, FindBody(c, "clavicle_mirrored")->element, nullptr, nullptr) ==
      nullptr) {
    throw std::runtime_error(std::string("MuJoCo could not attach the left arm: ") +
                             mjs_getError(spec));
  }
  const double ulna[4] = {0.546, 0, 0, -0.838}, humerus[4] = {0.924, 0.383, 0, 0};
  for (int k = 0; k < 4; ++k) FindBody(spec, "ulna_mirrored")->quat[k] = ulna[k];
  for (int k = 0; k < 4; ++k) FindBody(spec, "humerus_mirrored")->quat[k] = humerus[k];
  copies.push_back(std::move(copy));
}

// The table tennis model at `path`: _preprocess_spec, then compiled; the caller owns it.
inline mjModel* LoadTableTennisModel(const std::string& path, bool remove_body_collisions,
                                     bool add_left_arm) {
  char error[1000] = "";
  SpecPtr spec(mj_parseXML(path.c_str(), nullptr, error, sizeof(error)));
  if (spec == nullptr) throw std::runtime_error("MuJoCo could not parse " + path + ": " + error);
  std::vector<SpecPtr> copies;
  EditTableTennis(spec.get(), remove_body_collisions, add_left_arm, copies);
  return detail::Compile(spec.get(), "the edited " + path).release();
}

// The model at `path`, its spec edited by the edit named `edit` ("arm_reaching") before
// compiling; the caller owns it.
inline mjModel* LoadEditedModel(const std::string& path, const std::string& edit) {
  if (edit != "arm_reaching") {
    throw std::invalid_argument("model_edit must be '' or 'arm_reaching', got '" + edit + "'");
  }
  char error[1000] = "";
  SpecPtr spec(mj_parseXML(path.c_str(), nullptr, error, sizeof(error)));
  if (spec == nullptr) throw std::runtime_error("MuJoCo could not parse " + path + ": " + error);
  EditArmReaching(spec.get());
  mjModel* m = mj_compile(spec.get(), nullptr);
  if (m == nullptr) {
    throw std::runtime_error("MuJoCo could not compile the edited " + path + ": " +
                             mjs_getError(spec.get()));
  }
  return m;
}

}  // namespace envpool::myosuite

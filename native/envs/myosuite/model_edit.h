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

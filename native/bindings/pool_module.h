// The Python-facing surface of a native env module, shared by envpool._native
// and every module built with envpool's env SDK: `Pool`, `Batch`, `Factory`,
// `RecvTimeout`, `ResetNeeded`, `env_names()`, `default_config(name)`, `keyword_domains(name)`,
// `factory(name, config)`, `spec(name, config)`, `render_size(...)` and the
// version attributes the Python side checks when it registers the module's
// envs. A module calls DefinePoolModule(m, registry) once in its
// PYBIND11_MODULE; each module compiles its own copy of this code and of the
// pool core (core/*.cc), so no C++ object ever passes between two separately
// built modules, and every pybind11 type here is module-local.
//
// Batches come back as numpy arrays over the pool's own buffers; each array
// keeps its batch alive, so it stays valid as long as it is held.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/pool.h"
#include "core/registry.h"
#include "core/version.h"
#include "core/xla_target.h"

namespace envpool::bindings {

namespace py = pybind11;

inline const EnvEntry& FindEntry(const Registry& registry, const std::string& name) {
  for (const EnvEntry& e : registry) {
    if (e.name == name) return e;
  }
  std::string names;
  for (const EnvEntry& e : registry) names += (names.empty() ? "" : ", ") + e.name;
  throw std::invalid_argument("unknown native env '" + name + "'; known: " + names);
}

inline py::dict ArraySpecToDict(const ArraySpec& s) {
  py::dict d;
  d["name"] = s.name;
  d["dtype"] = DTypeName(s.dtype);
  d["shape"] = py::tuple(py::cast(s.shape));
  d["low"] = s.low;
  d["high"] = s.high;
  d["n"] = s.n;
  d["start"] = s.start;
  d["per_player"] = s.per_player;
  d["container"] = s.container;
  return d;
}

inline py::dict SpecToDict(const EnvSpec& spec) {
  py::dict d;
  py::list obs, info;
  for (const ArraySpec& s : spec.obs) obs.append(ArraySpecToDict(s));
  for (const ArraySpec& s : spec.info) info.append(ArraySpecToDict(s));
  d["obs"] = obs;
  d["info"] = info;
  d["action"] = ArraySpecToDict(spec.action);
  d["max_num_players"] = spec.max_num_players;
  py::list player_actions;
  for (const ArraySpec& s : spec.player_actions) player_actions.append(ArraySpecToDict(s));
  d["player_actions"] = player_actions;
  d["obs_layout"] = spec.obs_layout == ObsLayout::kArray   ? "array"
                    : spec.obs_layout == ObsLayout::kTuple ? "tuple"
                                                           : "dict";
  return d;
}

// (height, width, fps) of a frame, or None for an env that does not render.
inline py::object RenderInfo(const std::optional<FrameSize>& size) {
  if (!size) return py::none();
  return py::make_tuple(size->height, size->width, size->fps);
}

inline py::dtype ToNumpy(DType t) {
  switch (t) {
    case DType::kBool:
      return py::dtype::of<bool>();
    case DType::kUInt8:
      return py::dtype::of<std::uint8_t>();
    case DType::kInt32:
      return py::dtype::of<std::int32_t>();
    case DType::kInt64:
      return py::dtype::of<std::int64_t>();
    case DType::kFloat32:
      return py::dtype::of<float>();
    case DType::kFloat64:
      return py::dtype::of<double>();
    case DType::kInt8:
      return py::dtype::of<std::int8_t>();
    case DType::kInt16:
      return py::dtype::of<std::int16_t>();
  }
  throw std::logic_error("bad dtype");
}

// A numpy view of the first `rows` rows of a column; `owner` keeps it alive.
// A container column gives a numpy object array instead, of copies of its
// Cells (None where the env wrote none).
inline py::array View(Column& column, int rows, const py::object& owner) {
  std::vector<py::ssize_t> shape{rows};
  for (std::int64_t d : column.shape()) shape.push_back(d);
  if (column.is_container()) {
    py::array out = py::module_::import("numpy").attr("empty")(shape, "object");
    auto** items = static_cast<PyObject**>(out.mutable_data());
    const int cells = column.cells_per_row();
    for (int r = 0; r < rows; ++r) {
      for (int k = 0; k < cells; ++k) {
        const Cell& cell = column.Cells(r)[k];
        if (!cell.set) continue;
        std::vector<py::ssize_t> cell_shape(cell.shape.begin(), cell.shape.end());
        py::array value(ToNumpy(cell.dtype), cell_shape, {}, cell.data.data());  // a copy
        PyObject*& slot = items[static_cast<std::size_t>(r) * static_cast<std::size_t>(cells) +
                                static_cast<std::size_t>(k)];
        Py_XDECREF(slot);
        slot = value.release().ptr();
      }
    }
    return out;
  }
  return py::array(ToNumpy(column.dtype()), shape, {}, column.data(), owner);
}

inline py::list Views(std::vector<Column>& columns, int rows, const py::object& owner) {
  py::list out;
  for (Column& c : columns) out.append(View(c, rows, owner));
  return out;
}

inline AutoresetMode ParseAutoreset(const std::string& mode) {
  if (mode == "next_step") return AutoresetMode::kNextStep;
  if (mode == "same_step") return AutoresetMode::kSameStep;
  if (mode == "disabled") return AutoresetMode::kDisabled;
  throw std::invalid_argument("autoreset_mode must be one of 'next_step', 'same_step', "
                              "'disabled', got '" + mode + "'");
}

// The env ids as a contiguous int64 array, refusing non-integers.
inline py::array_t<std::int64_t> EnvIds(const py::array& ids) {
  const char kind = ids.dtype().kind();
  if (kind != 'i' && kind != 'u') {
    throw py::type_error("env_id must be integers, got dtype " +
                         std::string(py::str(ids.dtype())));
  }
  if (ids.ndim() != 1) throw std::invalid_argument("env_id must be one-dimensional");
  return py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(ids);
}

// `actions` as a C-contiguous array of one of the types Pool::Send takes, checked to
// have `n` rows of `spec`'s shape (`what` names it in errors).
inline std::pair<py::array, DType> ActionArray(const py::array& actions, const ArraySpec& spec,
                                               py::ssize_t n, const char* what) {
  const char kind = actions.dtype().kind();
  py::array a;
  DType dtype;
  if (spec.IsDiscrete()) {
    if (kind != 'i' && kind != 'u') {
      throw py::type_error("discrete actions must be integers, got dtype " +
                           std::string(py::str(actions.dtype())));
    }
    if (actions.dtype().is(py::dtype::of<std::int32_t>())) {
      a = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>::ensure(actions);
      dtype = DType::kInt32;
    } else {
      a = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(actions);
      dtype = DType::kInt64;
    }
  } else {
    if (kind != 'f' && kind != 'i' && kind != 'u') {
      throw py::type_error("continuous actions must be numbers, got dtype " +
                           std::string(py::str(actions.dtype())));
    }
    if (actions.dtype().is(py::dtype::of<float>())) {
      a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(actions);
      dtype = DType::kFloat32;
    } else {
      a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(actions);
      dtype = DType::kFloat64;
    }
  }
  bool ok = a.ndim() == static_cast<py::ssize_t>(1 + spec.shape.size()) && a.shape(0) == n;
  for (std::size_t k = 0; ok && k < spec.shape.size(); ++k) {
    ok = a.shape(static_cast<py::ssize_t>(k + 1)) == spec.shape[k];
  }
  if (!ok) {
    std::string want = "(" + std::to_string(n);
    for (std::int64_t d : spec.shape) want += ", " + std::to_string(d);
    want += spec.shape.empty() ? ",)" : ")";
    std::string got = "(";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) got += std::to_string(a.shape(k)) + ", ";
    got += ")";
    throw std::invalid_argument(std::string(what) + " must have shape " + want +
                                " (one row per env_id), got " + got);
  }
  return {a, dtype};
}

class PyPool {
 public:
  // `env_configs`: one configuration per env, or none for a uniform pool of
  // `config`; envs with equal configurations share a factory. `ranges`: none,
  // or per env the keywords drawn at each of its resets, as (key, low, high).
  // `factory`: one already built from `config` (the Python spec's), or null.
  PyPool(const EnvEntry& entry, const std::map<std::string, ConfigValue>& config,
         const std::vector<std::map<std::string, ConfigValue>>& env_configs,
         const std::vector<std::vector<std::tuple<std::string, double, double>>>& ranges,
         std::shared_ptr<const EnvFactory> factory, PoolOptions options) {
    const std::size_t n = static_cast<std::size_t>(std::max(options.num_envs, 1));
    if ((!env_configs.empty() && env_configs.size() != n) ||
        (!ranges.empty() && ranges.size() != n)) {
      throw std::invalid_argument("env_configs and ranges need one entry per env");
    }
    std::map<std::map<std::string, ConfigValue>, std::shared_ptr<const EnvFactory>> factories;
    if (factory) factories.emplace(config, std::move(factory));
    std::vector<EnvSetup> setups(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& values = env_configs.empty() ? config : env_configs[i];
      auto it = factories.find(values);
      if (it == factories.end()) {
        it = factories.emplace(values, entry.make_factory(Config(values))).first;
      }
      setups[i].factory = it->second;
      if (!ranges.empty() && !ranges[i].empty()) {
        setups[i].config = Config(values);
        for (const auto& [key, low, high] : ranges[i]) setups[i].ranges.push_back({key, low, high});
      }
    }
    pool_ = std::make_unique<Pool>(std::move(setups), std::move(options));
  }

  // The pool, during a turn (Turn()): it throws once the pool is closed.
  Pool& pool() {
    if (!pool_) throw std::runtime_error("the pool is closed");
    return *pool_;
  }

  // A turn at the pool, for a call from Python (the GIL held). Calls take turns: Python
  // threads release the GIL while a recv or render waits, and XLA's threads call without it,
  // so without turns a close() from another thread would free the pool under a waiting
  // call. A call that finds another's turn waits for it with the GIL released; close()
  // waits for the call in progress (a recv ends when its envs have stepped), and a call
  // after it raises "the pool is closed".
  std::unique_lock<std::mutex> Turn() {
    std::unique_lock<std::mutex> turn(turn_, std::try_to_lock);
    if (!turn.owns_lock()) {
      py::gil_scoped_release release;
      turn.lock();
    }
    return turn;
  }

  void Send(const py::array& actions, const py::array& env_ids) {
    const auto turn = Turn();
    Pool& p = pool();
    const py::array_t<std::int64_t> ids = EnvIds(env_ids);
    const auto [a, dtype] = ActionArray(actions, p.spec().action, ids.shape(0), "actions");
    p.Send(a.data(), dtype, ids.data(), static_cast<int>(ids.shape(0)));
  }

  // Multi-player envs: the envs' actions, and the players' (players.env_id and one
  // array per EnvSpec::player_actions, one row per player).
  void SendPlayers(const py::array& actions, const py::array& env_ids,
                   const py::array& player_env_ids, const std::vector<py::array>& players) {
    const auto turn = Turn();
    Pool& p = pool();
    const py::array_t<std::int64_t> ids = EnvIds(env_ids);
    const py::array_t<std::int64_t> player_ids = EnvIds(player_env_ids);
    const EnvSpec& spec = p.spec();
    if (players.size() != spec.player_actions.size()) {
      throw std::invalid_argument("need " + std::to_string(spec.player_actions.size()) +
                                  " player action arrays, got " +
                                  std::to_string(players.size()));
    }
    const auto [a, dtype] = ActionArray(actions, spec.action, ids.shape(0), "actions");
    std::vector<py::array> kept;
    std::vector<const void*> data;
    std::vector<DType> dtypes;
    for (std::size_t k = 0; k < players.size(); ++k) {
      const ArraySpec& s = spec.player_actions[k];
      auto [array, t] = ActionArray(players[k], s, player_ids.shape(0), s.name.c_str());
      data.push_back(array.data());
      dtypes.push_back(t);
      kept.push_back(std::move(array));
    }
    p.SendPlayers(a.data(), dtype, ids.data(), static_cast<int>(ids.shape(0)), player_ids.data(),
                  static_cast<int>(player_ids.shape(0)), data, dtypes);
  }

  void SendReset(const py::array& env_ids, const py::object& seeds) {
    const auto turn = Turn();
    Pool& p = pool();
    const py::array_t<std::int64_t> ids = EnvIds(env_ids);
    std::vector<std::uint64_t> seed_list;
    if (!seeds.is_none()) {
      seed_list = seeds.cast<std::vector<std::uint64_t>>();
      if (seed_list.size() != static_cast<std::size_t>(ids.shape(0))) {
        throw std::invalid_argument("need one seed per env_id");
      }
    }
    p.SendReset(ids.data(), static_cast<int>(ids.shape(0)),
                seeds.is_none() ? nullptr : seed_list.data());
  }

  py::tuple Recv(double timeout) {
    const auto turn = Turn();
    Pool& p = pool();
    std::shared_ptr<Batch> batch;
    {
      py::gil_scoped_release release;
      batch = p.Recv(timeout, [] {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      });
    }
    const int rows = batch->size.load();
    py::object owner = py::cast(batch);
    py::object final_obs = py::none(), final_info = py::none(), final_elapsed = py::none();
    if (batch->keeps_final()) {
      final_obs = Views(batch->final_obs, rows, owner);
      final_info = Views(batch->final_info, rows, owner);
      final_elapsed = View(batch->final_elapsed_step, rows, owner);
    }
    py::object num_players = py::none();
    if (batch->num_players.capacity() > 0) num_players = View(batch->num_players, rows, owner);
    return py::make_tuple(Views(batch->obs, rows, owner), Views(batch->info, rows, owner),
                          View(batch->env_id, rows, owner), View(batch->reward, rows, owner),
                          View(batch->terminated, rows, owner), View(batch->truncated, rows, owner),
                          View(batch->elapsed_step, rows, owner), final_obs, final_info,
                          final_elapsed, num_players);
  }

  // Frames of `env_ids` as a (n, H, W, 3) uint8 view over the pool's frame
  // buffer (no copy); the GIL is released while the workers draw.
  py::array Render(const py::array& env_ids, int width, int height, int camera_id) {
    const auto turn = Turn();
    Pool& p = pool();
    const py::array_t<std::int64_t> ids = EnvIds(env_ids);
    const int n = static_cast<int>(ids.shape(0));
    std::shared_ptr<Column> frames;
    {
      py::gil_scoped_release release;
      frames = p.Render(ids.data(), n, width, height, camera_id);
    }
    return View(*frames, n, py::cast(frames));
  }

  void Close() {
    const auto turn = Turn();
    if (pool_) {
      py::gil_scoped_release release;
      pool_.reset();
      closed_ = true;
    }
  }
  bool closed() const { return closed_; }

  // The address of this pool's XLA target (core/xla_target.h), for envpool/core/xla.py.
  std::uintptr_t XlaTarget() {
    xla_target_.version = ENVPOOL_XLA_TARGET_VERSION;
    xla_target_.self = this;
    xla_target_.recv = &PyPool::XlaRecv;
    xla_target_.send = &PyPool::XlaSend;
    return reinterpret_cast<std::uintptr_t>(&xla_target_);
  }

 private:
  // The XLA target's calls: they run on XLA's threads, without the GIL.
  static const char* XlaRecv(void* self, void* const* outs, int n) {
    auto* me = static_cast<PyPool*>(self);
    // The turn covers the error message too (what the call returns points to it).
    const std::lock_guard<std::mutex> turn(me->turn_);
    try {
      Pool& p = me->pool();
      const std::shared_ptr<Batch> batch = p.Recv(-1.0, [] {});
      const int rows = batch->size.load();
      if (rows != p.options().batch_size) {
        throw std::runtime_error("xla recv: a batch of " + std::to_string(rows) +
                                 " envs, not batch_size (" +
                                 std::to_string(p.options().batch_size) +
                                 "): in sync mode, send every env at once");
      }
      std::vector<Column*> columns;
      for (Column& c : batch->obs) columns.push_back(&c);
      for (Column& c : batch->info) columns.push_back(&c);
      for (Column* c : {&batch->env_id, &batch->reward, &batch->terminated, &batch->truncated,
                        &batch->elapsed_step}) {
        columns.push_back(c);
      }
      if (static_cast<int>(columns.size()) != n) {
        throw std::invalid_argument("xla recv: " + std::to_string(n) + " outputs for " +
                                    std::to_string(columns.size()) + " arrays");
      }
      for (int k = 0; k < n; ++k) {
        std::memcpy(outs[k], columns[static_cast<std::size_t>(k)]->data(),
                    columns[static_cast<std::size_t>(k)]->row_bytes() *
                        static_cast<std::size_t>(rows));
      }
      return nullptr;
    } catch (const std::exception& e) {
      me->xla_error_ = e.what();
      return me->xla_error_.c_str();
    }
  }

  static const char* XlaSend(void* self, const void* actions, const std::int32_t* env_ids,
                             int n) {
    auto* me = static_cast<PyPool*>(self);
    // The turn covers the error message too (what the call returns points to it).
    const std::lock_guard<std::mutex> turn(me->turn_);
    try {
      Pool& p = me->pool();
      const std::vector<std::int64_t> ids(env_ids, env_ids + n);
      p.Send(actions, p.spec().action.dtype, ids.data(), n);
      return nullptr;
    } catch (const std::exception& e) {
      me->xla_error_ = e.what();
      return me->xla_error_.c_str();
    }
  }

  std::unique_ptr<Pool> pool_;
  std::mutex turn_;                  // whose turn at pool_ it is (Turn())
  std::atomic<bool> closed_{false};  // read without a turn
  EnvpoolXlaTarget xla_target_{};
  std::string xla_error_;  // the last XLA call's error (what its message points to)
};

// The C++ ABI of the compiler that built the module: informative only (no
// C++ object crosses modules), shown when a module is refused.
inline std::string CompilerAbi() {
#if defined(__GXX_ABI_VERSION)
  std::string abi = "gxx-abi-" + std::to_string(__GXX_ABI_VERSION);
#else
  std::string abi = "unknown-abi";
#endif
#if defined(_GLIBCXX_USE_CXX11_ABI)
  abi += "-cxx11abi-" + std::to_string(_GLIBCXX_USE_CXX11_ABI);
#endif
  return abi;
}

// Defines the module's surface over `registry` (the module's envs).
inline void DefinePoolModule(py::module_& m, Registry registry) {
  auto reg = std::make_shared<const Registry>(std::move(registry));
  m.attr("__envpool_version__") = ENVPOOL_VERSION;
  m.attr("__envpool_sdk_abi__") = ENVPOOL_SDK_ABI;
  m.attr("__envpool_compiler_abi__") = CompilerAbi();
  py::register_local_exception<TimeoutError>(m, "RecvTimeout", PyExc_TimeoutError);
  py::register_local_exception<ResetNeeded>(m, "ResetNeeded", PyExc_RuntimeError);

  m.def("env_names", [reg] {
    std::vector<std::string> names;
    for (const EnvEntry& e : *reg) names.push_back(e.name);
    return names;
  });
  m.def("default_config", [reg](const std::string& name) {
    return FindEntry(*reg, name).defaults.Values();
  });
  // The domain of each numeric keyword of `name` (core/config.h's KeywordDomain):
  // keyword -> {"min", "max", "min_open", "max_open", "allow_inf", "ordered"}.
  m.def("keyword_domains", [reg](const std::string& name) {
    py::dict out;
    for (const auto& [key, d] : FindEntry(*reg, name).defaults.Domains()) {
      py::dict domain;
      domain["min"] = d.min;
      domain["max"] = d.max;
      domain["min_open"] = d.min_open;
      domain["max_open"] = d.max_open;
      domain["allow_inf"] = d.allow_inf;
      domain["ordered"] = d.ordered;
      out[py::str(key)] = domain;
    }
    return out;
  });
  // A factory of `name` with `config`: what a pool of that configuration is
  // made from (an Atari ROM probed, a MuJoCo model compiled, ...), built once.
  // Its spec() is the spec dict, with "render": (height, width, fps) of the
  // frames the env draws at its own size and default view, or None when it
  // does not render; render_size(width, height, camera_id) the frame for
  // those arguments (None when it does not render). Passed to Pool(...,
  // factory=), the pool's envs of `config` share it instead of a new one.
  py::class_<EnvFactory, std::shared_ptr<EnvFactory>>(m, "Factory", py::module_local())
      .def("spec",
           [](const EnvFactory& f) {
             py::dict d = SpecToDict(f.Spec());
             d["render"] = RenderInfo(f.RenderSize(0, 0, -1));
             return d;
           })
      .def(
          "render_size",
          [](const EnvFactory& f, int width, int height, int camera_id) {
            return RenderInfo(f.RenderSize(width, height, camera_id));
          },
          py::arg("width") = 0, py::arg("height") = 0, py::arg("camera_id") = -1);
  m.def("factory", [reg](const std::string& name,
                         const std::map<std::string, ConfigValue>& config) {
    return std::shared_ptr<EnvFactory>(FindEntry(*reg, name).make_factory(Config(config)));
  });
  // factory(name, config).spec() and .render_size(...), each on a new factory.
  m.def("spec", [reg](const std::string& name, const std::map<std::string, ConfigValue>& config) {
    const std::unique_ptr<EnvFactory> factory = FindEntry(*reg, name).make_factory(Config(config));
    py::dict d = SpecToDict(factory->Spec());
    d["render"] = RenderInfo(factory->RenderSize(0, 0, -1));
    return d;
  });
  m.def(
      "render_size",
      [reg](const std::string& name, const std::map<std::string, ConfigValue>& config, int width,
            int height, int camera_id) -> py::object {
        return RenderInfo(FindEntry(*reg, name).make_factory(Config(config))->RenderSize(
            width, height, camera_id));
      },
      py::arg("name"), py::arg("config"), py::arg("width") = 0, py::arg("height") = 0,
      py::arg("camera_id") = -1);

  py::class_<Batch, std::shared_ptr<Batch>>(m, "Batch", py::module_local());
  py::class_<Column, std::shared_ptr<Column>>(m, "Frames", py::module_local());

  py::class_<PyPool>(m, "Pool", py::module_local())
      .def(py::init([reg](const std::string& name,
                          const std::map<std::string, ConfigValue>& config, int num_envs,
                          int batch_size, int num_threads, int max_episode_steps,
                          const std::string& autoreset_mode, std::vector<std::uint64_t> seeds,
                          int thread_affinity_offset,
                          const std::vector<std::map<std::string, ConfigValue>>& env_configs,
                          const std::vector<std::vector<std::tuple<std::string, double, double>>>&
                              ranges,
                          bool first_step_resets, std::shared_ptr<EnvFactory> factory,
                          bool stage_times) {
             PoolOptions o;
             o.num_envs = num_envs;
             o.batch_size = batch_size;
             o.num_threads = num_threads;
             o.max_episode_steps = max_episode_steps;
             o.autoreset = ParseAutoreset(autoreset_mode);
             o.seeds = std::move(seeds);
             o.thread_affinity_offset = thread_affinity_offset;
             o.first_step_resets = first_step_resets;
             o.stage_times = stage_times;
             return std::make_unique<PyPool>(FindEntry(*reg, name), config, env_configs, ranges,
                                             std::move(factory), std::move(o));
           }),
           py::arg("name"), py::arg("config"), py::arg("num_envs"), py::arg("batch_size") = 0,
           py::arg("num_threads") = 0, py::arg("max_episode_steps") = 0,
           py::arg("autoreset_mode") = "next_step", py::arg("seeds") = std::vector<std::uint64_t>{},
           py::arg("thread_affinity_offset") = -1,
           py::arg("env_configs") = std::vector<std::map<std::string, ConfigValue>>{},
           py::arg("ranges") = std::vector<std::vector<std::tuple<std::string, double, double>>>{},
           py::arg("first_step_resets") = true,
           py::arg("factory") = std::shared_ptr<EnvFactory>(), py::arg("stage_times") = false)
      .def_property_readonly("spec", [](PyPool& self) {
        const auto turn = self.Turn();
        return SpecToDict(self.pool().spec());
      })
      .def_property_readonly("num_envs", [](PyPool& self) {
        const auto turn = self.Turn();
        return self.pool().options().num_envs;
      })
      .def_property_readonly("batch_size", [](PyPool& self) {
        const auto turn = self.Turn();
        return self.pool().options().batch_size;
      })
      .def_property_readonly("num_threads", [](PyPool& self) {
        const auto turn = self.Turn();
        return self.pool().num_threads();
      })
      .def_property_readonly("closed", &PyPool::closed)
      .def("send", &PyPool::Send, py::arg("actions"), py::arg("env_ids"))
      .def("send_players", &PyPool::SendPlayers, py::arg("actions"), py::arg("env_ids"),
           py::arg("player_env_ids"), py::arg("players"))
      .def("send_reset", &PyPool::SendReset, py::arg("env_ids"), py::arg("seeds") = py::none())
      .def("recv", &PyPool::Recv, py::arg("timeout") = -1.0)
      .def("get_state", [](PyPool& self, int env_id) {
        const auto turn = self.Turn();
        return self.pool().GetState(env_id);
      })
      .def("set_state", [](PyPool& self, int env_id, const std::vector<double>& state) {
        const auto turn = self.Turn();
        self.pool().SetState(env_id, state);
      })
      .def("drawn", [](PyPool& self, int env_id) {
        const auto turn = self.Turn();
        return self.pool().Drawn(env_id);
      })
      .def("render", &PyPool::Render, py::arg("env_ids"), py::arg("width") = 0,
           py::arg("height") = 0, py::arg("camera_id") = -1)
      .def("stage_times",
           [](PyPool& self) {
             // [{stage: (seconds, entries)}] per thread, the calling thread's first.
             py::list threads;
             const auto turn = self.Turn();
             for (const StageTimes& t : self.pool().StageReport()) {
               py::dict stages;
               for (std::size_t k = 0; k < kStageNames.size(); ++k) {
                 stages[kStageNames[k]] = py::make_tuple(static_cast<double>(t.ns[k]) * 1e-9,
                                                         t.entries[k]);
               }
               threads.append(stages);
             }
             return threads;
           })
      .def("close", &PyPool::Close)
      .def("xla_target", &PyPool::XlaTarget);
}

}  // namespace envpool::bindings

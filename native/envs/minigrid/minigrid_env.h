// The native env "MiniGrid": the `minigrid` package's (3.2.0) levels on one grid-world
// engine (world.h), the level chosen by the env_name keyword (sail-sg EnvPool's config).
//
// Randomness: the package draws everything from self.np_random, numpy's default_rng(seed)
// after reset(seed=seed). This env owns that generator (envs/common/numpy_random.h),
// seeded through Env::Seed with the env's seed (the pool's seed + i, or reset(seed=...)'s),
// so env i of a pool made with seed s generates the levels of gymnasium.make(id) reset with
// seed s + i, and its later episodes (autoreset) those of the package's reset() without a
// seed, which continues the same generator. The pool's Rng is not used.
//
// Observations, as sail-sg EnvPool names them: "direction" (the agent's direction, 0..3;
// int32 arrays, as EnvPool's, under the package's space, Discrete(4) of int64: the task's
// space_dtypes),
// "image" (the package's obs["image"], agent_view_size^2 x 3 uint8), "mission" (the
// mission's bytes, zero-padded to 96); and "mission_tokens" (mission.h). Info: "agent_pos".
// The episode ends as the package's: terminated on the goal (reward 1 - 0.9 * step_count /
// max_steps), on lava, and per level; truncated once step_count reaches max_steps.
// render(): the package's rgb_array picture (picture.h), with its render keywords
// (tile_size, highlight, agent_pov).
//
// The observation keywords give what the package's wrappers give (pool-wide, since they
// change the spaces): obs_image "partial" (the package's obs["image"]), "full"
// (FullyObsWrapper), "rgb_partial" (RGBImgPartialObsWrapper(tile_size=obs_tile_size)),
// "rgb_full" (RGBImgObsWrapper(tile_size=obs_tile_size), with the highlight keyword); and
// img_obs (ImgObsWrapper on top: the image array alone, not a dict).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/common/draw/picture.h"
#include "envs/common/keywords.h"
#include "envs/common/numpy_random.h"
#include "envs/minigrid/babyai_levels.h"
#include "envs/minigrid/crossing.h"
#include "envs/minigrid/dist_shift.h"
#include "envs/minigrid/door_key.h"
#include "envs/minigrid/dynamic_obstacles.h"
#include "envs/minigrid/empty.h"
#include "envs/minigrid/fetch.h"
#include "envs/minigrid/four_rooms.h"
#include "envs/minigrid/go_to_door.h"
#include "envs/minigrid/go_to_object.h"
#include "envs/minigrid/key_corridor.h"
#include "envs/minigrid/lava_gap.h"
#include "envs/minigrid/level.h"
#include "envs/minigrid/locked_room.h"
#include "envs/minigrid/memory.h"
#include "envs/minigrid/mission.h"
#include "envs/minigrid/multi_room.h"
#include "envs/minigrid/obstructed_maze.h"
#include "envs/minigrid/picture.h"
#include "envs/minigrid/playground.h"
#include "envs/minigrid/put_near.h"
#include "envs/minigrid/red_blue_doors.h"
#include "envs/minigrid/unlock.h"
#include "envs/minigrid/wfc.h"
#include "envs/minigrid/world.h"

namespace envpool::minigrid {

class MiniGrid final : public Env {
 public:
  // obs_image's values (the wrapper whose image the "image" observation is).
  enum class ObsImage : std::uint8_t { kPartial, kFull, kRgbPartial, kRgbFull };

  struct Params : LevelParams {
    std::string obs_image;
    int obs_tile_size = 8;
    bool img_obs = false;
    int tile_size = Picture::kTile;
    bool highlight = true;
    bool agent_pov = false;
    ObsImage image_kind = ObsImage::kPartial;

    explicit Params(const Config& config) {
      Keys().Read(config, *this);
      if (obs_image == "partial") {
        image_kind = ObsImage::kPartial;
      } else if (obs_image == "full") {
        image_kind = ObsImage::kFull;
      } else if (obs_image == "rgb_partial") {
        image_kind = ObsImage::kRgbPartial;
      } else if (obs_image == "rgb_full") {
        image_kind = ObsImage::kRgbFull;
      } else {
        throw std::invalid_argument("obs_image must be 'partial', 'full', 'rgb_partial' or "
                                    "'rgb_full', got '" + obs_image + "'");
      }
      if (tile_size < 1 || tile_size > 1024) {
        throw std::invalid_argument("tile_size must be 1 to 1024 (pixels a square), got " +
                                    std::to_string(tile_size));
      }
      if (obs_tile_size < 1 || obs_tile_size > 1024) {
        throw std::invalid_argument("obs_tile_size must be 1 to 1024 (pixels a square), got " +
                                    std::to_string(obs_tile_size));
      }
      if (agent_view_size < 3 || agent_view_size % 2 == 0) {
        throw std::invalid_argument("agent_view_size must be odd and at least 3, got " +
                                    std::to_string(agent_view_size));
      }
      const bool babyai = babyai::IsBabyAI(env_name);
      if (max_steps < (babyai ? 0 : 1)) {
        throw std::invalid_argument(babyai ? "max_steps must be at least 0 (0: the level's)"
                                           : "max_steps must be at least 1");
      }
      if (babyai && (room_size < 3 || num_rows < 1 || num_cols < 1 || num_dists < 0 ||
                     num_objs < 2 || num_doors < 2 || num_doors > 4 || objs_per_room < 1 ||
                     objs_per_room > 9 || (select_by != "" && select_by != "color" &&
                                           select_by != "loc"))) {
        throw std::invalid_argument("BabyAI needs room_size >= 3, num_rows, num_cols >= 1, "
                                    "num_dists >= 0, num_objs >= 2, num_doors in 2..4, "
                                    "objs_per_room in 1..9, select_by '', 'color' or 'loc'");
      }
      if (babyai) {
        babyai::ColorFromName(first_color);
        babyai::ColorFromName(second_color);
      }
      if (obstacle_type != "lava" && obstacle_type != "wall") {
        throw std::invalid_argument("obstacle_type must be 'lava' or 'wall', got '" +
                                    obstacle_type + "'");
      }
      if ((env_name == "goto_object" || env_name == "put_near") && (num_objs < 2 || num_objs > 18)) {
        throw std::invalid_argument("num_objs must be 2 to 18 (distinct objects), got " +
                                    std::to_string(num_objs));
      }
      if (env_name == "multi_room" &&
          (min_num_rooms < 1 || max_num_rooms < min_num_rooms || max_room_size < 4)) {
        throw std::invalid_argument("MultiRoom needs 1 <= min_num_rooms <= max_num_rooms and "
                                    "max_room_size >= 4");
      }
      if (env_name == "memory" && (size < 7 || size % 2 == 0)) {
        throw std::invalid_argument("Memory needs an odd size of at least 7, got " +
                                    std::to_string(size));
      }
      if (IsObstructedMaze(env_name) &&
          (num_quarters < 1 || num_quarters > 4 || agent_room.first < 0 ||
           agent_room.first > 2 || agent_room.second < 0 || agent_room.second > 2)) {
        throw std::invalid_argument("ObstructedMaze needs num_quarters in 1..4 and agent_room "
                                    "in the 3x3 maze");
      }
      if (env_name == "fetch" && num_objs < 1) {
        throw std::invalid_argument("num_objs must be at least 1, got " +
                                    std::to_string(num_objs));
      }
      if (env_name == "key_corridor" &&
          (room_size < 3 || num_rows < 1 ||
           (obj_type != "ball" && obj_type != "key" && obj_type != "box"))) {
        throw std::invalid_argument("KeyCorridor needs room_size >= 3, num_rows >= 1 and "
                                    "obj_type 'ball', 'key' or 'box'");
      }
      const Pos grid = GridSize(*this);  // also checks env_name
      if (env_name != "key_corridor" && !babyai && (grid.x < 5 || grid.y < 5)) {
        throw std::invalid_argument("the grid (size, or width x height) must be at least 5x5, "
                                    "got " + std::to_string(grid.x) + "x" +
                                    std::to_string(grid.y));
      }
      if (env_name == "crossing" && (size % 2 == 0)) {
        throw std::invalid_argument("Crossing needs an odd size, got " + std::to_string(size));
      }
      if ((env_name == "empty" || env_name == "distshift" || env_name == "dynamic_obstacles") &&
          agent_start_pos.first >= 0 &&
          (agent_start_pos.first < 1 || agent_start_pos.second < 1 ||
           agent_start_pos.first > grid.x - 2 || agent_start_pos.second > grid.y - 2 ||
           agent_start_dir < 0 || agent_start_dir > 3)) {
        throw std::invalid_argument("agent_start_pos must be inside the walls and "
                                    "agent_start_dir in 0..3");
      }
    }
  };

  static Keywords<Params> Keys() {
    Keywords<Params> k;
    k.Add("env_name", std::string("empty"), &Params::env_name);
    k.Add("size", 8, &Params::size);
    k.Add("width", 9, &Params::width);
    k.Add("height", 7, &Params::height);
    k.Add("max_steps", 256, &Params::max_steps);
    k.Add("agent_view_size", 7, &Params::agent_view_size);
    k.Add("see_through_walls", false, &Params::see_through_walls);
    k.Add("agent_start_pos", Keywords<Params>::Range{1.0, 1.0}, &Params::agent_start_pos);
    k.Add("agent_start_dir", 0, &Params::agent_start_dir);
    k.Add("num_crossings", 1, &Params::num_crossings);
    k.Add("obstacle_type", std::string("lava"), &Params::obstacle_type);
    k.Add("strip2_row", 2, &Params::strip2_row);
    k.Add("n_obstacles", 4, &Params::n_obstacles);
    k.Add("room_size", 6, &Params::room_size);
    k.Add("num_rows", 3, &Params::num_rows);
    k.Add("obj_type", std::string("ball"), &Params::obj_type);
    k.Add("num_objs", 3, &Params::num_objs);
    k.Add("min_num_rooms", 2, &Params::min_num_rooms);
    k.Add("max_num_rooms", 6, &Params::max_num_rooms);
    k.Add("max_room_size", 10, &Params::max_room_size);
    k.Add("random_length", false, &Params::random_length);
    k.Add("key_in_box", true, &Params::key_in_box);
    k.Add("blocked", true, &Params::blocked);
    k.Add("agent_room", Keywords<Params>::Range{1.0, 1.0}, &Params::agent_room);
    k.Add("num_quarters", 4, &Params::num_quarters);
    k.Add("num_rooms_visited", 25, &Params::num_rooms_visited);
    k.Add("num_cols", 3, &Params::num_cols);
    k.Add("num_dists", 18, &Params::num_dists);
    k.Add("doors_open", false, &Params::doors_open);
    k.Add("debug", false, &Params::debug);
    k.Add("select_by", std::string(""), &Params::select_by);
    k.Add("first_color", std::string(""), &Params::first_color);
    k.Add("second_color", std::string(""), &Params::second_color);
    k.Add("num_doors", 2, &Params::num_doors);
    k.Add("objs_per_room", 1, &Params::objs_per_room);
    k.Add("start_carrying", false, &Params::start_carrying);
    k.Add("distractors", false, &Params::distractors);
    k.Add("wfc_config", std::string("MazeSimple"), &Params::wfc_config);
    k.Add("ensure_connected", true, &Params::ensure_connected);
    k.Add("_wfc_patterns", std::vector<double>{}, &Params::wfc_patterns);
    k.Add("obs_image", std::string("partial"), &Params::obs_image);
    k.Add("obs_tile_size", 8, &Params::obs_tile_size);
    k.Add("img_obs", false, &Params::img_obs);
    k.Add("tile_size", Picture::kTile, &Params::tile_size);
    k.Add("highlight", true, &Params::highlight);
    k.Add("agent_pov", false, &Params::agent_pov);
    return k;
  }
  static Config Defaults() { return Keys().Defaults(); }

  static EnvSpec MakeSpec(const Params& p) {
    EnvSpec spec;
    ArraySpec image = BoxSpec("image", DType::kUInt8, ImageShape(p), {0.0}, {255.0});
    if (p.img_obs) {  // ImgObsWrapper: observation_space.spaces["image"]
      spec.obs.push_back(std::move(image));
      spec.obs_layout = ObsLayout::kArray;
    } else {
      spec.obs.push_back(DiscreteSpec("direction", 4, DType::kInt32));
      spec.obs.push_back(std::move(image));
      spec.obs.push_back(BoxSpec("mission", DType::kUInt8, {MissionBytes(p)}, {0.0}, {255.0}));
      spec.obs.push_back(BoxSpec("mission_tokens", DType::kInt32, {MissionTokens(p)}, {0.0},
                                 {static_cast<double>(kVocabulary.size() - 1)}));
      spec.obs_layout = ObsLayout::kDict;
    }
    spec.action = DiscreteSpec("action", p.env_name == "dynamic_obstacles" ? 3 : 7,
                               DType::kInt32);
    spec.info.push_back(BoxSpec("agent_pos", DType::kInt32, {2}));
    spec.reward_low = p.env_name == "dynamic_obstacles" ? -1.0 : 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  // render(): the package's rgb_array frame, get_frame(highlight, tile_size, agent_pov)
  // (picture.h): the whole grid, (height x tile_size) x (width x tile_size), or with
  // agent_pov the agent's view, (agent_view_size x tile_size)^2; at 10 frames a second
  // (the package's render_fps).
  static FrameSize RenderSize(const Params& p, int width, int height, int camera_id) {
    const Pos grid = p.agent_pov ? Pos{p.agent_view_size, p.agent_view_size} : GridSize(p);
    return draw::FixedFrame("MiniGrid", grid.x * p.tile_size, grid.y * p.tile_size, 10.0, width,
                            height, camera_id);
  }

  void Render(int /*width*/, int /*height*/, int /*camera_id*/, std::uint8_t* out) override {
    if (params_.agent_pov) {
      picture_.DrawPov(world_, out);
    } else {
      picture_.DrawFull(world_, params_.highlight, out);
    }
  }

  // The world as numbers (envpool.tasks.minigrid.debug_states decodes them; no SetState):
  //   width, height, agent x, y, dir, step_count, max_steps,
  //   the carried object: WorldObj.encode (type, color, state; type 1: nothing) and its
  //   content's (type, color),
  //   the level's target object (the one its mission names, Cell::tag kTarget): x, y (-1,
  //   -1 when carried or absent), type, color (-1 when absent),
  //   the grid's encodings, x-major (width x height x 3), then each square's box content
  //   (type, color, 0; (1, 0, 0): none), x-major too,
  //   the mission's length in bytes, then its bytes.
  std::vector<double> GetState() const override {
    const Grid& g = world_.grid;
    std::vector<double> s = {static_cast<double>(g.Width()), static_cast<double>(g.Height()),
                             static_cast<double>(world_.agent_pos.x),
                             static_cast<double>(world_.agent_pos.y),
                             static_cast<double>(world_.agent_dir),
                             static_cast<double>(world_.step_count),
                             static_cast<double>(world_.max_steps)};
    const Cell& c = world_.carrying;
    for (const std::uint8_t v : c.Encode()) s.push_back(v);
    s.push_back(c.Empty() ? kEmpty : c.contains_type);
    s.push_back(c.Empty() ? 0 : c.contains_color);
    Pos target{-1, -1};
    const Cell* target_cell = c.tag == kTarget ? &c : nullptr;
    for (int x = 0; x < g.Width() && target_cell == nullptr; ++x) {
      for (int y = 0; y < g.Height() && target_cell == nullptr; ++y) {
        if (!g.Get(x, y).Empty() && g.Get(x, y).tag == kTarget) {
          target = {x, y};
          target_cell = &g.Get(x, y);
        }
      }
    }
    s.push_back(target.x);
    s.push_back(target.y);
    s.push_back(target_cell ? static_cast<double>(target_cell->type) : -1.0);
    s.push_back(target_cell ? static_cast<double>(target_cell->color) : -1.0);
    for (int x = 0; x < g.Width(); ++x) {
      for (int y = 0; y < g.Height(); ++y) {
        for (const std::uint8_t v : g.Get(x, y).Encode()) s.push_back(v);
      }
    }
    for (int x = 0; x < g.Width(); ++x) {
      for (int y = 0; y < g.Height(); ++y) {
        const Cell& cell = g.Get(x, y);
        const bool has = !cell.Empty() && cell.contains_type != kEmpty;
        s.push_back(has ? cell.contains_type : kEmpty);
        s.push_back(has ? cell.contains_color : 0);
        s.push_back(0);
      }
    }
    s.push_back(static_cast<double>(world_.mission.size()));
    for (const char ch : world_.mission) s.push_back(static_cast<unsigned char>(ch));
    return s;
  }

  explicit MiniGrid(const Params& p)
      : params_(p),
        level_(MakeLevel(p)),
        picture_(p.tile_size),
        obs_picture_(p.obs_tile_size),
        tokens_(static_cast<std::size_t>(MissionTokens(p)), 0) {
    world_.rng = &np_random_;
  }

  void Seed(std::uint64_t seed) override { np_random_.Seed(seed); }

  // MiniGridEnv.reset: a fresh grid, the level's _gen_grid, nothing carried.
  void Reset(Rng& /*rng*/) override {
    const Pos grid = GridSize(params_);
    world_.grid = Grid(grid.x, grid.y);
    world_.agent_pos = {-1, -1};
    world_.agent_dir = -1;
    world_.carrying = Cell();
    world_.step_count = 0;
    world_.max_steps = params_.max_steps;
    world_.agent_view_size = params_.agent_view_size;
    world_.see_through_walls = params_.see_through_walls;
    level_->Generate(world_);
    Tokenize(world_.mission, tokens_.data(), static_cast<int>(tokens_.size()));
    // A level whose reset() changes the world after making its observation (PutNext's
    // start_carrying): the package's obs["image"] is the one made before; its wrappers
    // observe the world after.
    reset_image_.clear();
    if (level_->ChangesAfterObservation()) {
      if (params_.image_kind == ObsImage::kPartial) {
        const int v = params_.agent_view_size;
        reset_image_.resize(static_cast<std::size_t>(v * v * 3));
        world_.Observe(reset_image_.data());
      }
      level_->FinishReset(world_);
    }
  }

  StepOutcome Step(const ActionView& action, Rng& /*rng*/) override {
    reset_image_.clear();
    const World::StepResult r = level_->Step(world_, action.Scalar<std::int32_t>());
    StepOutcome out;
    out.reward = r.reward;
    out.terminated = r.terminated;
    out.truncated = r.truncated;
    return out;
  }

  void Write(const Slot& slot) const override {
    WriteImage(slot.Obs<std::uint8_t>(params_.img_obs ? 0 : 1));
    std::int32_t* agent_pos = slot.Info<std::int32_t>(0);
    agent_pos[0] = world_.agent_pos.x;
    agent_pos[1] = world_.agent_pos.y;
    if (params_.img_obs) return;
    *slot.Obs<std::int32_t>(0) = world_.agent_dir;
    std::uint8_t* mission = slot.Obs<std::uint8_t>(2);
    const auto bytes = static_cast<std::size_t>(MissionBytes(params_));
    std::memset(mission, 0, bytes);
    std::memcpy(mission, world_.mission.data(), std::min(world_.mission.size(), bytes));
    std::memcpy(slot.Obs<std::int32_t>(3), tokens_.data(), tokens_.size() * sizeof(std::int32_t));
  }

 private:
  // The "image" observation's shape: the wrapped package env's observation_space["image"].
  static std::vector<std::int64_t> ImageShape(const Params& p) {
    const std::int64_t v = p.agent_view_size;
    const std::int64_t t = p.obs_tile_size;
    switch (p.image_kind) {
      case ObsImage::kFull: {
        const Pos grid = GridSize(p);
        return {grid.x, grid.y, 3};
      }
      case ObsImage::kRgbPartial:
        return {v * t, v * t, 3};
      case ObsImage::kRgbFull: {
        const Pos grid = GridSize(p);
        return {grid.y * t, grid.x * t, 3};
      }
      default:
        return {v, v, 3};
    }
  }

  void WriteImage(std::uint8_t* image) const {
    switch (params_.image_kind) {
      case ObsImage::kFull:
        world_.ObserveFull(image);
        break;
      case ObsImage::kRgbPartial:  // get_frame(tile_size=obs_tile_size, agent_pov=True)
        obs_picture_.DrawPov(world_, image);
        break;
      case ObsImage::kRgbFull:  // get_frame(highlight=highlight, tile_size=obs_tile_size)
        obs_picture_.DrawFull(world_, params_.highlight, image);
        break;
      default:
        if (reset_image_.empty()) {
          world_.Observe(image);
        } else {
          std::memcpy(image, reset_image_.data(), reset_image_.size());
        }
        break;
    }
  }

  // obs["mission"]'s and obs["mission_tokens"]' sizes (BabyAI's missions are longer).
  static std::int64_t MissionBytes(const LevelParams& p) {
    return babyai::IsBabyAI(p.env_name) ? kBabyAIMissionBytes : kMissionBytes;
  }
  static std::int64_t MissionTokens(const LevelParams& p) {
    return babyai::IsBabyAI(p.env_name) ? kBabyAIMissionTokens : kMissionTokens;
  }

  // The grid's width and height for the level (throws for an unknown env_name).
  static Pos GridSize(const LevelParams& p) {
    if (babyai::IsBabyAI(p.env_name)) return babyai::BabyAIGridSize(p);
    if (p.env_name == "distshift") return {p.width, p.height};
    if (p.env_name == "red_blue_door") return {2 * p.size, p.size};
    if (p.env_name == "four_rooms" || p.env_name == "playground") return {19, 19};
    if (p.env_name == "multi_room") return {25, 25};
    if (p.env_name == "unlock" || p.env_name == "unlock_pickup" ||
        p.env_name == "blocked_unlock_pickup") {
      return UnlockLevel::GridSize();
    }
    if (p.env_name == "key_corridor") return KeyCorridorLevel::GridSize(p);
    if (IsObstructedMaze(p.env_name)) return ObstructedMazeLevel::GridSize(p);
    if (p.env_name == "empty" || p.env_name == "doorkey" || p.env_name == "lava_gap" ||
        p.env_name == "crossing" || p.env_name == "dynamic_obstacles" ||
        p.env_name == "goto_door" || p.env_name == "goto_object" || p.env_name == "fetch" ||
        p.env_name == "put_near" || p.env_name == "memory" || p.env_name == "locked_room" ||
        p.env_name == "wfc") {
      return {p.size, p.size};
    }
    throw std::invalid_argument("unknown MiniGrid env_name '" + p.env_name + "'");
  }

  static bool IsObstructedMaze(const std::string& name) {
    return name == "obstructed_maze_1dlhb" || name == "obstructed_maze_full" ||
           name == "obstructed_maze_full_v1";
  }

  static std::unique_ptr<Level> MakeLevel(const LevelParams& p) {
    if (babyai::IsBabyAI(p.env_name)) return babyai::MakeBabyAILevel(p);
    if (p.env_name == "empty") return std::make_unique<EmptyLevel>(p);
    if (p.env_name == "doorkey") return std::make_unique<DoorKeyLevel>();
    if (p.env_name == "four_rooms") return std::make_unique<FourRoomsLevel>();
    if (p.env_name == "lava_gap") return std::make_unique<LavaGapLevel>(p);
    if (p.env_name == "crossing") return std::make_unique<CrossingLevel>(p);
    if (p.env_name == "distshift") return std::make_unique<DistShiftLevel>(p);
    if (p.env_name == "red_blue_door") return std::make_unique<RedBlueDoorsLevel>(p);
    if (p.env_name == "key_corridor") return std::make_unique<KeyCorridorLevel>(p);
    if (p.env_name == "goto_door") return std::make_unique<GoToDoorLevel>();
    if (p.env_name == "multi_room") return std::make_unique<MultiRoomLevel>(p);
    if (p.env_name == "memory") return std::make_unique<MemoryLevel>(p);
    if (p.env_name == "locked_room") return std::make_unique<LockedRoomLevel>();
    if (p.env_name == "playground") return std::make_unique<PlaygroundLevel>();
    if (IsObstructedMaze(p.env_name)) return std::make_unique<ObstructedMazeLevel>(p);
    if (p.env_name == "wfc") return std::make_unique<WfcLevel>(p, p.wfc_patterns);
    if (p.env_name == "goto_object") return std::make_unique<GoToObjectLevel>(p);
    if (p.env_name == "fetch") return std::make_unique<FetchLevel>(p);
    if (p.env_name == "put_near") return std::make_unique<PutNearLevel>(p);
    if (p.env_name == "unlock" || p.env_name == "unlock_pickup" ||
        p.env_name == "blocked_unlock_pickup") {
      return std::make_unique<UnlockLevel>(p);
    }
    return std::make_unique<DynamicObstaclesLevel>(p);
  }

  Params params_;
  std::unique_ptr<Level> level_;
  NumpyGenerator np_random_;
  World world_;
  Picture picture_;  // render()'s tiles, cached per env
  // The pixel observations' tiles (obs_tile_size), cached per env; drawn in Write, which
  // changes nothing but this cache.
  mutable Picture obs_picture_;
  std::vector<std::int32_t> tokens_;
  std::vector<std::uint8_t> reset_image_;  // obs["image"] kept across FinishReset
};

}  // namespace envpool::minigrid

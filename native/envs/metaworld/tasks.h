// The Meta-World v3 tasks of this package, by their official names (metaworld's
// ALL_V3_ENVIRONMENTS keys); a task's index is its place in that dict, the info's task_id.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/metaworld/assembly.h"
#include "envs/metaworld/basketball.h"
#include "envs/metaworld/bin_picking.h"
#include "envs/metaworld/box_close.h"
#include "envs/metaworld/button_press.h"
#include "envs/metaworld/button_press_topdown.h"
#include "envs/metaworld/coffee.h"
#include "envs/metaworld/dial_turn.h"
#include "envs/metaworld/disassemble.h"
#include "envs/metaworld/door_close.h"
#include "envs/metaworld/door_lock.h"
#include "envs/metaworld/door_open.h"
#include "envs/metaworld/drawer_close.h"
#include "envs/metaworld/drawer_open.h"
#include "envs/metaworld/faucet.h"
#include "envs/metaworld/hammer.h"
#include "envs/metaworld/hand_insert.h"
#include "envs/metaworld/handle_press.h"
#include "envs/metaworld/handle_pull.h"
#include "envs/metaworld/lever_pull.h"
#include "envs/metaworld/peg_insert_side.h"
#include "envs/metaworld/peg_unplug_side.h"
#include "envs/metaworld/pick_out_of_hole.h"
#include "envs/metaworld/pick_place.h"
#include "envs/metaworld/plate_slide.h"
#include "envs/metaworld/push.h"
#include "envs/metaworld/push_back.h"
#include "envs/metaworld/push_wall.h"
#include "envs/metaworld/reach.h"
#include "envs/metaworld/sawyer.h"
#include "envs/metaworld/shelf_place.h"
#include "envs/metaworld/soccer.h"
#include "envs/metaworld/stick.h"
#include "envs/metaworld/sweep.h"
#include "envs/metaworld/sweep_into.h"
#include "envs/metaworld/window.h"

namespace envpool::metaworld {

// metaworld.env_dict.ALL_V3_ENVIRONMENTS, in its order.
inline const std::vector<std::string>& AllV3Tasks() {
  static const std::vector<std::string> names = {
      "assembly-v3", "basketball-v3", "bin-picking-v3", "box-close-v3",
      "button-press-topdown-v3", "button-press-topdown-wall-v3", "button-press-v3",
      "button-press-wall-v3", "coffee-button-v3", "coffee-pull-v3", "coffee-push-v3",
      "dial-turn-v3", "disassemble-v3", "door-close-v3", "door-lock-v3", "door-open-v3",
      "door-unlock-v3", "hand-insert-v3", "drawer-close-v3", "drawer-open-v3",
      "faucet-open-v3", "faucet-close-v3", "hammer-v3", "handle-press-side-v3",
      "handle-press-v3", "handle-pull-side-v3", "handle-pull-v3", "lever-pull-v3",
      "pick-place-wall-v3", "pick-out-of-hole-v3", "pick-place-v3", "plate-slide-v3",
      "plate-slide-side-v3", "plate-slide-back-v3", "plate-slide-back-side-v3",
      "peg-insert-side-v3", "peg-unplug-side-v3", "soccer-v3", "stick-push-v3",
      "stick-pull-v3", "push-v3", "push-wall-v3", "push-back-v3", "reach-v3",
      "reach-wall-v3", "shelf-place-v3", "sweep-into-v3", "sweep-v3", "window-open-v3",
      "window-close-v3"};
  return names;
}

inline std::unique_ptr<SawyerTask> MakeTask(const std::string& name) {
  if (name == "reach-v3") return std::make_unique<Reach<false>>();
  if (name == "reach-wall-v3") return std::make_unique<Reach<true>>();
  if (name == "push-v3") return std::make_unique<Push>();
  if (name == "pick-place-v3") return std::make_unique<PickPlace>();
  if (name == "door-open-v3") return std::make_unique<DoorOpen>();
  if (name == "drawer-open-v3") return std::make_unique<DrawerOpen>();
  if (name == "drawer-close-v3") return std::make_unique<DrawerClose>();
  if (name == "button-press-topdown-v3") return std::make_unique<ButtonPressTopdown<false>>();
  if (name == "button-press-topdown-wall-v3") {
    return std::make_unique<ButtonPressTopdown<true>>();
  }
  if (name == "window-open-v3") return std::make_unique<Window<false>>();
  if (name == "window-close-v3") return std::make_unique<Window<true>>();
  if (name == "peg-insert-side-v3") return std::make_unique<PegInsertSide>();
  if (name == "button-press-v3") return std::make_unique<ButtonPress<false>>();
  if (name == "button-press-wall-v3") return std::make_unique<ButtonPress<true>>();
  if (name == "door-close-v3") return std::make_unique<DoorClose>();
  if (name == "door-lock-v3") return std::make_unique<DoorLock<false>>();
  if (name == "door-unlock-v3") return std::make_unique<DoorLock<true>>();
  if (name == "handle-press-side-v3") return std::make_unique<HandlePress<true>>();
  if (name == "handle-press-v3") return std::make_unique<HandlePress<false>>();
  if (name == "handle-pull-side-v3") return std::make_unique<HandlePull<true>>();
  if (name == "handle-pull-v3") return std::make_unique<HandlePull<false>>();
  if (name == "plate-slide-v3") return std::make_unique<PlateSlide<false, false>>();
  if (name == "plate-slide-side-v3") return std::make_unique<PlateSlide<false, true>>();
  if (name == "plate-slide-back-v3") return std::make_unique<PlateSlide<true, false>>();
  if (name == "plate-slide-back-side-v3") return std::make_unique<PlateSlide<true, true>>();
  if (name == "assembly-v3") return std::make_unique<Assembly>();
  if (name == "basketball-v3") return std::make_unique<Basketball>();
  if (name == "bin-picking-v3") return std::make_unique<BinPicking>();
  if (name == "box-close-v3") return std::make_unique<BoxClose>();
  if (name == "disassemble-v3") return std::make_unique<Disassemble>();
  if (name == "hammer-v3") return std::make_unique<Hammer>();
  if (name == "pick-out-of-hole-v3") return std::make_unique<PickOutOfHole>();
  if (name == "shelf-place-v3") return std::make_unique<ShelfPlace>();
  if (name == "soccer-v3") return std::make_unique<Soccer>();
  if (name == "stick-push-v3") return std::make_unique<Stick<true>>();
  if (name == "stick-pull-v3") return std::make_unique<Stick<false>>();
  if (name == "sweep-into-v3") return std::make_unique<SweepInto>();
  if (name == "coffee-button-v3") return std::make_unique<CoffeeButton>();
  if (name == "coffee-pull-v3") return std::make_unique<CoffeeMug<true>>();
  if (name == "coffee-push-v3") return std::make_unique<CoffeeMug<false>>();
  if (name == "dial-turn-v3") return std::make_unique<DialTurn>();
  if (name == "hand-insert-v3") return std::make_unique<HandInsert>();
  if (name == "faucet-open-v3") return std::make_unique<Faucet<false>>();
  if (name == "faucet-close-v3") return std::make_unique<Faucet<true>>();
  if (name == "lever-pull-v3") return std::make_unique<LeverPull>();
  if (name == "pick-place-wall-v3") return std::make_unique<PickPlaceWall>();
  if (name == "peg-unplug-side-v3") return std::make_unique<PegUnplugSide>();
  if (name == "push-wall-v3") return std::make_unique<PushWall>();
  if (name == "push-back-v3") return std::make_unique<PushBack>();
  if (name == "sweep-v3") return std::make_unique<Sweep>();
  throw std::runtime_error("Unknown MetaWorld task_name: " + name +
                           " (the names are metaworld's ALL_V3_ENVIRONMENTS keys, "
                           "envpool.tasks.metaworld.TASKS: reach-v3, push-v3, ...)");
}

inline int TaskIndex(const std::string& name) {
  const std::vector<std::string>& names = AllV3Tasks();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  throw std::runtime_error("Unknown MetaWorld task_name: " + name);
}

}  // namespace envpool::metaworld

// Walker2d-v4 / -v5 (gymnasium/envs/mujoco/walker2d_v{4,5}.py): the Hopper
// task of hopper.h with walker2d.xml (v5: walker2d_v5.xml), the (0.8, 2.0)
// height and (-1, 1) angle ranges, and no state-range test.
#pragma once

#include "envs/mujoco/hopper.h"

namespace envpool::mujoco {

template <int V>
using Walker2d = HopperWalker<V, true>;

}  // namespace envpool::mujoco

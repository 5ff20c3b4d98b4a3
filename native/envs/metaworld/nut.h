// What assembly-v3 and disassemble-v3 (metaworld/envs/sawyer_assembly_peg_v3.py and
// sawyer_disassemble_peg_v3.py) share: the model with the nut (its wrench) and the peg, the
// observed nut, the draw, and the first half of compute_reward.
#pragma once

#include <vector>

#include "envs/metaworld/sawyer.h"

namespace envpool::metaworld {

class NutTask : public SawyerTask {
 public:
  static constexpr double kHandleLength = 0.02;  // WRENCH_HANDLE_LENGTH

  // Redrawn while the nut and the goal are closer than 0.1 in x-y.
  std::vector<double> DrawRandVec(Sawyer& env) const override { return env.RandVecApart(0.1); }

  // The nut's site RoundNut-8 and its body's quaternion.
  int Objects(const Sawyer& env, double* out) const override {
    return env.SitePosBodyQuat(env.Id(mjOBJ_SITE, "RoundNut-8"), env.Id(mjOBJ_BODY, "RoundNut"),
                               out);
  }

 protected:
  struct Common {
    Vec3 wrench_center;
    double reward_quat;
    Num reward_grab;
  };
  // The wrench's center (site RoundNut), _reward_quat, and the caging reward of the wrench
  // with its x at the hand's when within half the handle's length.
  static Common Rewards(const Sawyer& env, const double* obs, const float* action,
                        bool medium_density) {
    const Vec3 wrench_threshed = Threshed(obs, obs + 4, kHandleLength / 2.0);
    return {env.SitePos(env.Id(mjOBJ_SITE, "RoundNut")),
            QuatReward(env, obs + 7, {0.707, 0, 0, 0.707}, 0.4),
            env.GripperCagingReward(action, wrench_threshed.data(), 0.015, 0.02, 0.01, 0.01, 1.0,
                                    !medium_density, medium_density)};
  }
};

}  // namespace envpool::metaworld

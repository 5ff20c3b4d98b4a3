// MuJoCo Playground's Berkeley Humanoid joystick tasks (playground 0.2.0,
// mujoco_playground/_src/locomotion/berkeley_humanoid/joystick.py over base.py):
// BerkeleyHumanoidJoystickFlatTerrain and BerkeleyHumanoidJoystickRoughTerrain, the same code
// on two scenes (xmls/scene_mjx_feetonly_flat_terrain.xml, ..._rough_terrain.xml). The task's
// code is humanoid_joystick_base.h's, with this robot's constants (berkeley_humanoid_constants.py
// and Joystick's default_config() and _post_init).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "envs/playground/humanoid_joystick_base.h"

namespace envpool::playground {

struct BerkeleyHumanoidRobot {
  static constexpr const char* kName = "Berkeley Humanoid";
  // Its randomize.py (domain_randomization.h).
  static constexpr dr::Robot kDrRobot = dr::Robot::kBerkeleyHumanoid;
  static constexpr int kNu = 12;
  static constexpr bool kT1Rules = false;
  // noise_config.scales: hip_pos, kfe_pos, ffe_pos, faa_pos by joint (hip_ids 0, 1, 2, 6, 7,
  // 8; kfe_ids 3, 9; ffe_ids 4, 10; faa_ids 5, 11).
  static constexpr bool kNoisePerJointGroup = true;
  static constexpr std::array<int, kNu> kJointGroup = {0, 0, 0, 1, 2, 3, 0, 0, 0, 1, 2, 3};
  // default_config().
  static constexpr double kActionScale = 0.5;
  static constexpr double kTrackingSigma = 0.5;
  static constexpr double kMaxFootHeight = 0.1;
  static constexpr double kBaseHeightTarget = 0.5;
  static constexpr double kPushMagnitudeMax = 2.0;
  static constexpr double kLinVelY = 1.0;
  // reset: gait_freq = U(1.25, 1.5).
  static constexpr double kGaitFreqMax = 1.5;
  // The pose reward's weights (left leg, right leg).
  static constexpr std::array<float, kNu> kPoseWeights = {
      1.0F, 1.0F, 0.01F, 0.01F, 1.0F, 1.0F, 1.0F, 1.0F, 0.01F, 0.01F, 1.0F, 1.0F};
  static constexpr std::array<const char*, 4> kHipJoints = {"LL_HR", "LL_HAA", "LR_HR",
                                                            "LR_HAA"};
  static constexpr std::array<const char*, 2> kKneeJoints = {"LL_KFE", "LR_KFE"};
  static constexpr std::array<const char*, 2> kFeetSites = {"l_foot", "r_foot"};
  // FEET_GEOMS' floor contact sensors, one per foot.
  static std::vector<std::string> FloorSensors(int foot) {
    return {foot == 0 ? "l_foot1_floor_found" : "r_foot1_floor_found"};
  }
  // reward_config.scales in its order (the info's order) with the defaults.
  static constexpr std::array<humanoid::TermScale, 21> kScales = {{
      {humanoid::kTrackingLinVel, 1.0},      {humanoid::kTrackingAngVel, 0.5},
      {humanoid::kLinVelZ, 0.0},             {humanoid::kAngVelXy, -0.15},
      {humanoid::kOrientation, -1.0},        {humanoid::kBaseHeight, 0.0},
      {humanoid::kTorques, -2.5e-5},         {humanoid::kActionRate, -0.01},
      {humanoid::kEnergy, 0.0},              {humanoid::kFeetClearance, 0.0},
      {humanoid::kFeetAirTime, 2.0},         {humanoid::kFeetSlip, -0.25},
      {humanoid::kFeetHeight, 0.0},          {humanoid::kFeetPhase, 1.0},
      {humanoid::kStandStill, 0.0},          {humanoid::kAlive, 0.0},
      {humanoid::kTermination, -1.0},        {humanoid::kJointDeviationKnee, -0.1},
      {humanoid::kJointDeviationHip, -0.25}, {humanoid::kDofPosLimits, -1.0},
      {humanoid::kPose, -1.0},
  }};
  // _get_reward's dict order (the order of the reward's sum).
  static constexpr std::array<humanoid::Term, 21> kRewardOrder = {
      humanoid::kTrackingLinVel,     humanoid::kTrackingAngVel, humanoid::kLinVelZ,
      humanoid::kAngVelXy,           humanoid::kOrientation,    humanoid::kBaseHeight,
      humanoid::kTorques,            humanoid::kActionRate,     humanoid::kEnergy,
      humanoid::kFeetSlip,           humanoid::kFeetClearance,  humanoid::kFeetHeight,
      humanoid::kFeetAirTime,        humanoid::kFeetPhase,      humanoid::kAlive,
      humanoid::kTermination,        humanoid::kStandStill,     humanoid::kJointDeviationHip,
      humanoid::kJointDeviationKnee, humanoid::kDofPosLimits,   humanoid::kPose};
};

using BerkeleyHumanoidJoystick = HumanoidJoystick<BerkeleyHumanoidRobot>;

}  // namespace envpool::playground

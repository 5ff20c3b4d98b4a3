// MuJoCo Playground's Booster T1 joystick tasks (playground 0.2.0,
// mujoco_playground/_src/locomotion/t1/joystick.py over base.py): T1JoystickFlatTerrain and
// T1JoystickRoughTerrain, the same code on two scenes (xmls/scene_mjx_feetonly_flat_terrain.xml,
// ..._rough_terrain.xml). The task's code is humanoid_joystick_base.h's with T1's rules
// (kT1Rules) and this robot's constants (t1_constants.py and Joystick's default_config() and
// _post_init).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "envs/playground/humanoid_joystick_base.h"

namespace envpool::playground {

struct T1Robot {
  static constexpr const char* kName = "Booster T1";
  // Its randomize.py (domain_randomization.h).
  static constexpr dr::Robot kDrRobot = dr::Robot::kT1;
  static constexpr int kNu = 23;
  static constexpr bool kT1Rules = true;
  // noise_config.scales.joint_pos for every joint.
  static constexpr bool kNoisePerJointGroup = false;
  // default_config().
  static constexpr double kActionScale = 1.0;
  static constexpr double kTrackingSigma = 0.25;
  static constexpr double kMaxFootHeight = 0.12;
  static constexpr double kBaseHeightTarget = 0.665;
  static constexpr double kPushMagnitudeMax = 1.0;
  static constexpr double kLinVelY = 0.8;
  // reset: gait_freq = U(1.25, 1.75).
  static constexpr double kGaitFreqMax = 1.75;
  // The pose reward's weights (head, left arm, right arm, waist, left leg, right leg).
  static constexpr std::array<float, kNu> kPoseWeights = {
      1.0F, 1.0F, 0.1F, 1.0F, 1.0F, 1.0F,  0.1F, 1.0F, 1.0F, 1.0F, 1.0F, 0.01F,
      1.0F, 1.0F, 0.01F, 1.0F, 1.0F, 0.01F, 1.0F, 1.0F, 0.01F, 1.0F, 1.0F};
  static constexpr std::array<const char*, 4> kHipJoints = {
      "Left_Hip_Roll", "Left_Hip_Yaw", "Right_Hip_Roll", "Right_Hip_Yaw"};
  static constexpr std::array<const char*, 2> kKneeJoints = {"Left_Knee_Pitch",
                                                             "Right_Knee_Pitch"};
  static constexpr std::array<const char*, 2> kFeetSites = {"left_foot", "right_foot"};
  // Each foot's four floor contact sensors (the foot touches where any of them reads > 0).
  static std::vector<std::string> FloorSensors(int foot) {
    const std::string side = foot == 0 ? "left" : "right";
    std::vector<std::string> names;
    for (int i = 1; i <= 4; ++i) names.push_back(side + "_foot_" + std::to_string(i) + "_floor_found");
    return names;
  }
  // reward_config.scales in its order (the info's order) with the defaults.
  static constexpr std::array<humanoid::TermScale, 25> kScales = {{
      {humanoid::kTrackingLinVel, 1.0},     {humanoid::kTrackingAngVel, 0.5},
      {humanoid::kLinVelZ, 0.0},            {humanoid::kAngVelXy, -0.15},
      {humanoid::kOrientation, -1.0},       {humanoid::kBaseHeight, 0.0},
      {humanoid::kTorques, 0.0},            {humanoid::kActionRate, 0.0},
      {humanoid::kEnergy, 0.0},             {humanoid::kDofAcc, 0.0},
      {humanoid::kDofVel, 0.0},             {humanoid::kFeetClearance, 0.0},
      {humanoid::kFeetAirTime, 2.0},        {humanoid::kFeetSlip, -0.25},
      {humanoid::kFeetHeight, 0.0},         {humanoid::kFeetPhase, 1.0},
      {humanoid::kStandStill, 0.0},         {humanoid::kAlive, 0.25},
      {humanoid::kTermination, 0.0},        {humanoid::kJointDeviationKnee, -0.1},
      {humanoid::kJointDeviationHip, -0.1}, {humanoid::kDofPosLimits, -1.0},
      {humanoid::kPose, -1.0},              {humanoid::kFeetDistance, -1.0},
      {humanoid::kCollision, -1.0},
  }};
  // _get_reward's dict order (the order of the reward's sum).
  static constexpr std::array<humanoid::Term, 25> kRewardOrder = {
      humanoid::kTrackingLinVel,    humanoid::kTrackingAngVel,     humanoid::kLinVelZ,
      humanoid::kAngVelXy,          humanoid::kOrientation,        humanoid::kBaseHeight,
      humanoid::kTorques,           humanoid::kActionRate,         humanoid::kEnergy,
      humanoid::kDofAcc,            humanoid::kDofVel,             humanoid::kFeetSlip,
      humanoid::kFeetClearance,     humanoid::kFeetHeight,         humanoid::kFeetAirTime,
      humanoid::kFeetPhase,         humanoid::kAlive,              humanoid::kTermination,
      humanoid::kStandStill,        humanoid::kCollision,          humanoid::kJointDeviationHip,
      humanoid::kJointDeviationKnee, humanoid::kDofPosLimits,      humanoid::kPose,
      humanoid::kFeetDistance};
};

using T1Joystick = HumanoidJoystick<T1Robot>;

}  // namespace envpool::playground

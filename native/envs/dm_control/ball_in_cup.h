// Ball in cup: dm_control/suite/ball_in_cup.py (catch): swing the ball on its
// string into the cup; reward 1 while it is inside.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "envs/dm_control/dm_control_env.h"

namespace envpool::dm_control {

class BallInCup final : public DmcEnv {
 public:
  struct Params : CommonParams {
    explicit Params(const Config& c) : CommonParams(c) {
      if (task != "catch") throw std::invalid_argument("ball_in_cup has no task '" + task + "'");
    }
  };

  // control_timestep .02 over the model's .002 s step: 10 physics steps.
  static Config Defaults() { return dm_control::Defaults(10, "catch"); }

  static ObsKeys Keys(const Params& p) {
    return {{"position", p.model->nq}, {"velocity", p.model->nv}};
  }
  static EnvSpec MakeSpec(const Params& p) { return DmcSpec(p, Keys(p)); }

  explicit BallInCup(const Params& p)
      : DmcEnv(p, Keys(p)),
        ball_x_(QposAdr("ball_x")),
        ball_z_(QposAdr("ball_z")),
        target_(Id(mjOBJ_SITE, "target")),
        ball_body_(Id(mjOBJ_BODY, "ball")),
        ball_geom_(Id(mjOBJ_GEOM, "ball")) {}

 protected:
  // BallInCup.get_observation: position(), velocity().
  void Observe(double* const* obs) const override {
    std::copy(d_->qpos, d_->qpos + m_->nq, obs[0]);
    std::copy(d_->qvel, d_->qvel + m_->nv, obs[1]);
  }

  // BallInCup.initialize_episode: the ball at x ~ U[-.2, .2), z ~ U[.2, .5),
  // redrawn (after Physics.after_reset) while anything is in contact.
  void InitializeEpisode(Rng& rng) override {
    bool penetrating = true;
    while (penetrating) {
      d_->qpos[ball_x_] = rng.Uniform(-.2, .2);
      d_->qpos[ball_z_] = rng.Uniform(.2, .5);
      AfterReset();
      penetrating = d_->ncon > 0;
    }
  }

  // Physics.in_target: all(|site_xpos['target', [x, z]] - xpos['ball', [x, z]]|
  // < site_size['target', [0, 2]] - geom_size['ball', 0]).
  double GetReward() override {
    const double ball_size = m_->geom_size[3 * ball_geom_];
    bool inside = true;
    for (int i : {0, 2}) {
      const double ball_to_target = d_->site_xpos[3 * target_ + i] - d_->xpos[3 * ball_body_ + i];
      inside = inside && std::abs(ball_to_target) < m_->site_size[3 * target_ + i] - ball_size;
    }
    return inside ? 1.0 : 0.0;
  }

 private:
  int ball_x_, ball_z_, target_, ball_body_, ball_geom_;
};

}  // namespace envpool::dm_control

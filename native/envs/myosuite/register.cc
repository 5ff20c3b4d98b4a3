// The MyoSuite envs of the native registry (see register.h).
#include "envs/myosuite/register.h"

#include "core/registry.h"
#include "envs/common/pixel_observation.h"
#include "envs/myosuite/baoding.h"
#include "envs/myosuite/bimanual.h"
#include "envs/myosuite/chase_tag.h"
#include "envs/myosuite/die_reorient.h"
#include "envs/myosuite/key_turn.h"
#include "envs/myosuite/obj_hold.h"
#include "envs/myosuite/osl_run.h"
#include "envs/myosuite/pen_twirl.h"
#include "envs/myosuite/pose.h"
#include "envs/myosuite/reach.h"
#include "envs/myosuite/relocate.h"
#include "envs/myosuite/reorient.h"
#include "envs/myosuite/table_tennis.h"
#include "envs/myosuite/soccer.h"
#include "envs/myosuite/track.h"
#include "envs/myosuite/walk.h"

namespace envpool::myosuite {

void Register(Registry& registry) {
  registry.push_back(MakeEntry<PixelObservation<Reach>>("MyoReach"));
  registry.push_back(MakeEntry<PixelObservation<Pose>>("MyoPose"));
  registry.push_back(MakeEntry<PixelObservation<KeyTurn>>("MyoKeyTurn"));
  registry.push_back(MakeEntry<PixelObservation<ObjHold>>("MyoObjHold"));
  registry.push_back(MakeEntry<PixelObservation<PenTwirl>>("MyoPenTwirl"));
  registry.push_back(MakeEntry<PixelObservation<Reorient>>("MyoReorient"));
  registry.push_back(MakeEntry<PixelObservation<Track>>("MyoTrack"));
  registry.push_back(MakeEntry<PixelObservation<LegReach>>("MyoLegReach"));
  registry.push_back(MakeEntry<PixelObservation<Walk>>("MyoWalk"));
  registry.push_back(MakeEntry<PixelObservation<Terrain>>("MyoTerrain"));
  registry.push_back(
      MakeEntry<PixelObservation<DieReorient>>("MyoChallengeDieReorient"));
  registry.push_back(MakeEntry<PixelObservation<Relocate>>("MyoChallengeRelocate"));
  registry.push_back(MakeEntry<PixelObservation<Baoding>>("MyoChallengeBaoding"));
  registry.push_back(
      MakeEntry<PixelObservation<TableTennis>>("MyoChallengeTableTennis"));
  registry.push_back(MakeEntry<PixelObservation<OslRun>>("MyoChallengeOslRun"));
  registry.push_back(MakeEntry<PixelObservation<Bimanual>>("MyoChallengeBimanual"));
  registry.push_back(MakeEntry<PixelObservation<ChaseTag>>("MyoChallengeChaseTag"));
  registry.push_back(MakeEntry<PixelObservation<Soccer>>("MyoChallengeSoccer"));
}

}  // namespace envpool::myosuite

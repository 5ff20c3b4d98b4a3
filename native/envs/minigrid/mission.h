// The mission as token ids: obs["mission_tokens"], a fixed-size int32 array.
//
// The vocabulary is append-only: id 0 pads the array, id 1 is a word outside the list,
// then the words of every MiniGrid mission of the `minigrid` package (all its levels, not
// only the ones implemented here), in the order below. BabyAI's grammar words go after
// them, so that the ids given here never change. A mission is split at spaces; a comma
// ending a word is a token of its own. Words past kMissionTokens are dropped (no MiniGrid
// mission comes near it).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace envpool::minigrid {

inline constexpr int kMissionTokens = 64;
// sail-sg EnvPool's obs["mission"]: the mission's bytes, zero-padded.
inline constexpr int kMissionBytes = 96;
// The BabyAI levels' longer missions (a BossLevel sequence of two conjunctions of PutNext
// with locations runs to about 70 words): sail-sg EnvPool's 512 bytes, and 128 tokens.
inline constexpr int kBabyAIMissionTokens = 128;
inline constexpr int kBabyAIMissionBytes = 512;

inline constexpr std::array<std::string_view, 59> kVocabulary = {
    "<pad>", "<unk>", ",",
    // COLOR_NAMES and the object types
    "red", "green", "blue", "purple", "yellow", "grey", "key", "ball", "box", "door", "goal",
    "wall", "lava", "floor",
    // the other words of the MiniGrid missions
    "get", "to", "the", "square", "use", "open", "and", "then", "reach", "avoid", "find",
    "opening", "go", "a", "fetch", "you", "must", "pick", "up", "put", "near", "matching",
    "object", "at", "end", "of", "hallway", "traverse", "rooms", "from", "room", "unlock",
    // BabyAI's grammar (minigrid/envs/babyai/core/verifier.py) beyond the words above
    "next", "after", "in", "front", "behind", "on", "your", "left", "right",
    // the WFC levels' mission (minigrid/envs/wfc/wfcenv.py)
    "maze"};

inline std::int32_t TokenId(std::string_view word) {
  for (std::size_t i = 2; i < kVocabulary.size(); ++i) {
    if (kVocabulary[i] == word) return static_cast<std::int32_t>(i);
  }
  return 1;
}

// The mission's token ids into out[size], zero-padded.
inline void Tokenize(const std::string& mission, std::int32_t* out, int size = kMissionTokens) {
  int n = 0;
  auto push = [&](std::string_view word) {
    if (!word.empty() && n < size) out[n++] = TokenId(word);
  };
  std::size_t start = 0;
  while (start <= mission.size()) {
    std::size_t end = mission.find(' ', start);
    if (end == std::string::npos) end = mission.size();
    std::string_view word(mission.data() + start, end - start);
    if (!word.empty() && word.back() == ',') {
      push(word.substr(0, word.size() - 1));
      push(",");
    } else {
      push(word);
    }
    start = end + 1;
  }
  for (; n < size; ++n) out[n] = 0;
}

}  // namespace envpool::minigrid

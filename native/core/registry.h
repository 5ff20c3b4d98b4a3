// The list of native environments: a name, the default configuration (every
// keyword the env accepts) and how to build a factory from a configuration.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"
#include "core/env.h"

namespace envpool {

struct EnvEntry {
  std::string name;
  Config defaults;
  std::function<std::unique_ptr<EnvFactory>(const Config&)> make_factory;
};

using Registry = std::vector<EnvEntry>;

template <class E>
EnvEntry MakeEntry(std::string name, Config defaults) {
  return EnvEntry{std::move(name), std::move(defaults),
                  [](const Config& config) -> std::unique_ptr<EnvFactory> {
                    return std::make_unique<BasicFactory<E>>(config);
                  }};
}

}  // namespace envpool

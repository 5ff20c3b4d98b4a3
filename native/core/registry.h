// The list of native environments: a name, the default configuration (every
// keyword the env accepts) and how to build a factory from a configuration.
// MakeEntry<E>(name) is the entry of an env class E as BasicFactory builds it
// (see env.h), with E::Defaults() as its keywords.
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
EnvEntry MakeEntry(std::string name) {
  return EnvEntry{std::move(name), E::Defaults(),
                  [](const Config& config) -> std::unique_ptr<EnvFactory> {
                    return std::make_unique<BasicFactory<E>>(config);
                  }};
}

}  // namespace envpool

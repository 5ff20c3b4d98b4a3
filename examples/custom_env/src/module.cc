// The native module envpool_thermostat._native: this package's envs behind the
// same Python surface as envpool's own (Pool, spec, default_config, ...),
// compiled with envpool's SDK (envpool::sdk in CMakeLists.txt).
#include "bindings/pool_module.h"
#include "core/registry.h"
#include "thermostat.h"

PYBIND11_MODULE(_native, m) {
  m.doc() = "envpool_thermostat: the Thermostat env for envpool";
  envpool::Registry registry;
  registry.push_back(envpool::MakeEntry<thermostat::Thermostat>("Thermostat"));
  envpool::bindings::DefinePoolModule(m, std::move(registry));
}

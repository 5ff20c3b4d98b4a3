# CMake package config of envpool's env SDK (docs/custom_env.md).
#
#   find_package(envpool CONFIG REQUIRED)   # envpool_DIR: `python -m envpool --cmake-dir`
#   pybind11_add_module(_native my_module.cc)
#   target_link_libraries(_native PRIVATE envpool::sdk)
#
# envpool::sdk carries the include directory (core/..., bindings/...),
# compiles the pool core (core/*.cc: the pool and its stages) into the module, asks for C++17 and
# threads, and defines ENVPOOL_CHECKED in Debug builds (Slot's type checks).
# It works for an installed envpool (envpool/include, copied there by
# envpool's install) and for a source checkout (native/).
get_filename_component(_envpool_pkg "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(EXISTS "${_envpool_pkg}/include/core/pool.h")
  set(envpool_INCLUDE_DIR "${_envpool_pkg}/include")
elseif(EXISTS "${_envpool_pkg}/../native/core/pool.h")
  get_filename_component(envpool_INCLUDE_DIR "${_envpool_pkg}/../native" ABSOLUTE)
else()
  set(envpool_FOUND FALSE)
  set(envpool_NOT_FOUND_MESSAGE
      "envpool's SDK headers are missing next to ${CMAKE_CURRENT_LIST_FILE} (reinstall envpool)")
  return()
endif()

file(STRINGS "${envpool_INCLUDE_DIR}/core/version.h" _envpool_version_line
     REGEX "^#define ENVPOOL_VERSION \"")
string(REGEX REPLACE ".*\"(.*)\".*" "\\1" envpool_VERSION "${_envpool_version_line}")
file(STRINGS "${envpool_INCLUDE_DIR}/core/version.h" _envpool_abi_line
     REGEX "^#define ENVPOOL_SDK_ABI ")
string(REGEX REPLACE ".*ENVPOOL_SDK_ABI ([0-9]+).*" "\\1" envpool_SDK_ABI "${_envpool_abi_line}")

if(NOT TARGET envpool::sdk)
  find_package(Threads REQUIRED)
  file(GLOB _envpool_core_sources "${envpool_INCLUDE_DIR}/core/*.cc")
  add_library(envpool::sdk INTERFACE IMPORTED)
  set_target_properties(envpool::sdk PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${envpool_INCLUDE_DIR}"
    INTERFACE_SOURCES "${_envpool_core_sources}"
    INTERFACE_COMPILE_FEATURES cxx_std_17
    INTERFACE_COMPILE_DEFINITIONS "$<$<CONFIG:Debug>:ENVPOOL_CHECKED=1>"
    INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()
unset(_envpool_pkg)
unset(_envpool_core_sources)
unset(_envpool_version_line)
unset(_envpool_abi_line)

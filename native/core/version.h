// envpool's version and the number of its env SDK's interface, baked into
// every native module built against these headers (envpool._native and
// modules built with the SDK, see native/bindings/pool_module.h). The Python
// side refuses a module whose values differ from the installed envpool's.
//
// ENVPOOL_VERSION matches pyproject.toml and envpool.__version__ (a test
// checks it). Bump ENVPOOL_SDK_ABI when the Python-facing surface of a module
// (Pool's constructor and methods, the spec dict, recv's tuple) changes.
#pragma once

#ifndef ENVPOOL_VERSION
#define ENVPOOL_VERSION "0.1.0"
#endif

#ifndef ENVPOOL_SDK_ABI
#define ENVPOOL_SDK_ABI 5
#endif

// See <boost/filesystem.hpp> in this folder.
#pragma once

#include <boost/filesystem.hpp>

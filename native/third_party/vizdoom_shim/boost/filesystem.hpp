// Stand-in for <boost/filesystem.hpp> when building ViZDoom's controller: the
// path queries it makes (extension, is_regular_file, is_symlink, absolute,
// parent_path, filename) are std::filesystem's, without the compiled library.
#pragma once

#include <filesystem>

namespace boost {
namespace filesystem {
using namespace std::filesystem;  // NOLINT: qualified lookup of boost::filesystem::x
}  // namespace filesystem
}  // namespace boost

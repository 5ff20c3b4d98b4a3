#!/usr/bin/env python3
"""Obtain and build Google Research Football's game engine, once, into a cache.

The ``gfootball`` package (2.10.2) is a C++ game engine (``third_party/gfootball_engine``:
Bastiaan Konings' GameplayFootball, about 45,000 lines) under a Python layer (the scenarios,
the observations, the rewards). No wheel of it is on the registry: ``pip install gfootball``
builds the engine from the sdist against the system's SDL 2 (with SDL_ttf and SDL_gfx),
OpenGL / EGL and Boost. This script fetches that sdist through pip and compiles the engine's
sources (``src/``, without the Python binding ``ai.cpp`` and the stand-alone ``client.cpp``)
with the same libraries into ``libgfootball_engine.a`` (static, position independent), and
installs it with its headers, its data (``data/``: animations, the player database, ...)
and its font into

    $ENVPOOL_CACHE_DIR or ~/.cache/envpool / gfootball-<version>-<compiler hash>

with ``link.txt`` (the linker flags of the system libraries it needs) and
``scenarios.json``: each scenario of the package's ``gfootball/scenarios/`` as its
``build_scenario(builder)`` builds it, for an even and an odd episode number (the
11-a-side scenarios swap the two line-ups between them), recorded by running the
scenario file with a builder that writes down what it is told (the package's
``Scenario`` class does the same with the engine's ``ScenarioConfig``). The prefix is
printed on the last line. A later call with the same version and compiler finds the
prefix and returns at once.

The engine is compiled as the package compiles it (C++14; -O2 for its -O3 -g,
asserts kept); neither changes its arithmetic. Four changes (PATCHES), none touching the
game:

* ``cmake/backtrace.cpp``: the engine installs a SIGSEGV handler in the whole process when a
  game starts; here it does not (the Python process keeps its own).
* ``base/log.cpp``: a fatal engine error printed a message and dereferenced a bad pointer
  (a segmentation fault); here it throws ``std::runtime_error`` with that message, which the
  pool raises in Python.
* ``game_env.cpp``: starting a game set ``std::cout`` unbuffered and its precision to 17 for
  the whole process; here it does not. It read the data folder and the font from the
  environment variables ``GFOOTBALL_DATA_DIR`` and ``GFOOTBALL_FONT`` (which the package's
  ``gfootball_engine`` sets on import); here the data folder is the one the env sets in its
  ``GameConfig`` and the font lies beside it (``../fonts``).

Without the system libraries (Debian: ``libsdl2-dev libsdl2-ttf-dev libsdl2-gfx-dev
libboost-filesystem-dev libegl-dev libopengl-dev``) the script fails saying which are
missing, and envpool builds without the gfootball envs.

Usage: build_gfootball.py --version 2.10.2 --cxx /usr/bin/c++
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fcntl
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pip_fetch  # native/third_party/pip_fetch.py

FLAGS = ["-std=c++14", "-O2", "-fPIC", "-w"]
PKG_CONFIG = ["sdl2", "SDL2_ttf", "SDL2_gfx", "egl", "opengl"]
BOOST_LIBS = ["boost_filesystem"]
APT_HINT = ("libsdl2-dev libsdl2-ttf-dev libsdl2-gfx-dev libboost-filesystem-dev "
            "libegl-dev libopengl-dev")
ENGINE = "third_party/gfootball_engine"
# (file under src/, text, replacement): each text must occur exactly once in the pinned sdist.
PATCHES = [
    ("cmake/backtrace.cpp", "  signal(SIGSEGV, handler);\n",
     "  // envpool: no process-wide SIGSEGV handler\n"),
    ("base/log.cpp",
     "    print_stacktrace();\n    int *foo = (int *)-1;  // make a bad pointer\n"
     "    printf(\"%d\\n\", *foo);  // causes segfault\n    exit(1);\n",
     "    throw std::runtime_error(\"gfootball engine: \" + className + \"::\" + methodName +\n"
     "                             \": \" + message);\n"),
    ("base/log.cpp", "#include <iostream>\n", "#include <iostream>\n#include <stdexcept>\n"),
    ("game_env.cpp", "  std::cout.precision(17);\n", ""),
    ("game_env.cpp", "  std::cout << std::unitbuf;\n", ""),
    ("game_env.cpp",
     "  char* data_dir = getenv(\"GFOOTBALL_DATA_DIR\");\n  if (data_dir) {\n",
     "  const char* data_dir = nullptr;  // envpool: the GameConfig's data_dir\n"
     "  if (data_dir) {\n"),
    ("game_env.cpp", "  char* font_file = getenv(\"GFOOTBALL_FONT\");\n",
     "  const std::string envpool_font =\n"
     "      GetGameConfig().data_dir + \"/../fonts/AlegreyaSansSC-ExtraBold.ttf\";\n"
     "  const char* font_file = envpool_font.c_str();\n"),
]
SKIP = {"client.cpp", "misc/empty.cpp"}


def log(msg: str) -> None:
    print(f"[build_gfootball] {msg}", file=sys.stderr, flush=True)


def object_name(rel: str) -> str:
    """The object file's name of the source ``rel`` (a path under the engine's src/)."""
    return rel.replace(os.sep, "_")[:-4] + ".o"


def compiler_hash(cxx: str, version: str) -> str:
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        out = cxx
    compiler = os.path.realpath(shutil.which(cxx) or cxx)
    # The version text without the name it was called by (c++, g++: the same compiler).
    out = out.split(" ", 1)[-1]
    key = f"{version}\n{compiler}\n{out}\n{' '.join(FLAGS)}\n{PATCHES}\nv3"
    return hashlib.sha256(key.encode()).hexdigest()[:12]


def system_flags() -> tuple[list[str], list[str]]:
    """The compile and link flags of the system libraries (pkg-config), or SystemExit naming
    the missing ones."""
    pkg = shutil.which("pkg-config")
    if not pkg:
        raise SystemExit(f"gfootball needs pkg-config and the system libraries ({APT_HINT})")
    missing = [m for m in PKG_CONFIG
               if subprocess.run([pkg, "--exists", m], capture_output=True).returncode]
    if missing:
        raise SystemExit(f"gfootball needs the system libraries {', '.join(missing)} "
                         f"(Debian / Ubuntu: apt install {APT_HINT})")
    cflags = subprocess.run([pkg, "--cflags", *PKG_CONFIG], capture_output=True, text=True,
                            check=True).stdout.split()
    libs = subprocess.run([pkg, "--libs", *PKG_CONFIG], capture_output=True, text=True,
                          check=True).stdout.split()
    return cflags, libs + [f"-l{b}" for b in BOOST_LIBS]


def check_boost(cxx: str, cflags: list[str], libs: list[str], tmp: str) -> None:
    """Compiles and links a file using Boost.Filesystem, so that a missing Boost fails here
    with its name instead of in the middle of the engine."""
    probe = os.path.join(tmp, "probe.cpp")
    with open(probe, "w") as f:
        f.write("#include <boost/filesystem.hpp>\n#include <boost/signals2.hpp>\n"
                "#include <boost/thread/condition.hpp>\n#include <SDL2/SDL_ttf.h>\n"
                "#include <SDL2_rotozoom.h>\n#include <EGL/egl.h>\n"
                "int main() { return boost::filesystem::exists(\"/\") ? 0 : 1; }\n")
    r = subprocess.run([cxx, *FLAGS, *cflags, probe, "-o", os.path.join(tmp, "probe"), *libs],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"gfootball needs Boost and SDL 2's headers and libraries "
                         f"(Debian / Ubuntu: apt install {APT_HINT}):\n{r.stderr[-1500:]}")


def patch_sources(src: str) -> None:
    for rel, old, new in PATCHES:
        path = os.path.join(src, rel)
        with open(path, newline="") as f:
            text = f.read()
        if text.count(old) != 1:
            raise RuntimeError(f"{path}: a patch does not apply (the source differs from the "
                               "pinned sdist's)")
        with open(path, "w", newline="") as f:
            f.write(text.replace(old, new))


class _Recorder:
    """What a scenario's ``build_scenario(builder)`` tells the package's ``Scenario``."""

    def __init__(self, episode_number: int) -> None:
        self.episode_number = episode_number
        self.values: dict[str, float] = {}
        self.ball = [0.0, 0.0]
        self.team = 0
        self.players: list[list[float]] = []  # team, x, y, role, lazy, controllable

    def config(self) -> _Recorder:
        return self

    def __setattr__(self, key: str, value: object) -> None:
        if key in ("episode_number", "values", "ball", "team", "players"):
            object.__setattr__(self, key, value)
        else:
            self.values[key] = float(value)  # type: ignore[arg-type]

    def SetTeam(self, team: int) -> None:  # noqa: N802 (the package's names)
        self.team = int(team)

    def AddPlayer(self, x: float, y: float, role: int, lazy: bool = False,  # noqa: N802
                  controllable: bool = True) -> None:
        self.players.append([float(self.team), float(x), float(y), float(role), float(lazy),
                             float(controllable)])

    def SetBallPosition(self, x: float, y: float) -> None:  # noqa: N802
        self.ball = [float(x), float(y)]

    def EpisodeNumber(self) -> int:  # noqa: N802
        return self.episode_number


def record_scenarios(scenarios_dir: str) -> dict[str, dict[str, object]]:
    """Runs each scenario file's ``build_scenario`` for episode numbers 2 and 3."""
    roles = ["GK", "CB", "LB", "RB", "DM", "CM", "LM", "RM", "AM", "CF"]  # e_PlayerRole
    names: dict[str, object] = {f"e_PlayerRole_{r}": i for i, r in enumerate(roles)}
    names["Team"] = type("Team", (), {"e_Left": 0, "e_Right": 1})
    out: dict[str, dict[str, object]] = {}
    for path in sorted(glob.glob(os.path.join(scenarios_dir, "*.py"))):
        name = os.path.basename(path)[:-3]
        if name.startswith(("_", "test_")):
            continue
        with open(path) as f:
            code = f.read().replace("from . import *", "")
        namespace = dict(names)
        exec(compile(code, path, "exec"), namespace)  # the package's own scenario file
        episodes = []
        for episode in (2, 3):
            rec = _Recorder(episode)
            namespace["build_scenario"](rec)
            episodes.append({"values": rec.values, "ball": rec.ball, "players": rec.players})
        out[name] = {"even": episodes[0], "odd": episodes[1]}
    if not out:
        raise RuntimeError(f"no scenarios in {scenarios_dir}")
    return out


# The members of the sdist that stage_data reads.
def is_data_member(name: str) -> bool:
    return (f"/{ENGINE}/data/" in name or "/third_party/fonts/" in name
            or "/gfootball/scenarios/" in name or name.endswith("/LICENSE"))


def stage_data(root: str, dest: str) -> None:
    """The engine's data (``data/``), its font (``fonts/``), the licences (``LICENSE.engine``,
    ``LICENSE.package``) and ``scenarios.json`` from the unpacked sdist ``root`` into ``dest``
    (also what scripts/build_gfootball_data.py packages)."""
    shutil.copytree(os.path.join(root, ENGINE, "data"), os.path.join(dest, "data"))
    os.makedirs(os.path.join(dest, "fonts"))
    for font in glob.glob(os.path.join(root, "third_party", "fonts", "*")):
        shutil.copy2(font, os.path.join(dest, "fonts"))
    for lic in (os.path.join(root, "LICENSE"), os.path.join(root, ENGINE, "LICENSE")):
        if os.path.exists(lic):
            tag = "engine" if ENGINE in lic else "package"
            shutil.copy2(lic, os.path.join(dest, f"LICENSE.{tag}"))
    with open(os.path.join(dest, "scenarios.json"), "w") as f:
        json.dump(record_scenarios(os.path.join(root, "gfootball", "scenarios")), f,
                  indent=1, sort_keys=True)


def build(version: str, cxx: str, prefix: str) -> None:
    with tempfile.TemporaryDirectory(prefix="envpool-gfootball-") as tmp:
        cflags, libs = system_flags()
        check_boost(cxx, cflags, libs, tmp)
        sdist = os.environ.get("ENVPOOL_GFOOTBALL_SDIST") or pip_fetch.download(
            ["--no-binary=gfootball", f"gfootball=={version}"], tmp, f"gfootball-{version}.tar.gz")
        log(f"extracting {sdist}")
        pip_fetch.unpack(sdist, tmp, lambda name: f"/{ENGINE}/src/" in name
                         or is_data_member(name))
        roots = glob.glob(os.path.join(tmp, "gfootball-*", ENGINE, "src", "game_env.cpp"))
        if len(roots) != 1:
            raise RuntimeError(f"{sdist}: no {ENGINE}/src/game_env.cpp")
        src = os.path.dirname(roots[0])
        root = os.path.dirname(os.path.dirname(os.path.dirname(src)))
        patch_sources(src)
        sources = sorted(p for p in glob.glob(os.path.join(src, "**", "*.cpp"), recursive=True)
                         if os.path.relpath(p, src) not in SKIP)
        objdir = os.path.join(tmp, "obj")
        os.makedirs(objdir)
        include = [f"-I{src}", f"-I{os.path.join(src, 'cmake')}"]

        def compile_one(path: str) -> str:
            obj = os.path.join(objdir, object_name(os.path.relpath(path, src)))
            r = subprocess.run([cxx, *FLAGS, *cflags, *include, "-c", path, "-o", obj],
                               capture_output=True, text=True)
            if r.returncode:
                raise RuntimeError(f"compiling {path} failed:\n{r.stderr[-3000:]}")
            return obj

        # The files that envpool patches alone (scripts/build_gfootball_reference.py replaces
        # their objects), the others in unity units of a folder each: each file alone parses
        # the same Boost headers again. A unit whose files clash (names defined in two of
        # them) compiles file by file.
        alone = [os.path.join(src, rel) for rel in sorted({r for r, _, _ in PATCHES})]
        groups: dict[str, list[str]] = {}
        for path in sources:
            if path not in alone:
                folder = os.path.dirname(os.path.relpath(path, src)).replace(os.sep, "_")
                groups.setdefault(folder or "top", []).append(path)

        def compile_unit(item: tuple[str, list[str]]) -> list[str]:
            name, paths = item
            unit = os.path.join(tmp, f"unity_{name}.cpp")
            with open(unit, "w") as f:
                f.writelines(f'#include "{p}"\n' for p in paths)
            obj = os.path.join(objdir, f"unity_{name}.o")
            r = subprocess.run([cxx, *FLAGS, *cflags, *include, "-c", unit, "-o", obj],
                               capture_output=True, text=True)
            if r.returncode:  # names clash between its files: each alone
                return [compile_one(p) for p in paths]
            return [obj]

        work = [(n, g) for n, g in groups.items()] + [("", [p]) for p in alone]
        work.sort(key=lambda item: -sum(os.path.getsize(p) for p in item[1]))
        log(f"compiling {len(sources)} files in {len(groups)} units and {len(alone)} alone")

        def run(item: tuple[str, list[str]]) -> list[str]:
            return compile_unit(item) if item[0] else [compile_one(item[1][0])]

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            objects = [o for objs in pool.map(run, work) for o in objs]
        staging = prefix + ".partial"
        shutil.rmtree(staging, ignore_errors=True)
        os.makedirs(os.path.join(staging, "lib"))
        ar = shutil.which("ar") or "ar"
        subprocess.run([ar, "rcs", os.path.join(staging, "lib", "libgfootball_engine.a"),
                        *objects], check=True, stdout=sys.stderr)
        for header in glob.glob(os.path.join(src, "**", "*.h*"), recursive=True):
            dest = os.path.join(staging, "include", os.path.relpath(header, src))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(header, dest)
        # The objects too, for scripts/build_gfootball_reference.py (the package's own
        # engine module for the tests: these objects, the unpatched files and its binding).
        os.makedirs(os.path.join(staging, "obj"))
        for obj in objects:
            shutil.copy2(obj, os.path.join(staging, "obj"))
        stage_data(root, staging)
        with open(os.path.join(staging, "link.txt"), "w") as f:
            f.write(";".join(libs))
        with open(os.path.join(staging, "cflags.txt"), "w") as f:
            f.write(";".join(c for c in cflags if c.startswith("-I")))
        if os.path.exists(prefix):
            shutil.rmtree(prefix)
        os.replace(staging, prefix)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", required=True)
    ap.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    ap.add_argument("--cache-dir", default=os.environ.get(
        "ENVPOOL_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "envpool")))
    a = ap.parse_args()
    os.makedirs(a.cache_dir, exist_ok=True)
    prefix = os.path.join(a.cache_dir, f"gfootball-{a.version}-{compiler_hash(a.cxx, a.version)}")
    lib = os.path.join(prefix, "lib", "libgfootball_engine.a")
    with open(os.path.join(a.cache_dir, f".gfootball-{a.version}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time; others wait and reuse
        if not os.path.exists(lib):
            build(a.version, a.cxx, prefix)
        else:
            log(f"cached: {prefix}")
    print(prefix)


if __name__ == "__main__":
    main()

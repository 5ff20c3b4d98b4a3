"""openai procgen 0.10.7 as a test oracle, without gym3 or cffi.

procgen's wheels stop at CPython 3.10, but the game library inside them,
``procgen/data/prebuilt/libenv.so``, is a plain C library with gym3's libenv API
(``libenv_make`` / ``libenv_set_buffers`` / ``libenv_act`` / ``libenv_observe``) and Qt
linked in statically. ``envpool.tasks.procgen.download_wheel`` downloads and unpacks the
wheel once into the cache folder; this module loads the library with ctypes and drives one
game the way ``procgen.ProcgenGym3Env(num=1, ...)`` does (its options, with ``num_threads=0``
so that it steps on the caller's thread): ``ProcgenOracle``; and, for benchmarks/bench.py,
procgen's own vector env ``ProcgenGym3Env(num=n)`` on its threads: ``ProcgenGym3Vec``.

The library keeps one asset folder per process (the first ``resource_root`` it is given).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any

import numpy as np

# gym3's libenv.h
_MAX_NAME = 128
_MAX_NDIM = 16
_UINT8, _INT32 = 1, 2
_SPACE_OBSERVATION, _SPACE_ACTION, _SPACE_INFO = 1, 2, 3

# procgen/env.py's DISTRIBUTION_MODE_DICT
DISTRIBUTION_MODES = {"easy": 0, "hard": 1, "extreme": 2, "memory": 10}


class _Value(ctypes.Union):
    _fields_ = [("uint8", ctypes.c_uint8), ("int32", ctypes.c_int32), ("float32", ctypes.c_float)]


class _TensorType(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * _MAX_NAME), ("scalar_type", ctypes.c_int),
                ("dtype", ctypes.c_int), ("shape", ctypes.c_int * _MAX_NDIM),
                ("ndim", ctypes.c_int), ("low", _Value), ("high", _Value)]


class _Option(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * _MAX_NAME), ("dtype", ctypes.c_int),
                ("count", ctypes.c_int), ("data", ctypes.c_void_p)]


class _Options(ctypes.Structure):
    _fields_ = [("items", ctypes.POINTER(_Option)), ("count", ctypes.c_int)]


class _Buffers(ctypes.Structure):
    _fields_ = [("ob", ctypes.POINTER(ctypes.c_void_p)), ("rew", ctypes.POINTER(ctypes.c_float)),
                ("first", ctypes.POINTER(ctypes.c_uint8)),
                ("info", ctypes.POINTER(ctypes.c_void_p)),
                ("ac", ctypes.POINTER(ctypes.c_void_p))]


_LIBS: dict[str, Any] = {}


def wheel_dir_or_skip() -> str:
    """The folder of procgen's unpacked wheel (``envpool.tasks.procgen.download_wheel``); a
    test that needs it is skipped where pip cannot download it, and fails instead under
    ``ENVPOOL_REQUIRE_REFERENCES=1``."""
    import pytest

    from envpool.tasks import procgen as procgen_tasks

    try:
        return procgen_tasks.download_wheel()
    except RuntimeError as error:
        if os.environ.get("ENVPOOL_REQUIRE_REFERENCES") == "1":
            raise
        pytest.skip(f"procgen {procgen_tasks.PROCGEN_VERSION}'s wheel (the oracle) could not "
                    f"be downloaded: {error}")


def _library(wheel_dir: str) -> Any:
    path = os.path.join(wheel_dir, "procgen", "data", "prebuilt", "libenv.so")
    if path not in _LIBS:
        lib = ctypes.CDLL(path)
        lib.libenv_make.restype = ctypes.c_void_p
        lib.libenv_make.argtypes = [ctypes.c_int, _Options]
        lib.libenv_get_tensortypes.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                               ctypes.POINTER(_TensorType)]
        lib.libenv_set_buffers.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Buffers)]
        lib.libenv_act.argtypes = [ctypes.c_void_p]
        lib.libenv_observe.argtypes = [ctypes.c_void_p]
        lib.libenv_close.argtypes = [ctypes.c_void_p]
        _LIBS[path] = lib
    return _LIBS[path]


class _Games:
    """``num`` procgen games of one ``libenv_make``, as gym3's ``CEnv`` holds them: the
    options of ``procgen.ProcgenGym3Env`` (``num_threads`` stepping threads; 0: the
    caller's), one array per output with a leading axis of ``num``, and per env a pointer
    into each (the layout of gym3's ``_allocate_specs``: space by space, env by env). The
    construction is the first reset (``libenv_set_buffers``, then ``libenv_observe``)."""

    def __init__(self, wheel_dir: str, env_name: str, *, num: int, num_threads: int,
                 rand_seed: int, distribution_mode: str = "hard", num_levels: int = 0,
                 start_level: int = 0, use_sequential_levels: bool = False,
                 center_agent: bool = True, use_backgrounds: bool = True,
                 restrict_themes: bool = False, use_monochrome_assets: bool = False,
                 paint_vel_info: bool = False) -> None:
        self._lib = _library(wheel_dir)
        self._handle = None
        assets = os.path.join(wheel_dir, "procgen", "data", "assets") + os.sep
        values: list[tuple[str, Any]] = [
            ("env_name", env_name), ("num_levels", num_levels), ("start_level", start_level),
            ("num_actions", 15), ("use_sequential_levels", use_sequential_levels),
            ("debug_mode", 0), ("rand_seed", rand_seed), ("num_threads", num_threads),
            ("render_human", False), ("resource_root", assets),
            ("center_agent", center_agent), ("use_backgrounds", use_backgrounds),
            ("restrict_themes", restrict_themes),
            ("use_monochrome_assets", use_monochrome_assets),
            ("paint_vel_info", paint_vel_info),
            ("distribution_mode", DISTRIBUTION_MODES[distribution_mode]),
        ]
        self._keep: list[Any] = []
        options = (_Option * len(values))()
        for item, (name, value) in zip(options, values, strict=True):
            item.name = name.encode()
            if isinstance(value, bool):
                data: Any = ctypes.c_uint8(int(value))
                item.dtype, item.count = _UINT8, 1
            elif isinstance(value, int):
                data = ctypes.c_int32(value)
                item.dtype, item.count = _INT32, 1
            else:
                raw = value.encode()
                data = ctypes.create_string_buffer(raw, len(raw))
                item.dtype, item.count = _UINT8, len(raw)
            self._keep.append(data)
            item.data = ctypes.cast(ctypes.pointer(data), ctypes.c_void_p)
        self._handle = self._lib.libenv_make(num, _Options(options, len(values)))
        infos = (_TensorType * 8)()
        n_info = self._lib.libenv_get_tensortypes(self._handle, _SPACE_INFO, infos)
        self._obs = np.zeros((num, 64, 64, 3), np.uint8)
        self._rew = np.zeros(num, np.float32)
        self._first = np.zeros(num, np.uint8)
        self._action = np.zeros(num, np.int32)
        self._info: dict[str, np.ndarray] = {}
        for t in infos[:n_info]:
            dtype = np.int32 if t.dtype == _INT32 else np.uint8
            self._info[t.name.decode()] = np.zeros(num, dtype)

        def pointers(arrays: list[np.ndarray]) -> Any:
            return (ctypes.c_void_p * (len(arrays) * num))(
                *[a[e:].ctypes.data for a in arrays for e in range(num)])

        ob, info, ac = (pointers([self._obs]), pointers(list(self._info.values())),
                        pointers([self._action]))
        self._buffers = _Buffers(ob, self._rew.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                                 self._first.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)),
                                 info, ac)
        self._keep += [ob, info, ac]
        self._lib.libenv_set_buffers(self._handle, ctypes.byref(self._buffers))
        self._lib.libenv_observe(self._handle)

    def close(self) -> None:
        if self._handle:
            self._lib.libenv_close(self._handle)
            self._handle = None

    def __del__(self) -> None:
        self.close()


class ProcgenOracle(_Games):
    """One procgen game (``num=1``): ``obs`` (64, 64, 3) uint8, ``reward``, ``first`` and
    the info ``level_seed`` / ``prev_level_seed`` / ``prev_level_complete`` after the
    construction (the first reset) and after each ``act``."""

    def __init__(self, wheel_dir: str, env_name: str, *, rand_seed: int,
                 **options: Any) -> None:
        super().__init__(wheel_dir, env_name, num=1, num_threads=0, rand_seed=rand_seed,
                         **options)

    def act(self, action: int) -> None:
        """One step with ``action`` (0..14); the outputs then hold the step's results."""
        self._action[0] = action
        self._lib.libenv_act(self._handle)
        self._lib.libenv_observe(self._handle)

    @property
    def obs(self) -> np.ndarray:
        return self._obs[0].copy()

    @property
    def reward(self) -> float:
        return float(self._rew[0])

    @property
    def first(self) -> bool:
        return bool(self._first[0])

    def info(self) -> dict[str, int]:
        """level_seed, prev_level_seed, prev_level_complete."""
        return {k: int(v[0]) for k, v in self._info.items()}


def assert_info_as_procgen(info: dict[str, Any], ref_info: dict[str, int], where: str, *,
                           ending: bool = False, complete: bool = True) -> None:
    """The pool's env 0 info against procgen's after the same step. On a step that ends an
    episode procgen has drawn the next level already (its ``level_seed``); the pool's frame
    there is still the ended level's, and so is its ``level_seed`` (procgen's
    ``prev_level_seed``, as sail-sg EnvPool gives it). ``complete=False`` leaves
    ``prev_level_complete`` out."""
    want_level = ref_info["prev_level_seed"] if ending else ref_info["level_seed"]
    assert info["level_seed"][0] == want_level, where
    assert info["prev_level_seed"][0] == ref_info["prev_level_seed"], where
    if complete:
        assert info["prev_level_complete"][0] == ref_info["prev_level_complete"], where


class ProcgenGym3Vec(_Games):
    """``procgen.ProcgenGym3Env(num=num, num_threads=num_threads)`` (procgen's default: 4
    threads), stepped as gym3's ``CEnv`` steps it: ``act`` writes the actions into the
    action buffer and calls ``libenv_act`` (the games step on procgen's threads), and
    ``observe`` calls ``libenv_observe`` (which waits for them) and returns copies of the
    outputs (gym3's default ``reuse_arrays=False``)."""

    def act(self, actions: np.ndarray) -> None:
        """Starts one step of every game with ``actions`` (``num`` ints in 0..14)."""
        self._action[:] = actions
        self._lib.libenv_act(self._handle)

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """(reward, obs (num, 64, 64, 3), first, info arrays) once the step is done, copied
        (gym3's ``observe`` and the arrays its ``get_info`` reads)."""
        self._lib.libenv_observe(self._handle)
        return (self._rew.copy(), self._obs.copy(), self._first.astype(bool),
                {k: v.copy() for k, v in self._info.items()})


def _elf_symbols(path: str) -> dict[str, int]:
    """The values of the function symbols in an ELF64 little-endian file's symbol table
    (``.symtab``: procgen's libenv.so keeps it, with its statically linked Qt's local
    symbols, which ``dlsym`` cannot see)."""
    import struct

    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError(f"{path}: not an ELF64 little-endian file")
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    out: dict[str, int] = {}
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        str_offset = sections[link][4]
        for pos in range(offset, offset + size, entsize):
            name_at, info, _other, _shndx, value, _size = struct.unpack_from("<IBBHQQ", data, pos)
            if info & 0xF != 2 or value == 0:  # STT_FUNC, defined
                continue
            end = data.index(b"\0", str_offset + name_at)
            out[data[str_offset + name_at:end].decode()] = value
    return out


class QtPainterOracle:
    """Qt 5.13.2's QPainter on a QImage, from procgen's libenv.so (Qt linked in statically
    in the namespace ``ProcGenQt``): its functions are found through the library's symbol
    table and called with ctypes (x86-64 System V: ``this`` first, references as
    pointers). ``draw_ellipses`` paints aliased ``drawEllipse(QRectF)`` calls onto a
    ``Format_RGB32`` canvas, as procgen paints its frames."""

    _SIGNATURES: dict[str, tuple[Any, ...]] = {
        "_ZN9ProcGenQt6QImageC1EiiNS0_6FormatE":
            (None, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int),
        "_ZN9ProcGenQt6QImageD1Ev": (None, ctypes.c_void_p),
        "_ZN9ProcGenQt6QImage4fillEj": (None, ctypes.c_void_p, ctypes.c_uint),
        "_ZN9ProcGenQt6QImage4bitsEv": (ctypes.c_void_p, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainterC1EPNS_12QPaintDeviceE": (None, ctypes.c_void_p, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainterD1Ev": (None, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainter3endEv": (ctypes.c_bool, ctypes.c_void_p),
        "_ZN9ProcGenQt6QColorC1ENS_7QRgba64E": (None, ctypes.c_void_p, ctypes.c_uint64),
        "_ZN9ProcGenQt4QPenC1ERKNS_6QColorE": (None, ctypes.c_void_p, ctypes.c_void_p),
        "_ZN9ProcGenQt4QPen8setWidthEi": (None, ctypes.c_void_p, ctypes.c_int),
        "_ZN9ProcGenQt4QPenD1Ev": (None, ctypes.c_void_p),
        "_ZN9ProcGenQt6QBrushC1ERKNS_6QColorENS_2Qt10BrushStyleE":
            (None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int),
        "_ZN9ProcGenQt6QBrushD1Ev": (None, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainter6setPenERKNS_4QPenE": (None, ctypes.c_void_p, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainter6setPenENS_2Qt8PenStyleE": (None, ctypes.c_void_p, ctypes.c_int),
        "_ZN9ProcGenQt8QPainter8setBrushERKNS_6QBrushE": (None, ctypes.c_void_p, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainter8setBrushENS_2Qt10BrushStyleE":
            (None, ctypes.c_void_p, ctypes.c_int),
        "_ZN9ProcGenQt8QPainter11drawEllipseERKNS_6QRectFE":
            (None, ctypes.c_void_p, ctypes.c_void_p),
        "_ZN9ProcGenQt6QImageC1EPhiiiNS0_6FormatEPFvPvES3_":
            (None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
             ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainter4saveEv": (None, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainter7restoreEv": (None, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainter10setOpacityEd": (None, ctypes.c_void_p, ctypes.c_double),
        "_ZN9ProcGenQt8QPainter9translateERKNS_7QPointFE":
            (None, ctypes.c_void_p, ctypes.c_void_p),
        "_ZN9ProcGenQt8QPainter6rotateEd": (None, ctypes.c_void_p, ctypes.c_double),
        "_ZN9ProcGenQt8QPainter9drawImageERKNS_6QRectFERKNS_6QImageES3_"
        "NS_6QFlagsINS_2Qt19ImageConversionFlagEEE":
            (None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
             ctypes.c_int),
    }

    def __init__(self, wheel_dir: str) -> None:
        lib = _library(wheel_dir)
        path = os.path.join(wheel_dir, "procgen", "data", "prebuilt", "libenv.so")
        symbols = _elf_symbols(path)
        base = ctypes.cast(lib.libenv_make, ctypes.c_void_p).value - symbols["libenv_make"]
        self._f = {name.split("ProcGenQt")[1]: ctypes.CFUNCTYPE(*sig)(base + symbols[name])
                   for name, sig in self._SIGNATURES.items()}

    def _call(self, fragment: str, *args: Any) -> Any:
        [key] = [k for k in self._f if fragment in k]
        return self._f[key](*args)

    def _colour(self, argb: int) -> Any:
        """A QColor(r, g, b, a) of a 0xAARRGGBB word (through QColor(QRgba64))."""
        colour = ctypes.create_string_buffer(64)
        a, r, g, b = (argb >> 24) & 255, (argb >> 16) & 255, (argb >> 8) & 255, argb & 255
        self._call("QColorC1ENS_7QRgba64E", colour,
                   (r * 257) | (g * 257) << 16 | (b * 257) << 32 | (a * 257) << 48)
        return colour

    def draw_ellipses(self, width: int, height: int, background: int,
                      ellipses: list[tuple[float, float, float, float, int, int]],
                      pen_width: int = 1) -> np.ndarray:
        """The canvas (uint32 0xAARRGGBB words, height x width) filled with `background`,
        then each ellipse (x, y, w, h, pen, brush) drawn in turn: pen and brush 0xAARRGGBB
        colours (a solid pen of `pen_width`, a solid brush), or -1 for none."""
        image = ctypes.create_string_buffer(256)
        painter = ctypes.create_string_buffer(256)
        self._call("QImageC1EiiNS0_6Format", image, width, height, 4)  # Format_RGB32
        self._call("QImage4fill", image, background & 0xFFFFFFFF)
        self._call("QPainterC1", painter, image)
        for x, y, w, h, pen, brush in ellipses:
            if pen < 0:
                self._call("setPenENS_2Qt8PenStyle", painter, 0)  # Qt::NoPen
            else:
                qpen = ctypes.create_string_buffer(64)
                self._call("QPenC1ERKNS_6QColor", qpen, self._colour(pen))
                self._call("QPen8setWidth", qpen, pen_width)
                self._call("setPenERKNS_4QPen", painter, qpen)
                self._call("QPenD1", qpen)
            if brush < 0:
                self._call("setBrushENS_2Qt10BrushStyle", painter, 0)  # Qt::NoBrush
            else:
                qbrush = ctypes.create_string_buffer(64)
                self._call("QBrushC1ERKNS_6QColor", qbrush, self._colour(brush), 1)
                self._call("setBrushERKNS_6QBrush", painter, qbrush)
                self._call("QBrushD1", qbrush)
            rect = (ctypes.c_double * 4)(x, y, w, h)
            self._call("drawEllipse", painter, rect)
        return self._finish(painter, image, width, height)

    def _finish(self, painter: Any, canvas: Any, width: int, height: int) -> np.ndarray:
        """Ends and destroys `painter`, then returns a copy of `canvas`' pixels (uint32
        0xAARRGGBB words, height x width) and destroys it."""
        self._call("QPainter3end", painter)
        bits = self._call("QImage4bits", canvas)
        out = np.ctypeslib.as_array(ctypes.cast(bits, ctypes.POINTER(ctypes.c_uint32)),
                                    shape=(height, width)).copy()
        self._call("QPainterD1", painter)
        self._call("QImageD1", canvas)
        return out

    def draw_images(self, width: int, height: int, background: int, pixels: np.ndarray,
                    draws: list[tuple[float, float, float, float, float, float, float, float]]
                    ) -> np.ndarray:
        """The canvas (uint32 0xAARRGGBB words, height x width, ``Format_RGB32``) filled with
        `background`, then the ``Format_ARGB32_Premultiplied`` image `pixels` (uint32,
        rows x columns) drawn for each (x, y, w, h, dx, dy, degrees, opacity) as procgen
        draws an entity: save, setOpacity, translate(dx, dy), rotate(degrees),
        drawImage(QRectF(x, y, w, h), image) (the whole image as the source), restore."""
        data = np.ascontiguousarray(pixels, dtype=np.uint32)
        rows, cols = data.shape
        canvas = ctypes.create_string_buffer(256)
        sprite = ctypes.create_string_buffer(256)
        painter = ctypes.create_string_buffer(256)
        self._call("QImageC1EiiNS0_6Format", canvas, width, height, 4)  # Format_RGB32
        self._call("QImage4fill", canvas, background & 0xFFFFFFFF)
        # Format_ARGB32_Premultiplied (6) over the array's memory, no cleanup function
        self._call("QImageC1EPhiii", sprite, data.ctypes.data, cols, rows, cols * 4, 6, None,
                   None)
        self._call("QPainterC1", painter, canvas)
        source = (ctypes.c_double * 4)(0, 0, cols, rows)
        for x, y, w, h, dx, dy, degrees, opacity in draws:
            self._call("QPainter4save", painter)
            self._call("setOpacity", painter, opacity)
            self._call("translate", painter, (ctypes.c_double * 2)(dx, dy))
            self._call("rotate", painter, degrees)
            self._call("drawImage", painter, (ctypes.c_double * 4)(x, y, w, h), sprite, source,
                       0)
            self._call("QPainter7restore", painter)
        out = self._finish(painter, canvas, width, height)
        self._call("QImageD1", sprite)
        return out

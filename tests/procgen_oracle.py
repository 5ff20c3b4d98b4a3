"""openai procgen 0.10.7 as a test oracle, without gym3 or cffi.

procgen's wheels stop at CPython 3.10, but the game library inside them,
``procgen/data/prebuilt/libenv.so``, is a plain C library with gym3's libenv API
(``libenv_make`` / ``libenv_set_buffers`` / ``libenv_act`` / ``libenv_observe``) and Qt
linked in statically. ``envpool.tasks.procgen.download_wheel`` downloads and unpacks the
wheel once into the cache folder; this module loads the library with ctypes and drives one
game the way ``procgen.ProcgenGym3Env(num=1, ...)`` does (its options, with ``num_threads=0``
so that it steps on the caller's thread).

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


class ProcgenOracle:
    """One procgen game (``num=1``): ``obs`` (64, 64, 3) uint8, ``reward``, ``first`` and
    the info ``level_seed`` / ``prev_level_seed`` / ``prev_level_complete`` after the
    construction (the first reset) and after each ``act``."""

    def __init__(self, wheel_dir: str, env_name: str, *, rand_seed: int,
                 distribution_mode: str = "hard", num_levels: int = 0, start_level: int = 0,
                 use_sequential_levels: bool = False, center_agent: bool = True,
                 use_backgrounds: bool = True, restrict_themes: bool = False,
                 use_monochrome_assets: bool = False, paint_vel_info: bool = False) -> None:
        self._lib = _library(wheel_dir)
        assets = os.path.join(wheel_dir, "procgen", "data", "assets") + os.sep
        values: list[tuple[str, Any]] = [
            ("env_name", env_name), ("num_levels", num_levels), ("start_level", start_level),
            ("num_actions", 15), ("use_sequential_levels", use_sequential_levels),
            ("debug_mode", 0), ("rand_seed", rand_seed), ("num_threads", 0),
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
        self._handle = self._lib.libenv_make(1, _Options(options, len(values)))
        infos = (_TensorType * 8)()
        n_info = self._lib.libenv_get_tensortypes(self._handle, _SPACE_INFO, infos)
        self._obs = np.zeros((64, 64, 3), np.uint8)
        self._rew = np.zeros(1, np.float32)
        self._first = np.zeros(1, np.uint8)
        self._action = np.zeros(1, np.int32)
        self._info: dict[str, np.ndarray] = {}
        for t in infos[:n_info]:
            dtype = np.int32 if t.dtype == _INT32 else np.uint8
            self._info[t.name.decode()] = np.zeros(1, dtype)
        ob = (ctypes.c_void_p * 1)(self._obs.ctypes.data)
        info = (ctypes.c_void_p * n_info)(*[a.ctypes.data for a in self._info.values()])
        ac = (ctypes.c_void_p * 1)(self._action.ctypes.data)
        self._buffers = _Buffers(ob, self._rew.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                                 self._first.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)),
                                 info, ac)
        self._keep += [ob, info, ac]
        self._lib.libenv_set_buffers(self._handle, ctypes.byref(self._buffers))
        self._lib.libenv_observe(self._handle)

    def act(self, action: int) -> None:
        """One step with ``action`` (0..14); the outputs then hold the step's results."""
        self._action[0] = action
        self._lib.libenv_act(self._handle)
        self._lib.libenv_observe(self._handle)

    @property
    def obs(self) -> np.ndarray:
        return self._obs.copy()

    @property
    def reward(self) -> float:
        return float(self._rew[0])

    @property
    def first(self) -> bool:
        return bool(self._first[0])

    def info(self) -> dict[str, int]:
        """level_seed, prev_level_seed, prev_level_complete."""
        return {k: int(v[0]) for k, v in self._info.items()}

    def close(self) -> None:
        if self._handle:
            self._lib.libenv_close(self._handle)
            self._handle = None

    def __del__(self) -> None:
        self.close()

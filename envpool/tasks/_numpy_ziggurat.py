"""numpy's ziggurat tables, read from the installed numpy, for the native envs that draw
``Generator.normal`` as numpy does (native/envs/robotics/numpy_normal.h).

numpy's ``random_standard_normal`` uses three constant tables of 256 numbers (``ki_double``,
``wi_double``, ``fi_double``). Their values are not the correctly rounded solutions of the
ziggurat's equations (recomputing them in high precision differs in the last bits), so the
native side takes numpy's own: they lie in numpy's ``_generator`` extension module, each
ending with the one entry that is known exactly (``wi[255] = r / 2**52``,
``ki[255]``, ``fi[255] = exp(-r**2 / 2)``, ``r`` the ziggurat's base). Each table is found by
that last entry and checked by its known first entries.
"""

from __future__ import annotations

import functools
import glob
import math
import os
import struct

import numpy as np

_R = 3.6541528853610087963519472518


@functools.cache
def ziggurat_tables() -> dict[str, list[float]]:
    """The hidden keywords ``_ziggurat_ki``, ``_ziggurat_wi``, ``_ziggurat_fi``: numpy's
    tables (``ki`` as whole numbers below 2**53, exact as floats)."""
    folder = os.path.dirname(np.random.__file__)
    paths = sorted(glob.glob(os.path.join(folder, "_generator*.so")) +
                   glob.glob(os.path.join(folder, "_generator*.pyd")))
    if not paths:
        raise ImportError(f"numpy's _generator extension was not found in {folder}")
    with open(paths[0], "rb") as f:
        blob = f.read()

    def table(last: bytes, fmt: str) -> list[float]:
        end = blob.find(last)
        if end < 255 * 8 or blob.find(last, end + 1) >= 0:
            raise ImportError("numpy's ziggurat tables were not found in " + paths[0])
        start = end - 255 * 8
        return [float(v) for v in struct.unpack("<256" + fmt, blob[start : start + 256 * 8])]

    ki = table(struct.pack("<Q", 0xF1A5A4B331C4A), "Q")
    wi = table(struct.pack("<d", _R / 2.0**52), "d")
    fi = table(struct.pack("<d", math.exp(-0.5 * _R * _R)), "d")
    if ki[1] != 0.0 or fi[0] != 1.0 or not 0.0 < wi[0] < 1e-15:
        raise ImportError("numpy's ziggurat tables were not recognised in " + paths[0])
    return {"_ziggurat_ki": ki, "_ziggurat_wi": wi, "_ziggurat_fi": fi}

"""Fetch one distribution file (an sdist, a wheel) through pip, as the user's pip is set up
(index, mirrors, proxies), and unpack an sdist, for the build_*.py scripts."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Callable


def download(args: list[str], dest: str, pattern: str) -> str:
    """``pip download --no-deps ARGS -d DEST``; the path of the file matching ``pattern``.

    pip prepares an sdist's metadata before it counts as downloaded, in an isolated build
    environment by default, which installs the sdist's whole build requirements (ale-py's
    include jax: 37 s for an 11 MB download). The sdist's build backend alone suffices for
    its metadata, so each pip is first asked with ``--no-build-isolation`` (about 4 s), which
    works where that backend is importable (scikit-build-core and setuptools are in envpool's
    own build requirements), then as it is.
    """
    pips = [[sys.executable, "-m", "pip"]]
    for name in ("pip3", "pip"):
        exe = shutil.which(name)
        if exe:
            pips.append([exe])
    errors = []
    for pip in pips:
        for isolation in (["--no-build-isolation"], []):
            r = subprocess.run(pip + ["download", "--no-deps", *isolation, *args, "-d", dest],
                               capture_output=True, text=True)
            found = glob.glob(os.path.join(dest, pattern))
            if r.returncode == 0 and found:
                return found[0]
            errors.append(f"{' '.join(pip + isolation)}: {r.stderr.strip()[-500:]}")
    raise SystemExit(f"could not download {' '.join(args)}:\n" + "\n".join(errors))


def unpack(sdist: str, dest: str, keep: Callable[[str], bool] | None = None) -> None:
    """Extracts the tar archive ``sdist`` into ``dest``: the members whose name ``keep``
    accepts (all without it), through tarfile's "data" filter where this Python has it."""
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if keep is None or keep(m.name)]
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, members=members, filter="data")
        else:
            tar.extractall(dest, members=members)

"""Where the files of an installed dependency are (ROMs, model XMLs, images), found
without importing the package."""

from __future__ import annotations

import importlib.util
import os


def package_path(package: str, *parts: str) -> str:
    """``<the installed package's folder>/<parts...>``, or "" when ``package`` is not
    installed (a task then says what to install when it is made)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return ""
    return os.path.join(list(spec.submodule_search_locations)[0], *parts)

"""The documentation site (mkdocs.yml over docs/) builds with ``mkdocs build --strict``.

Strict mode makes every warning an error: a link to a page or file that is not in docs/, a
link to a heading that does not exist, a page left out of the nav. The build needs no network.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest
import yaml

pytest.importorskip("material", reason="the docs extra (mkdocs-material) builds the site")

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _build(config: pathlib.Path, site: pathlib.Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    # (not -q: mkdocs then stops counting the warnings that --strict turns into errors)
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-f", str(config), "-d", str(site)],
                          capture_output=True, text=True, timeout=300, env=env)


def _nav_pages(nav: list) -> list[str]:
    pages = []
    for entry in nav:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages += _nav_pages(value) if isinstance(value, list) else [value]
    return pages


def test_site_builds_strict(tmp_path: pathlib.Path) -> None:
    result = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    for page in _nav_pages(config["nav"]):  # the offline plugin: page.md -> page.html
        html = page.removesuffix(".md").replace("README", "index") + ".html"
        assert (tmp_path / "site" / html).is_file(), page


def test_broken_links_and_an_orphan_page_fail_the_build(tmp_path: pathlib.Path) -> None:
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    index = tmp_path / "docs" / "index.md"
    index.write_text(index.read_text() + "\n[gone](no_such_page.md), [no heading]"
                     "(api.md#no-such-heading), [outside docs/](../README.md)\n")
    (tmp_path / "docs" / "orphan.md").write_text("# Orphan\n")
    result = _build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert result.returncode != 0
    log = result.stdout + result.stderr  # mkdocs names each culprit in a warning
    for culprit in ("no_such_page.md", "no-such-heading", "../README.md", "orphan.md"):
        assert culprit in log, (culprit, log)

"""scripts/envpool_tests.py, the runner of sail-sg EnvPool's own test files (nightly)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "envpool_tests.py"

_FAKE = '''
from absl.testing import absltest
import envpool.mujoco.pixel_observation_test_utils as support  # from the tests' tree


class T(absltest.TestCase):
    def test_passes(self):
        self.assertEqual(support.VALUE, 3)

    def test_fails_in_a_subtest(self):
        for i in range(2):
            with self.subTest(i=i):
                self.assertEqual(i, 0)

    def test_errors(self):
        raise RuntimeError("no")


if __name__ == "__main__":
    absltest.main()
'''


def test_the_table_it_reads_is_the_compatibility_page() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    import envpool_tests

    table = envpool_tests.documented()
    text = (ROOT / "docs" / "compatibility.md").read_text()
    total = re.search(r"\| \*\*total\*\* \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \|",
                      text)
    assert total and sum(table.values()) == int(total.group(3))
    assert table["make_test.py"] >= 6 and "mujoco/gym/mujoco_gym_align_test.py" in table


def test_a_file_is_run_as_written_and_counted_per_method(tmp_path: Path) -> None:
    """A test file in EnvPool's layout, with a support module beside it: one method passes,
    one fails in a subtest, one errors; fewer than documented fails --check."""
    (tmp_path / "envpool" / "mujoco").mkdir(parents=True)
    (tmp_path / "envpool" / "make_test.py").write_text(_FAKE)
    (tmp_path / "envpool" / "mujoco" / "pixel_observation_test_utils.py").write_text("VALUE = 3\n")
    out = subprocess.run([sys.executable, str(SCRIPT), "--tests", str(tmp_path), "--only",
                          "^make_test", "--check"], capture_output=True, text=True, timeout=300)
    row = next(line for line in out.stdout.splitlines() if line.startswith("make_test.py"))
    assert row.split()[1:3] == ["3", "1"], out.stdout + out.stderr
    assert "FEWER THAN DOCUMENTED" in row and out.returncode == 1

"""Importing the toolkit or drawing an experiment's figure never changes matplotlib's backend."""

from __future__ import annotations

import subprocess
import sys


def test_figures_leave_the_backend_alone(tmp_path):
    code = f"""
import matplotlib
matplotlib.use("svg")
import verify, theorems.interpolation, theorems.focus_dilution, theorems.ddcl_incrt
from theorems._figures import pyplot, save
fig, ax = pyplot().subplots(1, 2, figsize=(4, 2))
ax[0].plot([0, 1], [1, 0])
save(fig, {str(tmp_path)!r}, "f.png")
assert matplotlib.get_backend() == "svg", matplotlib.get_backend()
import sys
assert "matplotlib.pyplot" not in sys.modules
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "f.png").stat().st_size > 0

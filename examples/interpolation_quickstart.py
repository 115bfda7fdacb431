"""Quick start: build the explicit interpolating transformers of arXiv:2502.02270 for a small dataset.

    python examples/interpolation_quickstart.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theorems.interpolation import Dataset, DatasetError, build_interpolator, certify  # noqa: E402


def main() -> None:
    inputs = [[(0, 0), (1, 0), (1, 1)], [(0, 0), (0, 1), (1, 1), (-1, 1)], [(1, 0), (0, 1), (-1, -1)]]
    outputs = [[(3, -2), (-2, 3)], [(4, 4)], [(-3, -1), (2, 2), (0, -3)]]
    D = Dataset(inputs, outputs)
    hm = build_interpolator(D, "hardmax")
    print(f"hardmax: L = {hm.num_blocks} (paper bound 2M+2N+1 = {hm.paper_count}), P = {hm.num_parameters}, "
          f"width = {hm.width}, largest denominator {hm.max_denominator_bits()} bits")
    for x, y in zip(inputs, outputs):
        out = hm(x)
        print("  ", [tuple(map(str, t)) for t in out], "->", "exact" if set(out) == {tuple(map(int, t)) for t in y} else "WRONG")
    sm = build_interpolator(D, "softmax")
    cert = certify(sm)
    print(f"softmax: L = {sm.num_blocks} (paper bound 2M+3N = {sm.paper_count}), certified tau_c = {cert.tau_c}")
    for bad in (([[(0, 0), (0, 0)]], [[(1, 1)]]), ([[(0, 0)]], [[(1, 1), (2, 2)]])):
        try:
            Dataset(*bad)
        except DatasetError as e:
            print("rejected:", e)


if __name__ == "__main__":
    main()

"""Command line of the focus experiments: ``python -m theorems.focus_dilution.experiments``."""

from __future__ import annotations

import argparse
import os
import time

from . import __doc__ as _DOC
from ._drivers import e1, e2, e3, e5
from ._e4 import e4
from ._e5 import e5s

EXPERIMENTS = {"e1": e1, "e2": e2, "e3": e3, "e4": e4, "e5": e5, "e5s": e5s}
DEFAULT = {"quick": "e1,e2,e3,e4,e5", "thorough": "e1,e2,e3,e4,e5,e5s"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m theorems.focus_dilution.experiments", description=_DOC,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", choices=("quick", "thorough"), default="quick")
    ap.add_argument("--out", default="figures")
    ap.add_argument("--only", default=None,
                    help="comma-separated subset of " + ",".join(EXPERIMENTS) + " (default: " + DEFAULT["quick"]
                         + "; thorough adds e5s)")
    ap.add_argument("--e5-sampled", action="store_true", help="also run the sampled E5 mode (e5s)")
    args = ap.parse_args(argv)
    names = [n.strip() for n in (args.only or DEFAULT[args.profile]).split(",") if n.strip()]
    bad = [n for n in names if n not in EXPERIMENTS]
    if bad:
        ap.error(f"unknown experiment(s) {bad}; choose from {list(EXPERIMENTS)}")
    if args.e5_sampled and "e5s" not in names:
        names.append("e5s")
    os.makedirs(args.out, exist_ok=True)
    for name in names:
        w0 = time.perf_counter()
        EXPERIMENTS[name](args.out, args.profile)
        print(f"[{name}: wall {time.perf_counter() - w0:.1f} s]")
    print(f"\nfigures written to {os.path.abspath(args.out)}")
    return 0


"""Root conftest: loaded before any test module imports numpy or torch.

One BLAS/OpenMP thread per test process: the suite runs on two xdist workers over two cores, and the
checks solve many small problems, for which threaded BLAS only oversubscribes the cores.
"""

import os
import sys

# `examples/` and `benchmarks/` are folders of the checkout, not packages of the install: the tests that
# run them import them from the repository root (pytest's importlib mode puts nothing on sys.path)
_ROOT = os.path.dirname(os.path.abspath(__file__))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# `verify run` remembers check durations (verify/_timings.py); tests keep theirs out of ~/.cache
if "VERIFY_CACHE_DIR" not in os.environ:
    import tempfile

    os.environ["VERIFY_CACHE_DIR"] = tempfile.mkdtemp(prefix="verify-test-timings-")


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", default=False,
                     help="also run the tests marked slow (e.g. every catalogue control through its target)")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` are skipped unless ``--run-slow`` is given."""
    if config.getoption("--run-slow"):
        return
    import pytest

    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)

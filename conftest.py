"""Root conftest: loaded before any test module imports numpy or torch.

One BLAS/OpenMP thread per test process: the suite runs on two xdist workers over two cores, and the
checks solve many small problems, for which threaded BLAS only oversubscribes the cores.
"""

import importlib.util
import os
import sys
import types

# `examples/` and `benchmarks/` are folders of the checkout, not packages of the install, and pytest's
# importlib mode puts nothing on sys.path: register them as packages by path, so that the tests can
# import them.  (Not the repository root on sys.path: importlib.metadata would then also find the
# checkout's egg-info and pytest would try to assertion-rewrite the already imported toolkit.)
_ROOT = os.path.dirname(os.path.abspath(__file__))
for _name in ("examples", "benchmarks"):
    if _name not in sys.modules:
        _init = os.path.join(_ROOT, _name, "__init__.py")
        if os.path.exists(_init):
            _spec = importlib.util.spec_from_file_location(_name, _init,
                                                           submodule_search_locations=[os.path.join(_ROOT, _name)])
            _mod = importlib.util.module_from_spec(_spec)
            sys.modules[_name] = _mod
            _spec.loader.exec_module(_mod)
        else:
            _mod = types.ModuleType(_name)
            _mod.__path__ = [os.path.join(_ROOT, _name)]
            sys.modules[_name] = _mod

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

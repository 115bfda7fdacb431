"""Root conftest: loaded before any test module imports numpy or torch.

One BLAS/OpenMP thread per test process: the suite runs on two xdist workers over two cores, and the
checks solve many small problems, for which threaded BLAS only oversubscribes the cores.
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

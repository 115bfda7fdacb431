"""The batched fast paths of issue 14 against the per-run code they replace, in the same process.

    python benchmarks/engine/bench_batched.py [--quick]

Each row times the batched path and the separate runs on the same inputs (best of three) and checks that
they give what the tests say they give (the very floats, or, for the vectorised training, agreement to
rounding):

* ``ddcl.descend_batch/separate``: ``dictionary.descend_batch`` over B runs against B ``descend`` calls
  (d = 8, K = 4, N = 1000, the shape of ddcl.mlp_vs_dictionary.trained);
* ``ddcl.em_iterate/full_loop``: the pruning check's EM loop stopping at a repeated iterate
  (``_checks_pruning.em_iterate``) against the full 3000 steps, on its R3 instances;
* ``interpolation.cold_start_ensemble/separate``: ``training.train_explicit_ensemble`` over the seven eps
  of the cold-start sweep against seven ``train`` runs (n = 50).
"""

from __future__ import annotations

import copy
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def _best(fn, repeat: int = 3) -> tuple[float, object]:
    best, out = math.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def descend_rows(quick: bool) -> dict:
    import numpy as np

    from theorems.ddcl_incrt.dictionary import descend, descend_batch

    rng = np.random.default_rng(0)
    B, steps = (3, 20) if quick else (10, 300)
    Zs = [rng.standard_normal((1000, 8)) for _ in range(B)]
    Ps = np.stack([Z.mean(0) + 1e-3 * rng.standard_normal((4, 8)) for Z in Zs])
    taus = list(rng.uniform(0.3, 2.0, B))
    descend(Zs[0], Ps[0], taus[0], "full", 2, 0.05)  # warm
    descend_batch(Zs[:2], Ps[:2], taus[:2], "full", 2, 0.05)
    t_sep, sep = _best(lambda: [descend(Zs[b], Ps[b], taus[b], "full", steps, 0.05) for b in range(B)])
    t_bat, bat = _best(lambda: descend_batch(Zs, Ps, taus, "full", steps, 0.05))
    if not all(np.array_equal(bat[b], sep[b]) for b in range(B)):
        raise SystemExit("descend_batch differs from the separate descents")
    return {"runs": B, "steps": steps, "separate_s": t_sep, "batch_s": t_bat, "ratio": t_bat / t_sep}


def em_rows(quick: bool) -> dict:
    import numpy as np

    from theorems.ddcl_incrt._checks_pruning import em_iterate
    from theorems.ddcl_incrt.dictionary import gibbs_assigner

    rng = np.random.default_rng(1)
    cases = []
    for _ in range(3 if quick else 20):
        N, ds, dh, K = (int(rng.integers(20, 80)), int(rng.integers(1, 4)), int(rng.integers(1, 3)),
                        int(rng.integers(2, 5)))
        Y = rng.standard_normal((N, ds + dh)) * np.exp(rng.uniform(-1, 1, ds + dh))
        tau = float(np.exp(rng.uniform(-1, 1)))
        cases.append((gibbs_assigner(Y, tau, K=K, d=ds + dh), Y, Y[rng.choice(N, K, replace=False)]))
    iters = 300 if quick else 3000

    def full():
        out = []
        for assign, Y, P in cases:
            for _ in range(iters):
                Q = assign(P)
                P = (Q.T @ Y) / Q.sum(0)[:, None]
            out.append(P)
        return out

    t_full, ref = _best(full, 1)
    t_em, got = _best(lambda: [em_iterate(a, Y, P, iters) for a, Y, P in cases])
    if not all(np.array_equal(a, b) for a, b in zip(got, ref)):
        raise SystemExit("em_iterate differs from the full loop")
    return {"instances": len(cases), "iterations": iters, "full_s": t_full, "em_iterate_s": t_em,
            "ratio": t_em / t_full}


def ensemble_rows(quick: bool) -> dict:
    import torch

    from theorems.interpolation.training import Fig1Model, fig1_data, train, train_explicit_ensemble

    torch.set_num_threads(1)
    data = fig1_data(n=50)
    eps = [1e-1, 3e-2, 1e-2, 3e-3, 1e-3, 3e-4, 1e-4]
    epochs = 10 if quick else 100

    def separate():
        out = []
        for e in eps:
            torch.manual_seed(0)
            out.append(train(Fig1Model(16), data, epochs=epochs, eps=e, penalty="explicit"))
        return out

    def together():
        torch.manual_seed(0)
        first = Fig1Model(16)
        return train_explicit_ensemble([first] + [copy.deepcopy(first) for _ in eps[1:]], data,
                                       epochs=epochs, eps=eps)

    warm = fig1_data(N=2, d=4, n=3)  # the first step's one-time costs (imports, allocator) outside the timings
    torch.manual_seed(0)
    train(Fig1Model(4), warm, epochs=2, eps=1e-2, penalty="explicit")
    torch.manual_seed(0)
    first = Fig1Model(4)
    train_explicit_ensemble([first, copy.deepcopy(first)], warm, epochs=2, eps=[1e-2, 1e-3])
    t_sep, sep = _best(separate)
    t_ens, ens = _best(together)
    worst = max(abs(a["E"] - b["E"]) / abs(b["E"]) for a, b in zip(ens, sep))
    if worst > 1e-12:
        raise SystemExit(f"the ensemble left the separate runs (relative {worst:.3g} in E)")
    return {"models": len(eps), "epochs": epochs, "separate_s": t_sep, "ensemble_s": t_ens,
            "ratio": t_ens / t_sep, "max_relative_E": worst}


def measure(quick: bool = False) -> dict:
    return {"descend_batch": descend_rows(quick), "em_iterate": em_rows(quick),
            "cold_start_ensemble": ensemble_rows(quick)}


def main(argv: list[str] | None = None) -> dict:
    quick = "--quick" in (argv if argv is not None else sys.argv[1:])
    r = measure(quick)
    for name, row in r.items():
        print(f"{name:22s} ratio {row['ratio']:.3f}  {row}")
    return r


if __name__ == "__main__":
    main()

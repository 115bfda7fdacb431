"""DDCL-INCRT quick start: critical temperature, certified collapse stability, greedy growth, the block.

    python examples/ddcl_quickstart.py
"""

from fractions import Fraction

import numpy as np
import torch

from theorems.ddcl_incrt import DictionaryBlock, collapse_is_stable, critical_temperature, greedy_growth


def main() -> None:
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((500, 3)) * [2.0, 1.0, 0.5]
    for mode in ("full", "free_energy"):
        tc = critical_temperature(Z, mode=mode)
        print(f"{mode:12s} tau_c = {tc.value:.6f}, certified enclosure {tc.enclosure}")
    tc = critical_temperature(Z, mode="full").value
    for rho in (Fraction(9, 10), Fraction(11, 10)):
        s = collapse_is_stable(Z, K=4, tau=Fraction(tc) * rho, mode="full")
        print(f"tau = {float(rho):.1f} tau_c: collapse stable? {s.answer.name} ({s.evidence['reason']})")

    # train a dictionary block below tau_c (stop-gradient / free-energy mode): the prototypes separate
    X = torch.tensor(Z)
    block = DictionaryBlock(d=3, K=4, tau=0.5 * tc / 2, mode="stopgrad",
                            init=X.mean(0) + 1e-3 * torch.randn(4, 3, dtype=torch.float64))
    opt = torch.optim.SGD(block.parameters(), lr=0.05)
    for _ in range(500):
        opt.zero_grad()
        block.dictionary_loss(X).backward()
        opt.step()
    P = block.P.detach()
    print("prototype spread after training:", float((P - P.mean(0)).norm(dim=1).max()))

    S = np.diag([1.0, 0.5, 0.2, -0.3, -1.4])
    grown = greedy_growth(S, threshold=0.3)
    print("greedy growth births:", grown.births)


if __name__ == "__main__":
    main()

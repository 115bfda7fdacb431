"""Drop torch's own ``nn.MultiheadAttention`` into the paper's softmax interpolating transformer.

The toolkit builds the explicit construction of Theorem S and loads each block's score matrix ``A`` and
value matrix ``V`` into your sublayer; ``interp.softmax.exact`` then checks that the network built around
your sublayer interpolates the dataset within the statement's tolerance 10^-(p-12) at float64's p = 15
digits::

    python examples/interp_user_attention.py
    verify run interp.softmax.exact --model examples.interp_user_attention:MHASublayer

One head, wired as a user would: the in-projection carries ``A`` and ``tau`` (``W_q = sqrt(d)/tau A^T``,
``W_k = I``, so that ``q k^T / sqrt(d) = X A X^T / tau``), the values come from ``V`` (``W_v = V``), and
the out-projection is the identity.  The broken variants are what the check catches: a softmax over the
wrong axis (over queries), and a residual added inside the sublayer on top of the block's own.
"""

from __future__ import annotations

import math

import torch


class MHASublayer:
    """``torch.nn.MultiheadAttention`` (one head, no bias) as an AttentionSublayer."""

    def __init__(self, d: int = 2):
        self.d = d
        self.mha = torch.nn.MultiheadAttention(d, 1, bias=False, batch_first=True, dtype=torch.float64)

    def _load(self, A: torch.Tensor, V: torch.Tensor, tau: float) -> None:
        d = A.shape[0]
        if d != self.mha.embed_dim:
            self.mha = torch.nn.MultiheadAttention(d, 1, bias=False, batch_first=True, dtype=torch.float64)
        eye = torch.eye(d, dtype=torch.float64)
        with torch.no_grad():
            self.mha.in_proj_weight.copy_(torch.cat([math.sqrt(d) / tau * A.T, eye, V]))
            self.mha.out_proj.weight.copy_(eye)

    def __call__(self, X: torch.Tensor, A: torch.Tensor, V: torch.Tensor, tau: float) -> torch.Tensor:
        self._load(A, V, tau)
        with torch.no_grad():
            y, _ = self.mha(X[None], X[None], X[None], need_weights=False)
        return y[0]


class SoftmaxOverQueries(MHASublayer):
    """Broken: the attention weights are normalised over the queries (dim 0) instead of the keys."""

    def __call__(self, X: torch.Tensor, A: torch.Tensor, V: torch.Tensor, tau: float) -> torch.Tensor:
        S = X @ A @ X.T / tau
        return torch.softmax(S, dim=0) @ X @ V.T


class ResidualInside(MHASublayer):
    """Broken: the sublayer adds its input (a residual) that the block already adds."""

    def __call__(self, X: torch.Tensor, A: torch.Tensor, V: torch.Tensor, tau: float) -> torch.Tensor:
        return X + super().__call__(X, A, V, tau)


def main() -> int:
    from verify import check_model

    for layer in (MHASublayer(), SoftmaxOverQueries(), ResidualInside()):
        for claim in ("interp.softmax.exact", "interp.tikhonov.upper_bound"):
            out = check_model(claim, layer)
            ev = out.checks[0].evidence
            print(f"{type(layer).__name__:20s} {claim:28s} {out.verdict.value:10s} worst margin {ev.margin_min}")
            if ev.counterexample is not None:
                print(f"    {ev.counterexample.description[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

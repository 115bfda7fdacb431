"""Export of a constructed network to a plain float64 ``torch.nn.Module`` (the bridge to user code).

Each block is FF then SA with the exact weights rounded once to float64:

* FF: ``x <- eta x + relu(x U^T + b) W^T`` (``W`` stacked column by column);
* SA: scores ``S_il = alpha <x_i, x_l> + sum_k (q_k . x_i)(p_k . x_l)`` (query i, key l), masked keys
  get ``-inf``; softmax of ``S / tau``, or float hardmax: uniform weights on every key whose score is
  within ``64 eps |S|_max`` of the row maximum (the float stand-in for exact tie detection; exactness
  is *never* claimed from floats, spec §3.7); ``x <- rho x + lam pi x``.
* No A: uniform attention over the unmasked tokens of the sequence.

``forward(X, mask=None)`` takes ``(n, d)`` or a padded batch ``(B, n, d)`` with a boolean ``mask``
``(B, n)`` (True = real token): attention never sees padding (spec pitfall 8).
"""

from __future__ import annotations

from typing import Any

import torch

from .construction import InterpolatingTransformer, _as_fraction

__all__ = ["TorchInterpolator", "pad_batch"]


def _t(rows: Any, shape: tuple[int, ...]) -> torch.Tensor:
    flat = [float(_as_fraction(v)) for r in rows for v in (r if isinstance(r, (tuple, list)) else (r,))]
    return torch.tensor(flat, dtype=torch.float64).reshape(shape)


class TorchInterpolator(torch.nn.Module):
    def __init__(self, model: InterpolatingTransformer, *, tau: float | None = None):
        super().__init__()
        self.d = model.d
        self.attention = model.attention
        self.tau = tau
        self.blocks_meta: list[dict[str, Any]] = []
        d = model.d
        for bi, blk in enumerate(model.blocks):
            ff, sa = blk.ff, blk.sa
            w = ff.width
            meta: dict[str, Any] = {"eta": float(_as_fraction(ff.eta)), "width": w,
                                    "rho": float(_as_fraction(sa.rho)), "lam": float(_as_fraction(sa.lam)),
                                    "attn": "none" if sa.lam == 0 else ("uniform" if sa.A is None else "A")}
            if w:
                self.register_buffer(f"U{bi}", _t(ff.U, (w, d)))
                self.register_buffer(f"b{bi}", _t(ff.b, (w,)))
                self.register_buffer(f"W{bi}", _t(ff.W, (w, d)).T.contiguous())  # (d, w)
            if meta["attn"] == "A":
                A = sa.A
                meta["alpha"] = float(_as_fraction(A.alpha))
                r = A.rank
                meta["rank"] = r
                if r:
                    self.register_buffer(f"P{bi}", _t([p for p, _ in A.factors], (r, d)))
                    self.register_buffer(f"Q{bi}", _t([q for _, q in A.factors], (r, d)))
            self.blocks_meta.append(meta)

    @property
    def num_blocks(self) -> int:
        return len(self.blocks_meta)

    def forward(self, X: torch.Tensor, mask: torch.Tensor | None = None, *, tau: float | None = None,
                kernel: str | None = None) -> torch.Tensor:
        kernel = kernel or self.attention
        tau = self.tau if tau is None else tau
        if kernel == "softmax" and tau is None:
            raise ValueError("softmax forward needs a temperature tau")
        single = X.dim() == 2
        if single:
            X = X.unsqueeze(0)
        if X.dim() != 3 or X.shape[-1] != self.d:
            raise ValueError(f"expected tokens of shape (n, {self.d}) or (B, n, {self.d}), got {tuple(X.shape)}")
        if X.dtype != torch.float64:
            raise ValueError("the exported model is float64; pass a float64 tensor")
        if mask is None:
            mask = torch.ones(X.shape[:2], dtype=torch.bool)
        keym = mask[:, None, :]  # (B, 1, n)
        cnt = mask.sum(dim=1, keepdim=True).to(X.dtype)[:, :, None]  # (B, 1, 1)
        for bi, m in enumerate(self.blocks_meta):
            if m["width"]:
                U, b, W = getattr(self, f"U{bi}"), getattr(self, f"b{bi}"), getattr(self, f"W{bi}")
                H = torch.relu(X @ U.T + b)
                X = (X if m["eta"] == 1.0 else m["eta"] * X) + H @ W.T
            elif m["eta"] != 1.0:
                X = m["eta"] * X
            if m["attn"] == "none":
                if m["rho"] != 1.0:
                    X = m["rho"] * X
                continue
            if m["attn"] == "uniform":
                mean = (X * mask[:, :, None]).sum(dim=1, keepdim=True) / cnt
                X = m["rho"] * X + m["lam"] * mean.expand_as(X)
                continue
            S = torch.zeros(X.shape[0], X.shape[1], X.shape[1], dtype=X.dtype)
            if m["alpha"]:
                S = S + m["alpha"] * (X @ X.transpose(1, 2))
            if m.get("rank"):
                Pm, Qm = getattr(self, f"P{bi}"), getattr(self, f"Q{bi}")
                S = S + (X @ Qm.T) @ (X @ Pm.T).transpose(1, 2)
            S = S.masked_fill(~keym, float("-inf"))
            if kernel == "softmax":
                pi = torch.softmax(S / tau, dim=-1)
            else:
                top = S.max(dim=-1, keepdim=True).values
                scale = S.masked_fill(~keym, 0).abs().amax(dim=-1, keepdim=True).clamp_min(1.0)
                win = (S >= top - 64 * torch.finfo(X.dtype).eps * scale) & keym
                pi = win.to(X.dtype)
                pi = pi / pi.sum(dim=-1, keepdim=True)
            X = m["rho"] * X + m["lam"] * (pi @ X)
        return X[0] if single else X


def pad_batch(sequences: list[list[tuple]]) -> tuple[torch.Tensor, torch.Tensor]:
    """Pad sequences of exact tokens into a float64 batch ``(B, n, d)`` and its mask ``(B, n)``."""
    n = max(len(s) for s in sequences)
    d = len(sequences[0][0])
    X = torch.zeros(len(sequences), n, d, dtype=torch.float64)
    mask = torch.zeros(len(sequences), n, dtype=torch.bool)
    for j, s in enumerate(sequences):
        X[j, :len(s)] = torch.tensor([[float(_as_fraction(v)) for v in t] for t in s], dtype=torch.float64)
        mask[j, :len(s)] = True
    return X, mask

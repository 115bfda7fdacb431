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

import math
from typing import TYPE_CHECKING, Any

import torch

from numerics.errors import InputError, InputTypeError
from numerics.exact import _as_fraction
from numerics.validation import check_positive_real

if TYPE_CHECKING:  # the model imports this module lazily (to_torch); no import back at run time
    from .network import InterpolatingTransformer

__all__ = ["TorchInterpolator", "pad_batch"]


def _float_tau(tau: Any) -> float:
    """``tau`` checked (a finite real > 0) and as a float64 that is finite and > 0."""
    exact = check_positive_real(tau, "tau")  # reads "p/q" strings too
    try:
        t = float(exact)
    except OverflowError:
        t = float("inf")
    if not 0.0 < t < float("inf"):
        raise InputError("tau", "must be a float64 number > 0 and finite (it leaves the float64 range)", tau,
                         has_value=True)
    return t


def _w(v: Any) -> float:
    """One exact weight rounded to float64; a weight beyond the float64 range cannot be exported."""
    f = _as_fraction(v)
    try:
        return float(f)
    except OverflowError:
        raise InputError("model", "has a weight beyond the float64 range (the dataset's coordinates are too "
                         "large for a float64 export); evaluate it exactly with the model itself",
                         f"|w| ~ 2^{abs(f.numerator).bit_length() - f.denominator.bit_length()}",
                         has_value=True) from None


def _t(rows: Any, shape: tuple[int, ...]) -> torch.Tensor:
    flat = [_w(v) for r in rows for v in (r if isinstance(r, (tuple, list)) else (r,))]
    return torch.tensor(flat, dtype=torch.float64).reshape(shape)


class TorchInterpolator(torch.nn.Module):
    def __init__(self, model: "InterpolatingTransformer", *, tau: float | None = None):
        super().__init__()
        if tau is not None:
            tau = _float_tau(tau)
        self.d = model.d
        self.attention = model.attention
        self.tau = tau
        self.blocks_meta: list[dict[str, Any]] = []
        d = model.d
        for bi, blk in enumerate(model.blocks):
            ff, sa = blk.ff, blk.sa
            w = ff.width
            meta: dict[str, Any] = {"eta": _w(ff.eta), "width": w,
                                    "rho": _w(sa.rho), "lam": _w(sa.lam),
                                    "attn": "none" if sa.lam == 0 else ("uniform" if sa.A is None else "A")}
            if w:
                self.register_buffer(f"U{bi}", _t(ff.U, (w, d)))
                self.register_buffer(f"b{bi}", _t(ff.b, (w,)))
                self.register_buffer(f"W{bi}", _t(ff.W, (w, d)).T.contiguous())  # (d, w)
            if meta["attn"] == "A":
                A = sa.A
                meta["alpha"] = _w(A.alpha)
                r = A.rank
                meta["rank"] = r
                if r:
                    self.register_buffer(f"P{bi}", _t([p for p, _ in A.factors], (r, d)))
                    self.register_buffer(f"Q{bi}", _t([q for _, q in A.factors], (r, d)))
            self.blocks_meta.append(meta)

    def _user_attention(self, bi: int, m: dict[str, Any], X: torch.Tensor, mask: torch.Tensor, tau: float,
                        layer: Any) -> torch.Tensor:
        A = _score_matrix(self, bi, m)
        V = torch.eye(self.d, dtype=torch.float64)
        out = torch.zeros_like(X)
        for b in range(X.shape[0]):
            n = int(mask[b].sum())
            Xb = X[b, :n]
            Y = layer(Xb, A.to(Xb.dtype), V.to(Xb.dtype), tau)
            if not isinstance(Y, torch.Tensor) or tuple(Y.shape) != tuple(Xb.shape):
                raise InputError("attention_layer", f"must return a tensor of shape {tuple(Xb.shape)} "
                                 "(the attention output for the sequence)",
                                 getattr(Y, "shape", type(Y).__name__), has_value=True)
            out[b, :n] = Y.to(X.dtype)
        return out

    @property
    def num_blocks(self) -> int:
        return len(self.blocks_meta)

    def forward(self, X: torch.Tensor, mask: torch.Tensor | None = None, *, tau: float | None = None,
                kernel: str | None = None, attention_layer: Any = None) -> torch.Tensor:
        """The network on a batch; ``attention_layer`` (a user's self-attention sublayer ``(X, A, V,
        tau) -> softmax(X A X^T / tau) X V^T`` on one sequence, or with ``tau=None`` the tie-averaging
        hardmax, :class:`.models.AttentionSublayer`) replaces the built-in attention of every block,
        with the block's score matrix ``A`` and value matrix ``V = I`` loaded into it
        (``theorems.interpolation.models``)."""
        kernel = kernel or self.attention
        if kernel not in ("hardmax", "softmax"):
            raise InputError("kernel", "must be 'hardmax' or 'softmax'", kernel, has_value=True)
        if tau is not None:
            tau = _float_tau(tau)
        tau = self.tau if tau is None else tau
        if kernel == "softmax" and tau is None:
            raise InputError("tau", "softmax forward needs a temperature tau > 0")
        shape_rule = f"must be a float64 tensor of shape (n, {self.d}) or (B, n, {self.d}) with n >= 1, B >= 1"
        if not isinstance(X, torch.Tensor):
            raise InputTypeError("X", shape_rule, type(X).__name__, has_value=True)
        if X.dtype != torch.float64:
            raise InputError("X", shape_rule + " (the exported model is float64)", X.dtype, has_value=True)
        single = X.dim() == 2
        if single:
            X = X.unsqueeze(0)
        if X.dim() != 3 or X.shape[-1] != self.d or X.shape[0] == 0 or X.shape[1] == 0:
            raise InputError("X", shape_rule, tuple(X.shape if not single else X.shape[1:]), has_value=True)
        if not bool(torch.isfinite(X).all()):
            raise InputError("X", "every coordinate must be finite (no NaN or inf)")
        if mask is None:
            mask = torch.ones(X.shape[:2], dtype=torch.bool)
        else:
            mrule = f"must be a bool tensor of shape {tuple(X.shape[:2]) if not single else (X.shape[1],)} " \
                    "with at least one True (real token) per sequence"
            if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool:
                raise InputTypeError("mask", mrule, type(mask).__name__ if not isinstance(mask, torch.Tensor)
                                     else mask.dtype, has_value=True)
            if single and mask.dim() == 1:
                mask = mask.unsqueeze(0)
            if tuple(mask.shape) != tuple(X.shape[:2]) or not bool(mask.any(dim=1).all()):
                raise InputError("mask", mrule, tuple(mask.shape), has_value=True)
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
            if attention_layer is not None:  # tau is None for hardmax
                X = m["rho"] * X + m["lam"] * self._user_attention(
                    bi, m, X, mask, tau if kernel == "softmax" else None, attention_layer)
                continue
            S = torch.zeros(X.shape[0], X.shape[1], X.shape[1], dtype=X.dtype)
            if m["alpha"]:
                S = S + m["alpha"] * (X @ X.transpose(1, 2))
            if m.get("rank"):
                Pm, Qm = getattr(self, f"P{bi}"), getattr(self, f"Q{bi}")
                S = S + (X @ Qm.T) @ (X @ Pm.T).transpose(1, 2)
            S = S.masked_fill(~keym, float("-inf"))
            if kernel == "softmax":
                # shift by the row maximum before dividing: (S - max)/tau is <= 0 for every tau > 0,
                # so a tiny tau cannot overflow to inf - inf
                top = S.max(dim=-1, keepdim=True).values
                pi = torch.softmax((S - top) / tau, dim=-1)
            else:
                top = S.max(dim=-1, keepdim=True).values
                scale = S.masked_fill(~keym, 0).abs().amax(dim=-1, keepdim=True).clamp_min(1.0)
                win = (S >= top - 64 * torch.finfo(X.dtype).eps * scale) & keym
                pi = win.to(X.dtype)
                pi = pi / pi.sum(dim=-1, keepdim=True)
            X = m["rho"] * X + m["lam"] * (pi @ X)
        if not bool(torch.isfinite(X[mask]).all()):
            raise InputError("X", "the float64 forward overflowed on these tokens (too large for float64); "
                             "evaluate them exactly with the InterpolatingTransformer itself")
        return X[0] if single else X


def _score_matrix(tm: TorchInterpolator, bi: int, m: dict[str, Any]) -> torch.Tensor:
    """The block's score matrix A (d x d) with S = X A X^T: alpha I + sum_r q_r p_r^T."""
    A = m.get("alpha", 0.0) * torch.eye(tm.d, dtype=torch.float64)
    if m.get("rank"):
        A = A + getattr(tm, f"Q{bi}").T @ getattr(tm, f"P{bi}")
    return A


def pad_batch(sequences: list[list[tuple]]) -> tuple[torch.Tensor, torch.Tensor]:
    """Pad sequences of exact tokens into a float64 batch ``(B, n, d)`` and its mask ``(B, n)``."""
    rule = "must be a non-empty list of non-empty sequences of tokens of one dimension, in the float64 range"
    if isinstance(sequences, (str, bytes)) or not hasattr(sequences, "__len__") or len(sequences) == 0 \
            or any(isinstance(s, (str, bytes)) or not hasattr(s, "__len__") or len(s) == 0 for s in sequences):
        raise InputError("sequences", rule)
    n = max(len(s) for s in sequences)
    d = len(sequences[0][0])
    X = torch.zeros(len(sequences), n, d, dtype=torch.float64)
    mask = torch.zeros(len(sequences), n, dtype=torch.bool)
    for j, s in enumerate(sequences):
        try:
            rows = [[float(_as_fraction(v)) for v in t] for t in s]
        except (OverflowError, TypeError, ValueError, AttributeError):
            raise InputError("sequences", rule, f"sequence {j}", has_value=True) from None
        if any(len(r) != d for r in rows) or not all(map(math.isfinite, (v for r in rows for v in r))):
            raise InputError("sequences", rule, f"sequence {j}", has_value=True)
        X[j, :len(s)] = torch.tensor(rows, dtype=torch.float64)
        mask[j, :len(s)] = True
    return X, mask

"""The finite-context one-layer model in torch (spec §2.3) and its Monte Carlo loss (spec §4.1).

For a sequence x_1..x_s (one-hot tokens) and the query q = x_s:

    a_i = exp(Phi_{q x_i}/tau) / sum_{j <= s} exp(Phi_{q x_j}/tau),   z = sum_i a_i M_{x_i,:},

with M = W0 W1, Phi = W0 W_Q W_K^T W0^T (no value matrix, residual, LayerNorm, positions or biases;
reading A1).  The loss is -log softmax(z)_{x_{s+1}}.  ``include_self=False`` drops the query's own
position from the attention (an O(1/s) effect).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = ["finite_context_logits", "finite_context_loss", "regrouped_logits", "context_counts", "regrouped_loss",
           "monte_carlo_loss", "one_thread"]


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """torch's intra-op pool at one thread inside the block (restored after).  The focus models run on
    tensors of at most a few 10^5 entries, reduced row by row (softmax, gathers, small matmuls): each row
    is one thread's work at any thread count, so the values are the same, and a second thread only adds
    synchronisation -- 20-40x slower per gradient of a user's 4 x 4 model, ~10x more CPU for the Monte
    Carlo losses, on a loaded 2-core machine.  (Worker processes of the engine already run one thread.)"""
    import torch

    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(n)


def _check(X: Any, M: Any, Phi: Any) -> None:
    d = M.shape[0]
    if M.shape != (d, d) or Phi.shape != (d, d):
        raise ValueError(f"M and Phi must be d x d, got {tuple(M.shape)} and {tuple(Phi.shape)}")
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(f"X must be an (n, s+1) integer array with s >= 1, got shape {tuple(X.shape)}")
    if int(X.min()) < 0 or int(X.max()) >= d:
        raise ValueError(f"token ids must lie in [0, {d}), got range [{int(X.min())}, {int(X.max())}]")


def finite_context_logits(X: Any, M: Any, Phi: Any, tau: float = 1.0, *, include_self: bool = True) -> Any:
    """Logits z (n x d) of the finite-context model, position by position (torch float64).

    ``X`` holds the inputs x_1..x_s (n x s, integer ids).
    """
    import torch

    X = torch.as_tensor(X)
    M = torch.as_tensor(M, dtype=torch.float64)
    Phi = torch.as_tensor(Phi, dtype=torch.float64)
    q = X[:, -1]
    keys = X if include_self else X[:, :-1]
    scores = Phi[q[:, None], keys] / tau  # n x s
    a = torch.softmax(scores, dim=1)
    return torch.einsum("ns,nsd->nd", a, M[keys])


def finite_context_loss(X: Any, M: Any, Phi: Any, tau: float = 1.0, *, include_self: bool = True) -> Any:
    """Per-sequence losses -log softmax(z)_y for X = (x_1..x_s, y) (n x (s + 1))."""
    import torch

    X = torch.as_tensor(X)
    _check(X, torch.as_tensor(M), torch.as_tensor(Phi))
    z = finite_context_logits(X[:, :-1], M, Phi, tau, include_self=include_self)
    return -torch.log_softmax(z, dim=1).gather(1, X[:, -1:]).squeeze(1)


def regrouped_logits(X: Any, M: np.ndarray, Phi: np.ndarray, tau: float = 1.0) -> np.ndarray:
    """z = A_hat_q M with A_hat_q = softmax(Phi_{q,:}/tau + log n_hat), n_hat the token counts of x_1..x_s
    (the exact regrouping identity of spec §2.4; tokens absent from the context get weight 0)."""
    X = np.asarray(X)
    d = M.shape[0]
    counts = np.stack([np.bincount(r, minlength=d) for r in X]).astype(np.float64)
    S = Phi[X[:, -1]] / tau
    S = S - S.max(axis=1, keepdims=True)
    W = counts * np.exp(S)
    A = W / W.sum(axis=1, keepdims=True)
    return A @ M


def context_counts(X: Any, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(q, counts, y) of sequences X = (x_1..x_s, y) (n x (s + 1)): q = x_s and
    counts[n, k] = #{i <= s: x_i = k} -- all the finite-context loss depends on (spec §2.4)."""
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(f"X must be (n, s + 1) with s >= 1, got shape {X.shape}")
    if X.min() < 0 or X.max() >= d:
        raise ValueError(f"token ids must lie in [0, {d})")
    n = X.shape[0]
    ctx = X[:, :-1]
    counts = np.bincount((ctx + d * np.arange(n)[:, None]).ravel(), minlength=n * d).reshape(n, d)
    return ctx[:, -1].copy(), counts.astype(np.float64), X[:, -1].copy()


def regrouped_loss(q: Any, counts: Any, y: Any, M: Any, Phi: Any, tau: float = 1.0) -> Any:
    """Mean finite-context loss (torch, differentiable) of fixed sequences given as (q, counts, y), by the
    exact regrouping of spec §2.4: attention over positions equals counts_k e^{Phi_qk/tau} / sum_j
    counts_j e^{Phi_qj/tau} per token -- the value of :func:`finite_context_loss` at O(n d^2) instead of
    O(n s d)."""
    import torch

    S = Phi[q] / tau
    S = S - S.masked_fill(counts == 0, float("-inf")).amax(dim=1, keepdim=True).detach()
    E = counts * torch.exp(S)
    A = E / E.sum(dim=1, keepdim=True)
    z = A @ M
    return -torch.log_softmax(z, dim=1).gather(1, y[:, None]).mean()


def monte_carlo_loss(chain: Any, M: np.ndarray, Phi: np.ndarray, *, s: int, n: int, seed: int,
                     tau: float = 1.0, start: str = "stationary", batch: int = 4096) -> tuple[float, float]:
    """(mean, standard error) of the finite-context loss over n sampled sequences of length s + 1."""
    rng = np.random.default_rng(seed)
    losses = []
    done = 0
    with one_thread():
        while done < n:
            b = min(batch, n - done)
            X = chain.sample(b, s, rng, start=start)
            losses.append(finite_context_loss(X, M, Phi, tau).numpy())
            done += b
    v = np.concatenate(losses)
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(len(v)))

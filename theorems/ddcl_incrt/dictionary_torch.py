"""The DDCL dictionary block as a torch ``nn.Module`` (spec §2.2, §2.4), built lazily so that importing
the numeric block (``dictionary``) never imports torch.  ``DictionaryBlock`` is the class;
``theorems.ddcl_incrt.DictionaryBlock`` resolves to it (lazily: torch is imported only then)."""

from __future__ import annotations

from typing import Any

import numpy as _np

from numerics.errors import InputError, InputTypeError

from .dictionary import as_data, check_tau, math_inv_softplus, mode_constant

def _torch():
    import torch

    return torch


def make_dictionary_block_class():
    torch = _torch()
    nn = torch.nn
    F = torch.nn.functional

    class DictionaryBlock(nn.Module):
        """The DDCL dictionary block as a torch module (spec §2.2, §2.4).

        ``forward(Z)`` returns the soft reconstruction ``Zt = Q P`` with Gibbs assignments
        ``q_ik ∝ exp(-|z_i - p_k|^2 / tau_eff)`` (log-sum-exp).  ``losses(Z)`` returns the spec's
        L_q, L_OLS, V, H and F.  ``dictionary_loss(Z)`` is L_q (mode ``full``: live assignments) or
        F (mode ``stopgrad``: its gradient in P is the detached L_q gradient).

        Parameterisations: ``param="free"`` (P is a parameter) or ``"dual_linear"``
        (``p_k = sum_i Psi_ik z_i + b_k 1``, tied to the batch positions, ``n_batch`` rows).
        Temperature: fixed, or learnable as ``tau = tau_min + softplus(s)``.
        """

        def __init__(self, d: int, K: int, *, tau: float = 1.0, mode: str = "stopgrad",
                     param: str = "free", learn_tau: bool = False, tau_min: float = 1e-3,
                     tau_scale: int = 1, n_batch: int | None = None, init: Any = None,
                     dtype: Any = None):
            super().__init__()
            for name, v in (("d", d), ("K", K)):
                if isinstance(v, (bool, _np.bool_)) or not isinstance(v, (int, _np.integer)):
                    raise InputTypeError(name, "must be an integer >= 1", v)
                if v < 1:
                    raise InputError(name, "must be an integer >= 1", v)
            mode_constant(mode)
            if not isinstance(param, str) or param not in ("free", "dual_linear"):
                raise InputError("param", "must be 'free' or 'dual_linear'", param)
            if isinstance(tau_scale, bool) or tau_scale not in (1, 2):
                raise InputError("tau_scale", "must be 1 or 2", tau_scale)
            tau = check_tau(tau)
            if not isinstance(learn_tau, (bool, _np.bool_)):
                raise InputTypeError("learn_tau", "must be True or False", learn_tau)
            tau_min = check_tau(tau_min, "tau_min")
            if learn_tau:
                if not tau_min < tau:
                    raise InputError("tau_min", f"need 0 < tau_min < tau = {tau}", tau_min)
            if dtype is not None and dtype not in (torch.float64, torch.float32):
                raise InputTypeError("dtype", "must be None, torch.float64 or torch.float32", dtype)
            dtype = dtype or torch.float64
            self.d, self.K, self.mode, self.param = int(d), int(K), mode, param
            self.tau_scale, self.tau_min, self.learn_tau = tau_scale, float(tau_min), bool(learn_tau)
            if param == "free":
                if init is None:
                    P0 = torch.zeros(K, d, dtype=dtype)
                else:
                    P0 = torch.as_tensor(as_data(init.detach().cpu().numpy() if torch.is_tensor(init)
                                                 else init, "init"), dtype=dtype)
                    if tuple(P0.shape) != (K, d):
                        raise InputError("init", f"must have shape {(K, d)}", f"shape {tuple(P0.shape)}")
                    if not torch.isfinite(P0).all():
                        raise InputError("init", "must be finite in the block's dtype")
                self.P = nn.Parameter(P0.clone())
            else:
                if (n_batch is None or isinstance(n_batch, (bool, _np.bool_))
                        or not isinstance(n_batch, (int, _np.integer)) or n_batch < 1):
                    raise InputError("n_batch", "param='dual_linear' needs an integer n_batch >= 1 "
                                     "(rows of the batch)", n_batch)
                self.n_batch = int(n_batch)
                self.Psi = nn.Parameter(torch.full((self.n_batch, K), 1.0 / self.n_batch, dtype=dtype))
                self.b = nn.Parameter(torch.zeros(K, dtype=dtype))
            if learn_tau:
                s0 = math_inv_softplus(float(tau) - self.tau_min)
                self.s = nn.Parameter(torch.tensor(s0, dtype=dtype))
            else:
                self.register_buffer("tau_fixed", torch.tensor(float(tau), dtype=dtype))

        @property
        def tau(self):
            if self.learn_tau:
                return self.tau_min + F.softplus(self.s)
            return self.tau_fixed

        def prototypes(self, Z=None):
            if self.param == "free":
                return self.P
            if Z is None or Z.shape[0] != self.n_batch:
                raise ValueError(f"dual_linear prototypes need the batch Z with {self.n_batch} rows")
            return self.Psi.T @ Z + self.b[:, None]

        def _check(self, Z):
            """Z as an (N, d) tensor in the block's dtype; InputError / InputTypeError naming Z."""
            if not torch.is_tensor(Z):
                raise InputTypeError("Z", "must be a torch.Tensor of shape (N, d)", type(Z).__name__)
            if Z.is_complex() or Z.dtype == torch.bool:
                raise InputTypeError("Z", "must be a real tensor", f"dtype {Z.dtype}")
            if Z.ndim != 2 or Z.shape[1] != self.d or Z.shape[0] == 0:
                raise InputError("Z", f"must have shape (N, {self.d}) with N >= 1", f"shape {tuple(Z.shape)}")
            dtype = self.tau.dtype
            if Z.dtype != dtype:
                Z = Z.to(dtype)
            if not torch.isfinite(Z).all():
                raise InputError("Z", "must not contain NaN or infinite entries (in the block's dtype)")
            return Z

        @staticmethod
        def _finite(out):
            vals = out.values() if isinstance(out, dict) else (out,)
            if not all(bool(torch.isfinite(v).all()) for v in vals):
                raise InputError("Z", "the block's outputs are not finite in floating point for these "
                                 "inputs (|Z|, |P| or 1/tau too large)", has_value=False)
            return out

        def assignments(self, Z):
            Z = self._check(Z)
            P = self.prototypes(Z)
            D = ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)
            if not bool(torch.isfinite(D).all()):
                raise InputError("Z", "squared distances |z_i - p_k|^2 overflow the block's dtype",
                                 has_value=False)
            # softmax is shift-invariant: subtracting the (detached) row minimum first keeps a tiny tau
            # from turning every logit into -inf (NaN rows); values and gradients are unchanged
            Dm = D.min(1, keepdim=True).values.detach()
            return torch.softmax(-(D - Dm) / (self.tau * self.tau_scale), dim=1), D, P

        def forward(self, Z):
            Q, _, P = self.assignments(Z)
            return self._finite(Q @ P)

        def losses(self, Z):
            Z = self._check(Z)
            Q, D, P = self.assignments(Z)
            t = self.tau * self.tau_scale
            Zt = Q @ P
            Lq = (Q * D).sum(1).mean()
            Lo = ((Z - Zt) ** 2).sum(1).mean()
            V = (Q * ((P[None] - Zt[:, None]) ** 2).sum(-1)).sum(1).mean()
            Dm = D.min(1, keepdim=True).values.detach()
            H = -(Q * torch.log_softmax(-(D - Dm) / t, dim=1)).sum(1).mean()
            # F = -t logsumexp(-D/t) = min D - t logsumexp(-(D - min D)/t) (the same function)
            Fe = (Dm[:, 0] - t * torch.logsumexp(-(D - Dm) / t, dim=1)).mean()
            return self._finite({"L_q": Lq, "L_OLS": Lo, "V": V, "H": H, "F": Fe})

        def dictionary_loss(self, Z):
            L = self.losses(Z)
            return L["L_q"] if self.mode == "full" else L["F"]

    return DictionaryBlock


_BLOCK_CLASS = None


def __getattr__(name: str) -> Any:  # the class is built on first access (torch imported then)
    global _BLOCK_CLASS
    if name == "DictionaryBlock":
        if _BLOCK_CLASS is None:
            _BLOCK_CLASS = make_dictionary_block_class()
        return _BLOCK_CLASS
    raise AttributeError(name)

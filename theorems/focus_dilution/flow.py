"""Gradient flow of the population loss (spec §2.6-§2.8, §5): full model, the rank-one invariant
manifold's reduced ODE, trajectories with detectors, events and stages.

Full flow: theta = (W0, W1, W_Q, W_K), theta' = -grad L(theta) with the closed-form gradients of
:mod:`.population`.  Initialisation (spec §2.6): ``numpy.random.default_rng(seed)`` draws W0, W1, W_Q,
W_K in that order, each eps * standard normal.

Reduced ODE (spec §2.8) on (gamma, beta, lam_Q, lam_K), M = gamma beta^T, Phi = kappa gamma gamma^T,
kappa = lam_Q lam_K:

    gamma' = -[G_M beta + kappa (G_Phi + G_Phi^T) gamma],  beta' = -G_M^T gamma,
    lam_Q' = -(gamma^T G_Phi gamma) lam_K,                 lam_K' = -(gamma^T G_Phi gamma) lam_Q.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from numerics.arithmetic import Arithmetic
from numerics.compiled import Kernel, compile_kernel
from numerics.errors import InputError, InputTypeError, check_arg
from numerics.flows import MAX_EVALS, FlowError, Stages, detect_stages, first_time, geometric_grid, integrate
from numerics.markov import MarkovChain
from numerics.validation import check_int, check_positive_real

from .population import FLOAT, attention, grad_M_Phi, param_grads, population_loss, reference_formulas

__all__ = ["Shapes", "init_params", "pack", "unpack", "full_rhs", "Trajectory", "run_flow",
           "reduced_rhs", "run_reduced", "reduced_state", "theta_c1", "events", "cached_flow",
           "reduced_field"]


@dataclass(frozen=True)
class Shapes:
    d: int
    m: int
    mk: int

    @property
    def size(self) -> int:
        return 2 * self.d * self.m + 2 * self.m * self.mk


def unpack(y: np.ndarray, sh: Shapes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Split a flat state (..., size) into (W0, W1, W_Q, W_K) with leading batch dims preserved."""
    d, m, mk = sh.d, sh.m, sh.mk
    lead = y.shape[:-1]
    a, b, c = d * m, 2 * d * m, 2 * d * m + m * mk
    return (y[..., :a].reshape(lead + (d, m)), y[..., a:b].reshape(lead + (m, d)),
            y[..., b:c].reshape(lead + (m, mk)), y[..., c:].reshape(lead + (m, mk)))


def pack(W0: Any, W1: Any, WQ: Any, WK: Any) -> np.ndarray:
    lead = W0.shape[:-2]
    shape = lead + (-1,)
    return np.concatenate([W0.reshape(shape), W1.reshape(shape), WQ.reshape(shape), WK.reshape(shape)], axis=-1)


def init_params(d: int, m: int, mk: int, eps: float, seed: int) -> np.ndarray:
    """Spec §2.6: default_rng(seed) draws W0, W1, W_Q, W_K in that order, eps * N(0, 1)."""
    if eps <= 0:
        raise ValueError(f"eps must be > 0, got {eps}")
    rng = np.random.default_rng(seed)
    W0 = eps * rng.standard_normal((d, m))
    W1 = eps * rng.standard_normal((m, d))
    WQ = eps * rng.standard_normal((m, mk))
    WK = eps * rng.standard_normal((m, mk))
    return pack(W0, W1, WQ, WK)


def _saddle_vectors(chain: Any) -> tuple[np.ndarray, np.ndarray]:
    """(gamma1, beta1) = (s_c pi_hat, s_c l_hat) of theta_c^1, from population.reference_formulas."""
    f = reference_formulas(list(chain.pi), np.asarray(chain.P).tolist(), log=np.log, sqrt=np.sqrt)
    if "gamma1" not in f:
        raise ValueError("theta_c^1 needs a non-uniform stationary law (for uniform pi it is the origin)")
    return np.array(f["gamma1"], dtype=np.float64), np.array(f["beta1"], dtype=np.float64)


def theta_c1(chain: Any, m: int, mk: int, *, attn_scale: float = 0.0) -> np.ndarray:
    """theta_c^1 (spec §4.6): W0 = s_c pi_hat e1^T, W1 = s_c e1 l_hat^T, W_Q = W_K = attn_scale e1 e1^T."""
    gamma1, beta1 = _saddle_vectors(chain)
    d = len(gamma1)
    W0 = np.zeros((d, m))
    W1 = np.zeros((m, d))
    W0[:, 0] = gamma1
    W1[0, :] = beta1
    WQ = np.zeros((m, mk))
    WK = np.zeros((m, mk))
    WQ[0, 0] = WK[0, 0] = attn_scale
    return pack(W0, W1, WQ, WK)


# Compiled fields only for small models, where numpy's per-call dispatch dominates: trace and compile cost
# grows with the model, steeply in d (full field: 0.1 s at (4, 8, 8), 1.5 s at (8, 16, 16), 3.5 s at
# (16, 4, 4), 29 s at (24, 2, 2); reduced: 0.4 s at d = 8, 2.9 s at d = 16, minutes at d = 32), while
# numpy's share of useful work grows with it.
COMPILE_MAX_PARAMS = 1024
COMPILE_MAX_D_FULL = 8
COMPILE_MAX_D_REDUCED = 12
_TAU_MIN = 1.0 / np.finfo(np.float64).max  # below it the kernel's 1/tau (symengine's x * tau**-1) is inf


def _compilable_tau(tau: float) -> bool:
    """Whether the compiled field computes x/tau as numpy does: it forms 1/tau, which overflows for a
    subnormal tau (numpy's x/tau stays finite there), so such temperatures run the numpy field."""
    return tau >= _TAU_MIN


@lru_cache(maxsize=32)
def _field_kernel(d: int, m: int, mk: int, variant: str) -> Kernel | None:
    """The full flow field -grad L(theta) of :func:`.population.param_grads`, traced and compiled to float64
    for states of shape (d, m, mk) (inputs y, pi, P, tau; :mod:`numerics.compiled`), or None (no LLVM,
    more than COMPILE_MAX_PARAMS parameters or d > COMPILE_MAX_D_FULL)."""
    sh = Shapes(d, m, mk)
    if sh.size > COMPILE_MAX_PARAMS or d > COMPILE_MAX_D_FULL:
        return None

    def field(ar: Arithmetic, y: Any, pi: Any, P: Any, tau: Any) -> Any:
        return -pack(*param_grads(pi, P, *unpack(y, sh), tau[0], ar, variant=variant))

    return compile_kernel(field, [("y", (sh.size,)), ("pi", (d,)), ("P", (d, d)), ("tau", (1,))])


def _bound_field(chain: Any, sh: Shapes, tau: float, variant: str, *, compiled: bool = True) -> Any:
    """y -> -grad L(y) for float64 states (a batch along leading axes too): the compiled kernel of
    :func:`_field_kernel` with the chain and tau bound, or (``compiled=False``, or no LLVM) the numpy run
    of the same code (the benchmarks' baseline)."""
    pi, P = chain.pi, chain.P
    kern = _field_kernel(sh.d, sh.m, sh.mk, variant) if compiled and _compilable_tau(tau) else None
    if kern is not None:
        return kern.bind(pi, P, [tau])

    def g(y: np.ndarray) -> np.ndarray:
        out = pack(*param_grads(pi, P, *unpack(y, sh), tau, FLOAT, variant=variant))
        return np.negative(out, out=out)  # -grad L, in the fresh array pack made

    return g


def full_rhs(chain: Any, sh: Shapes, tau: float = 1.0, *, variant: str = "statement"):
    """The flow's right-hand side f(t, y) = -grad L(y) (compiled from the population gradients when
    symengine's LLVM backend is present, see :func:`_bound_field`)."""
    g = _bound_field(chain, sh, float(tau), variant)

    def f(t: float, y: np.ndarray) -> np.ndarray:
        return g(y)

    return f


def full_jac(chain: Any, sh: Shapes, tau: float = 1.0, *, variant: str = "statement", h: float = 2.0**-26):
    """Jacobian of the flow field by forward differences, column i = (f(y + h_i e_i) - f(y)) / h_i, the
    n + 1 states y, y + h_i e_i in ONE batched call of the field (used by LSODA in its stiff phases, where
    the Newton iteration needs the Jacobian only approximately: the accepted steps meet rtol/atol whatever
    its error).  h_i is the step actually taken, (y_i + h) - y_i, so the division adds no rounding of its
    own; the error is O(h |f''|) + O(eps |f| / h), about 1e-8 relative at h = 2^-26 ~ sqrt(eps) -- half the
    field evaluations of central differences (about 60 % of an E1 run's time went to them)."""
    g = _bound_field(chain, sh, float(tau), variant)
    n = sh.size
    E = np.zeros((n + 1, n))
    E[1:] = np.eye(n) * h

    def jac(t: float, y: np.ndarray) -> np.ndarray:
        F = g(y[None, :] + E)  # row 0 at y itself (y + 0.0 = y), row i + 1 at y + h e_i
        return (F[1:] - F[0]).T / ((y + h) - y)  # column i over the step y_i + h - y_i as taken

    return jac


@dataclass
class Trajectory:
    """A full-model trajectory on a time grid, with lazily computed detectors (spec §4 "detectors")."""

    chain: Any
    shapes: Shapes
    t: np.ndarray
    y: np.ndarray
    tau: float = 1.0
    meta: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def params(self) -> tuple[np.ndarray, ...]:
        return unpack(self.y, self.shapes)

    @cached_property
    def M(self) -> np.ndarray:
        W0, W1, _, _ = self.params
        return W0 @ W1

    @cached_property
    def Phi(self) -> np.ndarray:
        W0, _, WQ, WK = self.params
        return W0 @ WQ @ np.swapaxes(WK, -1, -2) @ np.swapaxes(W0, -1, -2)

    @cached_property
    def loss(self) -> np.ndarray:
        return population_loss(self.chain.pi, self.chain.P, self.M, self.Phi, self.tau, FLOAT)

    @cached_property
    def A(self) -> np.ndarray:
        return attention(self.chain.pi, self.Phi, self.tau, FLOAT)

    @cached_property
    def sv_W0(self) -> np.ndarray:
        return np.linalg.svd(self.params[0], compute_uv=False)

    @cached_property
    def sv_W1(self) -> np.ndarray:
        return np.linalg.svd(self.params[1], compute_uv=False)

    @cached_property
    def sv_QK(self) -> np.ndarray:
        _, _, WQ, WK = self.params
        return np.linalg.svd(WQ @ np.swapaxes(WK, -1, -2), compute_uv=False)

    @cached_property
    def focus_mass(self) -> np.ndarray:
        """F(t) = sum_q pi_q A_q1."""
        return self.A[:, :, 0] @ self.chain.pi

    @cached_property
    def concentration(self) -> np.ndarray:
        """D-bar(t) = sum_q pi_q KL(A_q || pi)."""
        A = self.A
        kl = np.sum(A * (np.log(A) - np.log(self.chain.pi)[None, None, :]), axis=-1)
        return kl @ self.chain.pi

    def stages(self, threshold: float = 0.02) -> Stages:
        return detect_stages(self.t, self.loss, threshold=threshold)

    def at(self, t: float) -> int:
        """Index of the first grid time >= t."""
        return int(np.searchsorted(self.t, t))

    def value_at(self, series: np.ndarray, t: float) -> float:
        """A scalar series (one value per grid time) at time t, linearly interpolated (for anchors given
        at a time between grid points)."""
        return float(np.interp(t, self.t, series))


def run_flow(chain: Any, *, T: float = 3e4, m: int = 8, mk: int = 8, eps: float = 1e-3, seed: int = 0,
             theta0: np.ndarray | None = None, tau: float = 1.0, method: str = "LSODA",
             rtol: float = 1e-9, atol: float = 1e-12, t0: float = 0.1, per_decade: int = 500,
             variant: str = "statement", max_evals: int = MAX_EVALS) -> Trajectory:
    """Integrate the population gradient flow and return the :class:`Trajectory` (spec §5 defaults).

    ``traj.stages()`` gives the detected drops/plateaus; :func:`events` the ordered events of §5.1.
    Bad arguments raise :class:`~numerics.errors.InputError` / ``InputTypeError`` naming them; a flow
    that leaves the float64 range (e.g. a temperature so small that Phi/tau overflows) raises
    :class:`~numerics.flows.FlowError` instead of returning a NaN trajectory, and so does a flow whose
    step size collapses (a field made numerically discontinuous, e.g. tau = 1e-300 at eps = 0.5): after
    ``max_evals`` field evaluations (:data:`numerics.flows.MAX_EVALS`; the catalogue's longest flow takes
    under 8000; validated by :func:`~numerics.flows.integrate`) instead of a run that never returns.
    """
    if not isinstance(chain, MarkovChain):
        raise InputTypeError("chain", "must be a MarkovChain (theorems.focus_dilution.MarkovChain)",
                             type(chain).__name__, has_value=True)
    m = check_int(m, "m", minimum=1, maximum=256)
    mk = check_int(mk, "mk", minimum=1, maximum=256)
    seed = check_int(seed, "seed", minimum=0)
    per_decade = check_int(per_decade, "per_decade", minimum=1, maximum=100_000)
    tau = _finite_positive(tau, "tau")
    t0 = _finite_positive(t0, "t0")
    T = _finite_positive(T, "T")
    check_arg(T > t0, "T", f"must be > t0 = {t0}", T)
    rtol = _finite_positive(rtol, "rtol")
    atol = _finite_positive(atol, "atol")
    eps = _finite_positive(eps, "eps")  # the scale of the random start (init_params needs eps > 0)
    check_arg(isinstance(method, str) and method in _METHODS, "method", f"must be one of {_METHODS}", method)
    check_arg(isinstance(variant, str) and variant in ("statement", "drop_phiT_term"), "variant",
              "must be 'statement' (or 'drop_phiT_term', the negative controls' gradient)", variant)
    d = chain.d
    sh = Shapes(d, m, mk)
    if theta0 is None:
        y0 = init_params(d, m, mk, eps, seed)
    else:
        try:
            y0 = np.asarray(theta0, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            raise InputTypeError("theta0", f"must be a float vector of {sh.size} entries", type(theta0).__name__,
                                 has_value=True) from None
        check_arg(y0.shape == (sh.size,), "theta0", f"must have {sh.size} entries for d={d}, m={m}, mk={mk}",
                  y0.shape)
    if not np.all(np.isfinite(y0)):
        raise InputError("theta0" if theta0 is not None else "eps", "the initial state must be finite")
    grid = geometric_grid(t0, T, per_decade)
    jac = full_jac(chain, sh, tau, variant=variant) if method in ("LSODA", "Radau", "BDF") else None
    with np.errstate(all="ignore"):  # non-finite values are detected below and reported as an error
        t, Y = integrate(full_rhs(chain, sh, tau, variant=variant), y0, grid, method=method, rtol=rtol,
                         atol=atol, jac=jac, max_evals=max_evals)
    if len(t) != len(grid) or not np.all(np.isfinite(Y)):
        raise FlowError(f"the flow left the float64 range (tau = {tau!r}, T = {T!r}): the trajectory is not "
                        "finite; use a larger temperature or a shorter horizon")
    return Trajectory(chain, sh, t, Y, tau, dict(seed=seed, eps=eps, method=method, rtol=rtol, atol=atol))


_METHODS = ("LSODA", "Radau", "BDF", "RK45", "RK23", "DOP853")


def _finite_positive(x: Any, argument: str) -> float:
    """A finite real number > 0 whose float64 value is finite and > 0."""
    exact = check_positive_real(x, argument)  # reads "p/q" strings too
    try:
        v = float(exact)
    except OverflowError:
        v = float("inf")
    check_arg(0.0 < v < float("inf"), argument, "must be a finite float64 number > 0", x)
    return v


@lru_cache(maxsize=16)
def _cached(key: tuple) -> Trajectory:
    chain_kind, chain_args, kw = key
    from numerics import markov

    chain = markov.MarkovChain.lazy(*chain_args) if chain_kind == "lazy" else getattr(markov, chain_kind)(*chain_args)
    return run_flow(chain, **dict(kw))


def cached_flow(chain_kind: str, chain_args: tuple, **kw: Any) -> Trajectory:
    """A process-wide cache of reference runs (several claims share one E1 run)."""
    return _cached((chain_kind, tuple(chain_args), tuple(sorted(kw.items()))))


# -- events (spec §5.1) -------------------------------------------------------------------------------
def events(tr: Trajectory) -> dict[str, float | None]:
    """R1, attention onset, first rare sign flip, focus, focus peak, new direction, second attention
    direction, third direction, Bayes (spec §5.1 table)."""
    sc = float(np.linalg.norm(_saddle_vectors(tr.chain)[0]))  # s_c = |gamma1|
    s0 = tr.sv_W0
    t = tr.t
    out: dict[str, float | None] = {}
    out["R1"] = first_time(t, (s0[:, 0] >= 0.5 * sc) & (s0[:, 1] / s0[:, 0] <= 0.01))
    out["onset"] = first_time(t, tr.sv_QK[:, 0] >= 1e-2)
    out["focus"] = first_time(t, tr.A[:, 0, 0] >= 0.9)
    F = tr.focus_mass
    on = out["onset"]
    peak = None
    if on is not None:
        i0 = tr.at(on)
        for i in range(max(i0, 1), len(F) - 1):
            if F[i] >= F[i - 1] and F[i] > F[i + 1]:
                peak = float(t[i])
                break
    out["focus_peak"] = peak
    # first rare sign flip of gamma = W0 alpha1, alpha1 = v1(W0) at the first plateau
    R1 = out["R1"]
    flip = None
    if R1 is not None:
        W0 = tr.params[0]
        _, _, vt = np.linalg.svd(W0[tr.at(R1)])
        a1 = vt[0]
        g = W0 @ a1
        if g[tr.at(R1)] @ tr.chain.pi < 0:
            g = -g
        sgn0 = np.sign(g[tr.at(R1)])
        flipped = np.any(np.sign(g[:, 1:]) != sgn0[None, 1:], axis=1) & (t > R1)
        flip = first_time(t, flipped)
    out["first_flip"] = flip
    out["new_direction"] = first_time(t, s0[:, 1] >= 0.1)
    out["second_attention"] = first_time(t, tr.sv_QK[:, 1] >= 0.1) if tr.sv_QK.shape[1] > 1 else None
    out["third_direction"] = first_time(t, s0[:, 2] >= 0.1) if s0.shape[1] > 2 else None
    out["bayes"] = first_time(t, tr.loss <= tr.chain.entropy_rate() + 1e-4)
    return out


# -- reduced ODE (spec §2.8) ------------------------------------------------------------------------
def reduced_field(pi: Any, P: Any, z: Any, d: int, tau: Any = 1, ops: Arithmetic = FLOAT) -> Any:
    """The reduced vector field at z = (gamma, beta, lam_Q, lam_K), generic over the scalar type: a list
    of 2d + 2 values, or for float64 arrays one float64 array of them (the flows' right-hand side)."""
    g = z[:d]
    b = z[d:2 * d]
    lq, lk = z[2 * d], z[2 * d + 1]
    kap = lq * lk
    M = g[:, None] * b[None, :]
    Phi = kap * g[:, None] * g[None, :]
    GM, GPhi = grad_M_Phi(pi, P, M, Phi, tau, ops)
    s = g @ GPhi @ g
    dg = -(GM @ b + kap * ((GPhi + GPhi.T) @ g))
    db = -(GM.T @ g)
    tail = [-s * lk, -s * lq]
    if type(dg) is np.ndarray and dg.dtype == np.float64:  # float64: one array (the same values)
        return np.concatenate((dg, db, tail))
    return list(dg) + list(db) + tail


@lru_cache(maxsize=16)
def _reduced_kernel(d: int) -> Kernel | None:
    """:func:`reduced_field` traced and compiled to float64 (inputs z, pi, P, tau), or None (no LLVM, or
    d > COMPILE_MAX_D_REDUCED)."""
    if d > COMPILE_MAX_D_REDUCED:
        return None

    def field(ar: Arithmetic, z: Any, pi: Any, P: Any, tau: Any) -> Any:
        return reduced_field(pi, P, z, d, tau[0], ar)

    return compile_kernel(field, [("z", (2 * d + 2,)), ("pi", (d,)), ("P", (d, d)), ("tau", (1,))])


def reduced_rhs(chain: Any, tau: float = 1.0):
    """f(t, z) = the reduced field at z (compiled when available, else the numpy run of
    :func:`reduced_field`)."""
    pi, P = chain.pi, chain.P
    d = chain.d
    kern = _reduced_kernel(d) if _compilable_tau(float(tau)) else None
    if kern is not None:
        g = kern.bind(pi, P, [float(tau)])
    else:
        def g(z: np.ndarray) -> np.ndarray:
            return np.asarray(reduced_field(pi, P, z, d, tau, FLOAT), dtype=np.float64)

    def f(t: float, z: np.ndarray) -> np.ndarray:
        return g(z)

    return f


def reduced_state(chain: Any, lam_q: float = 1e-5, lam_k: float | None = None) -> np.ndarray:
    """Reference start of spec §2.8: gamma = s_c pi_hat, beta = s_c l_hat, lam_Q = lam_K = 1e-5."""
    gamma1, beta1 = _saddle_vectors(chain)
    return np.concatenate([gamma1, beta1, [lam_q, lam_q if lam_k is None else lam_k]])


def run_reduced(chain: Any, z0: np.ndarray, T: float, *, t0: float = 0.1, per_decade: int = 400,
                method: str = "LSODA", rtol: float = 1e-11, atol: float = 1e-14, tau: float = 1.0,
                linear_grid: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Integrate the reduced ODE; returns (t, Z) with Z of shape n_t x (2d + 2), read-only arrays.

    Memoised per process (a check and its controls integrate the same F4 run) on exactly what the
    integration reads: the float64 bytes of pi, P and z0 and the remaining arguments (16 runs at most)."""
    y0 = np.asarray(z0, dtype=np.float64)
    pi, P = np.asarray(chain.pi, dtype=np.float64), np.asarray(chain.P, dtype=np.float64)
    key = (pi.tobytes(), P.tobytes(), P.shape, y0.tobytes(), y0.shape, T, t0, per_decade, method, rtol, atol,
           tau, linear_grid)
    try:
        hit = _REDUCED_RUNS.get(key)
    except TypeError:  # an unhashable argument: no memo (the arguments are validated downstream)
        key, hit = None, None
    if hit is not None:
        return hit
    grid = np.linspace(0, T, linear_grid) if linear_grid else geometric_grid(t0, T, per_decade)
    t, Z = integrate(reduced_rhs(chain, tau), z0, grid, method=method, rtol=rtol, atol=atol)
    t.flags.writeable = False
    Z.flags.writeable = False
    if key is not None:
        if len(_REDUCED_RUNS) >= 16:
            _REDUCED_RUNS.clear()
        _REDUCED_RUNS[key] = (t, Z)
    return t, Z


_REDUCED_RUNS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

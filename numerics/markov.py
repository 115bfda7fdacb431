"""Finite Markov chains: validation, stationary law, entropies and the chain families of the
focus-and-dilution spec (arXiv:2605.01199, spec focus_dilution.md §2.2).

A :class:`MarkovChain` is built from a transition matrix ``P`` (floats, ints, ``Fraction`` or strings
``"p/q"``).  Construction validates, and raises :class:`ValueError` naming what is wrong:

* shape: a square matrix with d >= 2 rows;
* entries: finite and >= 0; every row sums to 1 (exactly for rationals, within 1e-12 for floats);
* irreducible: (I + P)^(d-1) is entrywise > 0;
* aperiodic: P is primitive, i.e. P^k > 0 entrywise for k = (d-1)^2 + 1 (Wielandt's bound; the
  spec's sufficient test "some P_ii > 0" is recorded in :attr:`MarkovChain.has_self_loop`);
* stationary law pi: solved exactly for rational input, by least squares for floats, and checked:
  ||pi P - pi||_inf <= 1e-12 (exact equality for rationals), pi > 0.

Families (spec §2.2): F1 :meth:`MarkovChain.lazy`, F2 :func:`metropolis`, F3 :func:`general_positive`,
F4 :func:`symmetric_rare`, F5 :func:`perturbed_rare`, F6 :func:`anti_persistent`, the F1/F6 mixture
:func:`lazy_anti_mixture`, F7 :func:`two_state_anti_focus`, and the Zipf surrogate :func:`zipf`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from .errors import InputError, InputTypeError
from .exact import is_rational, to_fraction
from .validation import check_int

__all__ = [
    "MarkovChain",
    "entropy",
    "conditional_entropy",
    "metropolis",
    "general_positive",
    "symmetric_rare",
    "perturbed_rare",
    "anti_persistent",
    "lazy_anti_mixture",
    "two_state_anti_focus",
    "zipf",
    "STATIONARITY_TOL",
]

STATIONARITY_TOL = 1e-12


def _as_fraction(x: Any, argument: str = "P") -> Fraction | None:
    """``x`` as a Fraction when it is given exactly (int, Fraction, fmpz/fmpq, sympy rationals, a
    'p/q' or decimal string), None when it is a float (a float chain is kept in floats)."""
    if isinstance(x, bool):
        raise InputTypeError(argument, "entries must be real numbers (a boolean is not a probability)", x,
                             has_value=True)
    if isinstance(x, str):
        try:
            return to_fraction(x)
        except (ValueError, ZeroDivisionError):
            raise InputError(argument, "entries must be real numbers; a string must read as a rational "
                             "('p/q' or a decimal)", x, has_value=True) from None
    return to_fraction(x) if is_rational(x) else None


def _real_float(x: Any, argument: str = "P") -> float:
    """A real number as a float (rationals beyond the float range become +-inf); InputTypeError naming
    ``argument`` for anything that is not a real number."""
    f = _as_fraction(x, argument)
    if f is not None:
        return float(f) if abs(f) < 2**1000 else (math.inf if f > 0 else -math.inf)
    if isinstance(x, (complex, np.complexfloating)) or x is None or isinstance(x, (bytes, list, tuple, dict)):
        raise InputTypeError(argument, "entries must be real numbers", x, has_value=True)
    try:
        return float(x)
    except (TypeError, ValueError, OverflowError):
        raise InputTypeError(argument, "entries must be real numbers", x, has_value=True) from None


def _matrix(P: Any) -> tuple[np.ndarray, list[list[Fraction]] | None]:
    """Float matrix and, if every entry is rational, the exact matrix."""
    if hasattr(P, "detach"):  # torch
        P = P.detach().cpu().numpy()
    if isinstance(P, (str, bytes)) or P is None:
        raise InputTypeError("P", "must be a square matrix (a sequence of rows)", type(P).__name__,
                             has_value=True)
    if isinstance(P, np.ndarray) and P.dtype != object:
        if P.dtype.kind not in "biuf":
            raise InputTypeError("P", "must be a square matrix of real numbers", P.dtype, has_value=True)
        if P.ndim != 2:
            raise InputError("P", "must be a square matrix with at least 2 states", P.shape, has_value=True)
        rows = P.tolist()
    else:
        try:
            rows = [list(r) if not isinstance(r, (str, bytes)) else None for r in P]
        except TypeError:
            raise InputTypeError("P", "must be a square matrix (a sequence of rows)", type(P).__name__,
                                 has_value=True) from None
        if any(r is None for r in rows):
            raise InputTypeError("P", "must be a square matrix (a sequence of rows, not strings)")
    d = len(rows)
    if d < 2:
        raise InputError("P", f"must be a square matrix with at least 2 states, got {d} row(s)")
    for i, r in enumerate(rows):
        if len(r) != d:
            raise InputError("P", f"must be square: row {i} has {len(r)} entries, expected {d}")
    exact_rows: list[list[Fraction]] | None = []
    for r in rows:
        fr = [_as_fraction(x) for x in r]
        if any(f is None for f in fr):
            exact_rows = None
            break
        exact_rows.append(fr)  # type: ignore[arg-type]
    if exact_rows is not None:
        for i, r in enumerate(exact_rows):
            for j, f in enumerate(r):
                if not 0 <= f <= 1:
                    raise InputError("P", f"entries must be probabilities in [0, 1]: P[{i},{j}] = {f}")
    with np.errstate(all="ignore"):
        Pf = np.array([[_real_float(x) for x in r] for r in rows], dtype=np.float64)
    if not np.all(np.isfinite(Pf)):
        bad = np.argwhere(~np.isfinite(Pf))[0]
        raise InputError("P", f"has a non-finite entry (NaN or inf) at {tuple(int(i) for i in bad)}")
    return Pf, exact_rows


def _solve_exact(P: list[list[Fraction]]) -> list[Fraction]:
    """pi with pi P = pi, sum pi = 1, exactly: the linear system (P^T - I) pi = 0 (d - 1 rows) and
    1^T pi = 1, solved by python-flint's ``fmpq_mat.solve`` (exact rational elimination)."""
    import flint

    d = len(P)
    rows = [[P[j][i] - (1 if i == j else 0) for j in range(d)] for i in range(d - 1)] + [[1] * d]
    A = flint.fmpq_mat(d, d, [flint.fmpq(x.numerator, x.denominator) if isinstance(x, Fraction)
                              else flint.fmpq(x) for r in rows for x in r])
    b = flint.fmpq_mat(d, 1, [0] * (d - 1) + [1])
    try:
        x = A.solve(b)
    except ZeroDivisionError:
        raise ValueError("the stationary law is not unique (P is reducible)") from None
    return [Fraction(int(x[i, 0].p), int(x[i, 0].q)) for i in range(d)]


class MarkovChain:
    """A validated irreducible, aperiodic, row-stochastic chain with its stationary law.

    >>> ch = MarkovChain.lazy(["3/4", "1/4"], "1/2")
    >>> ch.pi_exact
    (Fraction(3, 4), Fraction(1, 4))
    >>> round(ch.entropy_rate(), 6)
    0.519024
    """

    def __init__(self, P: Any, *, pi: Any = None, name: str = "") -> None:
        Pf, Pe = _matrix(P)
        d = Pf.shape[0]
        self.name = name
        if np.any(Pf < 0):
            i, j = (int(x) for x in np.argwhere(Pf < 0)[0])
            raise InputError("P", f"is not stochastic: entry P[{i},{j}] = {Pf[i, j]} is negative")
        if Pe is not None:
            for i, r in enumerate(Pe):
                if sum(r) != 1:
                    raise InputError("P", f"is not row-stochastic: row {i} sums to {sum(r)} (exactly), not 1")
        else:
            sums = Pf.sum(axis=1)
            bad = np.abs(sums - 1.0) > STATIONARITY_TOL * d
            if np.any(bad):
                i = int(np.argmax(bad))
                raise InputError("P", f"is not row-stochastic: row {i} sums to {sums[i]!r}, not 1")
        # the support graph from the exact entries when there are some: an entry like 10**-400 is
        # positive, though its float is 0.0
        pos = (np.array([[int(x > 0) for x in r] for r in Pe], dtype=np.int64) if Pe is not None
               else (Pf > 0).astype(np.int64))
        reach = np.linalg.matrix_power(np.eye(d, dtype=np.int64) + pos, d - 1)
        if not np.all(reach > 0):
            i, j = (int(x) for x in np.argwhere(reach == 0)[0])
            raise InputError("P", f"is not irreducible: state {j} cannot be reached from state {i}")
        k = (d - 1) ** 2 + 1
        prim = np.eye(d, dtype=np.int64)
        B = pos
        e = k
        while e:  # boolean power by squaring
            if e & 1:
                prim = np.minimum(prim @ B, 1)
            B = np.minimum(B @ B, 1)
            e >>= 1
        if not np.all(prim > 0):
            raise InputError("P", "is periodic (irreducible but not aperiodic): no power of P is positive")
        self.d = d
        self.P = Pf
        self.P_exact: tuple[tuple[Fraction, ...], ...] | None = (
            tuple(tuple(r) for r in Pe) if Pe is not None else None)
        self.has_self_loop = bool(np.any(np.diag(Pf) > 0))
        if Pe is not None:
            pe = _solve_exact(Pe)
            self.pi_exact: tuple[Fraction, ...] | None = tuple(pe)
            self.pi = np.array([float(x) for x in pe])
        else:
            self.pi_exact = None
            A = np.vstack([Pf.T - np.eye(d), np.ones((1, d))])
            b = np.zeros(d + 1)
            b[-1] = 1.0
            sol = np.linalg.lstsq(A, b, rcond=None)[0]
            # one step of iterative refinement
            sol = sol + np.linalg.lstsq(A, b - A @ sol, rcond=None)[0]
            self.pi = sol
        if pi is not None:
            if isinstance(pi, (str, bytes)) or not hasattr(pi, "__iter__"):
                raise InputTypeError("pi", "must be a sequence of probabilities", type(pi).__name__,
                                     has_value=True)
            given = np.asarray([_real_float(x, "pi") for x in pi])
            if given.shape != (d,) or np.max(np.abs(given - self.pi)) > STATIONARITY_TOL:
                raise InputError("pi", f"the given pi {given.tolist()} is not the stationary law of P "
                                 f"(computed {self.pi.tolist()})")
            ge = [_as_fraction(x, "pi") for x in pi]
            if self.pi_exact is not None and all(g is not None for g in ge) and tuple(ge) != self.pi_exact:
                raise InputError("pi", "the given exact pi is not the stationary law of P")
        if np.any(self.pi <= 0):
            raise InputError("P", f"the stationary law has a non-positive entry: {self.pi.tolist()}")
        res = float(np.max(np.abs(self.pi @ self.P - self.pi)))
        if res > STATIONARITY_TOL:
            raise InputError("P", f"stationarity check failed: ||pi P - pi||_inf = {res:.3g} > {STATIONARITY_TOL}")
        self.stationarity_residual = res

    # -- constructors --------------------------------------------------------------------------
    @classmethod
    def lazy(cls, pi: Sequence[Any], lam: Any) -> MarkovChain:
        """F1 lazy-resample chain P = lam I + (1 - lam) 1 pi^T, lam in [0, 1) (exact if rational)."""
        if isinstance(pi, (str, bytes)) or not hasattr(pi, "__len__") or not hasattr(pi, "__iter__"):
            raise InputTypeError("pi", "must be a sequence of probabilities", type(pi).__name__, has_value=True)
        pi = list(pi.tolist() if isinstance(pi, np.ndarray) else pi)
        pe = [_as_fraction(x, "pi") for x in pi]
        le = _as_fraction(lam, "lam")
        exact = le is not None and all(x is not None for x in pe)
        d = len(pi)
        if d < 2:
            raise InputError("pi", f"pi must have at least 2 entries, got {d}")
        if exact:
            p, lm = pe, le
            one = Fraction(1)
        else:
            p = [_real_float(x, "pi") for x in pi]
            lm = _real_float(lam, "lam")
            one = 1.0
            if not all(math.isfinite(x) for x in p):
                raise InputError("pi", "pi must be finite (got NaN or inf)", list(pi))
            if not math.isfinite(lm):
                raise InputError("lam", "lam must be finite (got NaN or inf)", lam)
        if not (0 <= lm < 1):
            raise InputError("lam", f"lam must lie in [0, 1), got {lam!r}")
        if any(x <= 0 for x in p):
            raise InputError("pi", f"pi must be entrywise > 0, got {list(pi)!r}")
        s = sum(p)
        if (exact and s != 1) or (not exact and abs(s - 1) > STATIONARITY_TOL):
            raise InputError("pi", f"pi must sum to 1, got sum {s}")
        P = [[lm * (one if i == j else 0) + (one - lm) * p[j] for j in range(d)] for i in range(d)]
        return cls(P, name=f"lazy(lam={lam})")

    # -- derived quantities --------------------------------------------------------------------
    def entropy(self) -> float:
        """H(pi) = -sum pi_k log pi_k (the unigram loss)."""
        return entropy(self.pi)

    def entropy_rate(self) -> float:
        """H(Y|X) = -sum_q pi_q sum_y P_qy log P_qy (the Bayes bigram loss)."""
        return conditional_entropy(self.pi, self.P)

    def sample(self, n: int, s: int, rng: np.random.Generator, *, start: str = "stationary"
               ) -> np.ndarray:
        """n sequences x_1..x_{s+1} (int array n x (s+1)); start law 'stationary' or 'uniform'."""
        if start not in ("stationary", "uniform"):
            raise ValueError(f"start must be 'stationary' or 'uniform', got {start!r}")
        if n < 1 or s < 1:
            raise ValueError(f"n and s must be >= 1, got n={n}, s={s}")
        cum = np.cumsum(self.P, axis=1)
        cum[:, -1] = 1.0
        p0 = self.pi if start == "stationary" else np.full(self.d, 1.0 / self.d)
        c0 = np.cumsum(p0)
        c0[-1] = 1.0
        out = np.empty((n, s + 1), dtype=np.int64)
        out[:, 0] = np.searchsorted(c0, rng.random(n), side="right")
        for t in range(1, s + 1):
            u = rng.random(n)
            out[:, t] = (u[:, None] >= cum[out[:, t - 1]]).sum(axis=1)
        return out

    def __repr__(self) -> str:
        return f"MarkovChain(d={self.d}, pi={np.round(self.pi, 6).tolist()}{', ' + self.name if self.name else ''})"


def entropy(pi: Sequence[float]) -> float:
    p = np.asarray(pi, dtype=np.float64)
    return float(-np.sum(p * np.log(p)))


def conditional_entropy(pi: Sequence[float], P: np.ndarray) -> float:
    p = np.asarray(pi, dtype=np.float64)
    P = np.asarray(P, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(P > 0, P * np.log(np.where(P > 0, P, 1.0)), 0.0)
    return float(-np.sum(p[:, None] * t))


# -- families ---------------------------------------------------------------------------------------
def metropolis(pi: Sequence[Any], Q: Any) -> MarkovChain:
    """F2: P_ij = Q_ij min(1, pi_j / pi_i) (i != j), P_ii = 1 - sum; Q symmetric, zero diagonal,
    non-negative, connected, row sums <= 0.9.  Stationary (reversible) for pi."""
    pe = [_as_fraction(x) for x in pi]
    Qr = [list(r) for r in Q]
    d = len(pe)
    if len(Qr) != d or any(len(r) != d for r in Qr):
        raise ValueError(f"Q must be {d} x {d}")
    exact = all(x is not None for x in pe) and all(_as_fraction(x) is not None for r in Qr for x in r)
    conv = (lambda x: _as_fraction(x)) if exact else float
    p = [conv(x) for x in pi]
    Qc = [[conv(x) for x in r] for r in Qr]
    for i in range(d):
        if Qc[i][i] != 0:
            raise ValueError(f"Q must have a zero diagonal, Q[{i},{i}] = {Qc[i][i]}")
        if sum(Qc[i]) > Fraction(9, 10) + (0 if exact else 1e-15):
            raise ValueError(f"row {i} of Q sums to {sum(Qc[i])} > 0.9")
        for j in range(d):
            if Qc[i][j] < 0 or Qc[i][j] != Qc[j][i]:
                raise ValueError("Q must be symmetric and non-negative")
    P = [[0] * d for _ in range(d)]
    for i in range(d):
        for j in range(d):
            if i != j:
                P[i][j] = Qc[i][j] * min(1, p[j] / p[i])
        P[i][i] = 1 - sum(P[i][j] for j in range(d) if j != i)
    return MarkovChain(P, pi=pi, name="metropolis")


def general_positive(rng: np.random.Generator, d: int) -> MarkovChain:
    """F3: entries uniform in [0.05, 1], rows normalised; pi is the left Perron vector."""
    if d < 2:
        raise ValueError(f"d must be >= 2, got {d}")
    W = rng.uniform(0.05, 1.0, size=(d, d))
    return MarkovChain(W / W.sum(axis=1, keepdims=True), name="general_positive")


def symmetric_rare(d: int, pi1: Any, lam: Any) -> MarkovChain:
    """F4: pi = (pi1, pl, ..., pl), pl = (1 - pi1)/(d - 1) < pi1, d >= 3, P from F1."""
    d = check_int(d, "d", minimum=3, what="the symmetric-rare family")
    p1 = _as_fraction(pi1, "pi1")
    p1 = p1 if p1 is not None else _real_float(pi1, "pi1")
    pl = (1 - p1) / (d - 1)
    if not (pl < p1 < 1):
        raise InputError("pi1", f"need pi_l = (1 - pi1)/(d - 1) < pi1 < 1, got pi1 = {pi1}")
    return MarkovChain.lazy([p1] + [pl] * (d - 1), lam)


def perturbed_rare(d: int, pi1: Any, lam: Any, c: Sequence[Any], delta: Any) -> MarkovChain:
    """F5: F4 with pi_k = pi_l + delta c_k (k >= 2), sum c = 0, delta max|c| < pi_l."""
    d = check_int(d, "d", minimum=3, what="the perturbed symmetric-rare family")
    if isinstance(c, (str, bytes)) or not hasattr(c, "__len__"):
        raise InputTypeError("direction", f"must be a sequence of d - 1 = {d - 1} real numbers", c,
                             has_value=True)
    if len(c) != d - 1:
        raise InputError("direction", f"c must have d - 1 = {d - 1} entries, got {len(c)}")
    cf = [_as_fraction(x, "direction") for x in c]
    df = _as_fraction(delta, "delta")
    p1 = _as_fraction(pi1, "pi1")
    exact = all(x is not None for x in cf) and df is not None and p1 is not None
    if not exact:
        cf = [_real_float(x, "direction") for x in c]
        df, p1 = _real_float(delta, "delta"), _real_float(pi1, "pi1")
        for name, v in (("direction", max(abs(x) for x in cf)), ("delta", df), ("pi1", p1)):
            if not math.isfinite(v):
                raise InputError(name, "must be finite (got NaN or inf)", v)
    if sum(cf) != 0 and (exact or abs(sum(cf)) > 1e-15):
        raise InputError("direction", f"c must sum to zero, got sum {sum(cf)}")
    pl = (1 - p1) / (d - 1)
    if not pl < p1 < 1:
        raise InputError("pi1", f"need pi_l = (1 - pi1)/(d - 1) < pi1 < 1, got pi1 = {pi1}")
    if abs(df) * max(abs(x) for x in cf) >= pl:
        raise InputError("delta", f"need |delta| max|c| < pi_l = {pl}")
    return MarkovChain.lazy([p1] + [pl + df * x for x in cf], lam)


def anti_persistent(pi: Sequence[Any]) -> MarkovChain:
    """F6: pi1 > 1/2; P_11 = (2 pi1 - 1)/pi1, P_1k = pi_k/pi1, P_q1 = 1 for q >= 2."""
    pe = [_as_fraction(x) for x in pi]
    p = pe if all(x is not None for x in pe) else [float(x) for x in pi]
    d = len(p)
    if not p[0] > Fraction(1, 2):
        raise ValueError(f"the anti-persistent family needs pi1 > 1/2, got {p[0]}")
    P = [[0] * d for _ in range(d)]
    P[0][0] = (2 * p[0] - 1) / p[0]
    for k in range(1, d):
        P[0][k] = p[k] / p[0]
        P[k][0] = 1
    return MarkovChain(P, pi=pi, name="anti_persistent")


def lazy_anti_mixture(pi: Sequence[Any], lam: Any, theta: Any) -> MarkovChain:
    """P(theta) = theta F1(pi, lam) + (1 - theta) F6(pi): stationary for pi."""
    th = _as_fraction(theta)
    th = th if th is not None else float(theta)
    if not 0 <= th <= 1:
        raise ValueError(f"theta must lie in [0, 1], got {theta}")
    a = MarkovChain.lazy(pi, lam)
    b = anti_persistent(pi)
    if a.P_exact is not None and b.P_exact is not None and isinstance(th, Fraction):
        P = [[th * x + (1 - th) * y for x, y in zip(ra, rb)] for ra, rb in zip(a.P_exact, b.P_exact)]
    else:
        P = float(th) * a.P + (1 - float(th)) * b.P
    return MarkovChain(P, name=f"mixture(theta={theta})")


def two_state_anti_focus() -> MarkovChain:
    """F7: pi = (7/10, 3/10), P = [[3/5, 2/5], [14/15, 1/15]]."""
    F = Fraction
    return MarkovChain([[F(3, 5), F(2, 5)], [F(14, 15), F(1, 15)]], pi=[F(7, 10), F(3, 10)], name="F7")


def zipf(d: int, lam: Any = Fraction(1, 2)) -> MarkovChain:
    """Zipf surrogate: pi_k proportional to 1/k (exact rationals), F1 with lam."""
    if d < 2:
        raise ValueError(f"d must be >= 2, got {d}")
    h = sum(Fraction(1, k) for k in range(1, d + 1))
    return MarkovChain.lazy([Fraction(1, k) / h for k in range(1, d + 1)], lam)

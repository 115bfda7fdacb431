"""Feed-forward and self-attention blocks, their parameter count, and two exact evaluators (spec §2.2-2.5).

* ``FF(x) = eta x + sum_k W_k relu(U_k . x + b_k)``: tokenwise, hidden width ``d' = len(U) <= 4``;
  ``W_k`` is the k-th column of ``W`` (a vector of ``R^d``).
* ``SA_i(X) = rho x_i + lam sum_l pi_il(X, A) x_l`` with ``A = alpha I + sum_k p_k q_k^T`` or no ``A`` at
  all (``A is None``: every score is 0, so the attention is exactly uniform, for hardmax and every tau).
  Scores ``sc_il = x_l^T A x_i`` (token i is the query); hardmax averages ties; attention never crosses
  sequences.  The kernels are those of :mod:`numerics.attention`.
* A block is FF first, then SA (figure 3 of the paper).

Parameter counting (spec §2.5): the entries of each block's *declared structure*: an FF of width
``d'`` costs ``1 + d'(2d+1)`` (eta, U, b, W); an SA costs ``2`` (rho, lam), plus 1 if ``alpha I`` is
declared, plus ``2 r d`` for ``r`` factor pairs.  An identity block (width-0 FF with eta = 1, SA with
rho = 1, lam = 0, no A) costs 3.

Two exact evaluators share these definitions:
* :func:`run_generic` -- the *reference*: every token through :func:`ff_apply` and
  :func:`numerics.attention.self_attention` in any :mod:`numerics.arithmetic` (exact rationals,
  mpmath, floats); exact FF terms that are identities (zero products, eta = 1) are skipped, with no
  float filter.  Slow; used on small instances and for softmax.
* :class:`~theorems.interpolation.exact_state.ExactState` -- the fast exact evaluator for hardmax, in
  :mod:`.exact_state` (re-exported here with ``to_Q``): exact rational tokens plus a float64 filter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mpmath.libmp import fzero, mpf_add, mpf_mul, mpf_sum

from numerics.arithmetic import Arithmetic, MPArithmetic, arithmetic
from numerics.attention import AttentionMatrix, self_attention

from .exact_state import ExactState, _f, to_Q  # noqa: F401  (the fast evaluator, importable from here)

__all__ = ["FF", "SA", "Block", "identity_block", "ff_apply", "block_apply", "run_generic", "convert_blocks",
           "ExactState", "count_parameters"]

@dataclass(frozen=True)
class FF:
    """Tokenwise feed-forward layer ``eta x + sum_k W[k] relu(U[k].x + b[k])`` (exact entries)."""

    eta: Any
    U: tuple[tuple[Any, ...], ...] = ()
    b: tuple[Any, ...] = ()
    W: tuple[tuple[Any, ...], ...] = ()  # W[k] is the k-th column (a d-vector)

    def __post_init__(self) -> None:
        if not (len(self.U) == len(self.b) == len(self.W)):
            raise ValueError(f"FF: U has {len(self.U)} rows, b {len(self.b)} entries, W {len(self.W)} columns")

    @property
    def width(self) -> int:
        return len(self.U)

    def num_parameters(self, d: int) -> int:
        return 1 + self.width * (2 * d + 1)


@dataclass(frozen=True)
class SA:
    """Self-attention ``rho x_i + lam sum_l pi_il x_l``; ``A=None`` declares no attention matrix."""

    rho: Any
    lam: Any
    A: AttentionMatrix | None = None

    def num_parameters(self, d: int) -> int:
        if self.A is None:
            return 2
        if self.A.dense is not None:
            return 2 + d * d
        alpha_declared = 1 if self.A.alpha != 0 else 0
        return 2 + alpha_declared + 2 * self.A.rank * d


@dataclass(frozen=True)
class Block:
    """FF then SA, with a label saying which gadget it is (for figures and error messages)."""

    ff: FF
    sa: SA
    label: str = ""
    stage: str = ""

    def num_parameters(self, d: int) -> int:
        return self.ff.num_parameters(d) + self.sa.num_parameters(d)

    @property
    def is_identity(self) -> bool:
        return (self.ff.width == 0 and self.ff.eta == 1 and self.sa.A is None
                and self.sa.rho == 1 and self.sa.lam == 0)

    def __hash__(self) -> int:
        # the dataclass hash (of the fields' tuple), computed once: blocks key the in-process memos of
        # softmax.py, and hashing their exact weights (fmpq, Fraction) every time cost ~10% of a check
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.ff, self.sa, self.label, self.stage))
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce__(self) -> tuple:  # pickled without the cached hash (str hashes differ per process)
        return (Block, (self.ff, self.sa, self.label, self.stage))


def identity_block(label: str = "identity padding") -> Block:
    """The identity block: width-0 FF with eta = 1, SA with rho = 1, lam = 0 (3 parameters)."""
    return Block(FF(1), SA(1, 0), label=label, stage="pad")


def count_parameters(blocks: Sequence[Block], d: int) -> int:
    return sum(b.num_parameters(d) for b in blocks)


# -- the reference (generic) evaluator -------------------------------------------------------------
def _conv_ff(ff: FF, ar: Arithmetic) -> tuple[Any, list, list, list]:
    return (ar.convert(ff.eta), [ar.vector(u) for u in ff.U], [ar.convert(v) for v in ff.b],
            [ar.vector(w) for w in ff.W])


def ff_apply(ff: FF, X: Sequence[Sequence[Any]], ar: Arithmetic | str) -> list[tuple[Any, ...]]:
    """The FF layer on every token of ``X`` in arithmetic ``ar`` (relu(0) = 0)."""
    ar = arithmetic(ar)
    eta, U, b, W = _conv_ff(ff, ar)
    zero = ar.convert(0)
    if ar.exact:
        return _ff_apply_exact(eta, U, b, W, X, ar, zero)
    if isinstance(ar, MPArithmetic):
        return _ff_apply_mp(eta, U, b, W, X, ar, zero)
    out = []
    for x in X:
        xc = ar.vector(x)
        y = [eta * v for v in xc]
        for Uk, bk, Wk in zip(U, b, W):
            z = ar.fsum(u * v for u, v in zip(Uk, xc)) + bk
            if z > zero:
                y = [yi + wi * z for yi, wi in zip(y, Wk)]
        out.append(tuple(y))
    return out


def _first_equal_rows(U: Sequence[tuple]) -> list[int]:
    """For each row ``U_k`` the index of the first row equal to it (by ``==``: exact weights hash slowly)."""
    return [next(i for i in range(k + 1) if U[i] == Uk) for k, Uk in enumerate(U)]


def _ff_apply_exact(eta, U, b, W, X, ar, zero) -> list[tuple[Any, ...]]:
    """:func:`ff_apply` in exact arithmetic, the same values with fewer rational operations: a product
    with a zero factor and a multiplication by ``eta = 1`` are skipped (they are identities exactly), and
    each pre-activation is summed from ``b_k`` (rational addition is associative, so the order is free)."""
    one = ar.convert(1)
    Uz = [[(u, i) for i, u in enumerate(Uk) if u != zero] for Uk in U]
    Wz = [[(w, i) for i, w in enumerate(Wk) if w != zero] for Wk in W]
    if type(zero) is Fraction:
        return _ff_fraction(eta, Uz, b, Wz, X, ar, eta == one, _first_equal_rows(U))
    out = []
    for x in X:
        xc = ar.vector(x)
        y = list(xc) if eta == one else [eta * v for v in xc]
        for Uk, bk, Wk in zip(Uz, b, Wz):
            z = bk
            for u, i in Uk:
                z = z + u * xc[i]
            if z > zero:
                for w, i in Wk:
                    y[i] = y[i] + w * z
        out.append(tuple(y))
    return out


def _ff_apply_mp(eta, U, b, W, X, ar, zero) -> list[tuple[Any, ...]]:
    """:func:`ff_apply` in mpmath, the same mpf operations as the generic loop less its identities, so
    every output is bit-identical: a product with an exact-zero weight is the zero that ``fsum`` (mpmath's
    ``mpf_sum``) skips and that adds nothing to ``y_i``; ``eta = 1`` multiplies nothing (``1 * v`` is
    ``v`` for an mpf already rounded to the context, as every converted or computed value is); and
    neurons with equal rows ``U_k`` (the hat and snap gadgets' neurons share theirs) share one
    ``fsum`` of the products ``u_i x_i`` -- the same sum of the same terms.  The operations are those the
    mpf operators and ``ctx.fsum`` call (``libmp.mpf_mul``, ``mpf_add``, ``mpf_sum`` at the context's
    precision and rounding), on the raw values, without an mpf object per intermediate result."""
    prec, rnd = ar.ctx._prec_rounding
    make = ar.ctx.make_mpf
    rid = _first_equal_rows(U)
    Ur = [[(u._mpf_, i) for i, u in enumerate(Uk) if u != zero] for Uk in U]
    Wr = [[(w._mpf_, i) for i, w in enumerate(Wk) if w != zero] for Wk in W]
    br = [v._mpf_ for v in b]
    no_scale = eta == ar.convert(1)
    out = []
    for x in X:
        xc = ar.vector(x)
        xr = [v._mpf_ for v in xc]
        y = list(xc) if no_scale else [eta * v for v in xc]
        moved: dict[int, tuple] = {}  # coordinate -> its raw value, for the coordinates neurons move
        dots: dict[int, tuple] = {}
        for r, Uk, bk, Wk in zip(rid, Ur, br, Wr):
            s = dots.get(r)
            if s is None:
                s = dots[r] = mpf_sum([mpf_mul(u, xr[i], prec, rnd) for u, i in Uk], prec, rnd)
            z = mpf_add(s, bk, prec, rnd)
            if (not z[0] and z[1]) if (z[1] or z == fzero) else make(z) > zero:  # relu(0) = 0
                for w, i in Wk:
                    yi = moved.get(i) or y[i]._mpf_
                    moved[i] = mpf_add(yi, mpf_mul(w, z, prec, rnd), prec, rnd)
        for i, v in moved.items():
            y[i] = make(v)
        out.append(tuple(y))
    return out


def _ff_fraction(eta, Uz, b, Wz, X, ar, eta_one: bool, rid: list[int]) -> list[tuple[Any, ...]]:
    """:func:`_ff_apply_exact` for ``fractions.Fraction`` values on (numerator, denominator) integer pairs:
    ``p/q + r/s = (p s + r q) / (q s)`` with positive denominators, one ``Fraction`` (one gcd) per
    pre-activation and per updated coordinate instead of one per operation.  The sign of a pre-activation
    is the sign of its numerator (its denominator is positive), so an inactive neuron builds no Fraction.
    Neurons whose rows are equal (``rid[k]``: the first such row; a hat's three share one) share the pair
    of ``U_k . x``, to which each adds its ``b_k``; a coordinate moved by several active neurons stays a
    pair until the last, one Fraction at the end.  Fractions are canonical, so every output equals the
    operation-by-operation value."""
    Up = [[(u.numerator, u.denominator, i) for u, i in Uk] for Uk in Uz]
    Wp = [[(w.numerator, w.denominator, i) for w, i in Wk] for Wk in Wz]
    bp = [(v.numerator, v.denominator) for v in b]
    out = []
    for x in X:
        xc = ar.vector(x)
        y = list(xc) if eta_one else [eta * v for v in xc]
        xp = [(v.numerator, v.denominator) for v in xc]
        moved: dict[int, tuple[int, int]] = {}  # coordinate -> its pair, for the coordinates neurons move
        dots: dict[int, tuple[int, int]] = {}
        for r, Uk, (bn, bd), Wk in zip(rid, Up, bp, Wp):
            wx = dots.get(r)
            if wx is None:
                n, d = 0, 1
                for un, ud, i in Uk:  # U_k . x = sum_i u_i x_i
                    xn, xd = xp[i]
                    td = ud * xd
                    n, d = n * td + un * xn * d, d * td
                wx = dots[r] = (n, d)
            n, d = wx[0] * bd + bn * wx[1], wx[1] * bd  # z = U_k . x + b_k
            if n > 0:  # relu(z) = z > 0
                for wn, wd, i in Wk:  # y_i + w_i z
                    yn, yd = moved.get(i) or (y[i].numerator, y[i].denominator)
                    moved[i] = (yn * wd * d + wn * n * yd, yd * wd * d)
        for i, (yn, yd) in moved.items():
            y[i] = Fraction(yn, yd)
        out.append(tuple(y))
    return out


def block_apply(block: Block, X: Sequence[Sequence[Any]], ar: Arithmetic | str, *,
                kernel: str = "hardmax", tau: Any = None) -> list[tuple[Any, ...]]:
    """One block (FF then SA) on one sequence, through :func:`numerics.attention.self_attention`."""
    ar = arithmetic(ar)
    H = ff_apply(block.ff, X, ar)
    A = block.sa.A if block.sa.A is not None else AttentionMatrix()
    return self_attention(H, A, kernel=kernel, tau=tau, rho=block.sa.rho, lam=block.sa.lam, ar=ar)


def run_generic(blocks: Sequence[Block], X: Sequence[Sequence[Any]], ar: Arithmetic | str = "exact", *,
                kernel: str = "hardmax", tau: Any = None, trajectory: bool = False) -> Any:
    """Run ``blocks`` on one sequence; returns the output list (or every intermediate list)."""
    ar = arithmetic(ar)
    cur = [ar.vector(x) for x in X]
    traj = [cur]
    for blk in blocks:
        cur = block_apply(blk, cur, ar, kernel=kernel, tau=tau)
        if trajectory:
            traj.append(cur)
    return traj if trajectory else cur


def convert_blocks(blocks: Sequence[Block], ar: Arithmetic | str) -> tuple[Block, ...]:
    """``blocks`` with every weight converted to ``ar`` once, for running many sequences (or many
    temperatures) through one network.  The kernels convert again (:func:`ff_apply`,
    :func:`numerics.attention.self_attention`); the conversions of mpmath, float64 and exact rationals are
    idempotent (``ar.convert(ar.convert(x)) == ar.convert(x)``, the same value), so :func:`run_generic`
    on the converted blocks returns the same outputs, without re-converting the rational weights for
    every token of every sequence."""
    ar = arithmetic(ar)
    cv, vec = ar.convert, ar.vector
    out = []
    for blk in blocks:
        ff, sa = blk.ff, blk.sa
        ff2 = FF(cv(ff.eta), tuple(vec(u) for u in ff.U), tuple(cv(v) for v in ff.b),
                 tuple(vec(w) for w in ff.W))
        A = sa.A
        if A is not None:
            A = AttentionMatrix(cv(A.alpha), tuple((vec(p), vec(q)) for p, q in A.factors),
                                None if A.dense is None else tuple(vec(r) for r in A.dense))
        out.append(Block(ff2, SA(cv(sa.rho), cv(sa.lam), A), label=blk.label, stage=blk.stage))
    return tuple(out)

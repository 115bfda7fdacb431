"""The working arithmetic of the high-precision approximations of :mod:`.critical_points`: the Gauss-Newton
polish of the reduced critical equations and the central-difference in-manifold Hessian.

Both are approximations that the checks then verify (the residuals, gradients and losses reported as
evidence are evaluated in mpmath at the returned point), so they need a point arithmetic at a given
binary precision, not enclosures.  Two implement the same algorithm (written once against
:mod:`numerics.arithmetic`):

* ``"mpmath"``: the point's mpmath context itself (:class:`numerics.arithmetic.MPArithmetic`), the
  reference implementation and the oracle of the tests;
* ``"arb"``: python-flint arb balls at the SAME number of bits (``ctx.prec``), used for their midpoints
  only (:class:`numerics.arithmetic.ArbArithmetic`).  arb evaluates the object-array kernels of
  :mod:`.population` 6-8 times faster than mpmath (C arithmetic on the mantissas instead of Python
  tuples).  A midpoint is rounded to ``ctx.prec`` bits by every operation, as an mpf is (arb rounds
  towards zero, mpmath to nearest: the two differ by an ulp per operation, 2^-169 relative at 50 digits,
  far below every tolerance these approximations serve).  Radii are discarded (:meth:`Working.point`)
  after each evaluation: arb lowers the precision of functions of wide balls, which would otherwise cost
  digits of the midpoint over an iteration; nothing here is certified, and no ball is ever ordered --
  comparisons (the Newton stopping test) are made on the exact mpmath values of the midpoints.

Conversions are exact in both directions: an mpf of the context (at most ``ctx.prec`` mantissa bits) is a
radius-0 arb, and an arb midpoint of ``ctx.prec`` bits is an mpf of the context.
"""

from __future__ import annotations

from typing import Any, Sequence

from numerics.arithmetic import ArbArithmetic, MPArithmetic

__all__ = ["ARITHMETICS", "POLISH_BACKEND", "Working", "polish_precision"]

ARITHMETICS = ("arb", "mpmath")

POLISH_BACKEND = "python-flint arb (Newton polish, Hessian) + mpmath"


def polish_precision(dps: int) -> str:
    """The ``precision`` of a check reading points polished at ``dps`` digits: the nominal digits, the
    working precision (dps + 20 digits, in bits: the same for the arb iteration as for mpmath) and which
    arithmetic computes what."""
    from numerics.precision import mp_context

    return (f"dps={dps} (working {dps + 20} digits = {mp_context(dps + 20).prec} bits: arb midpoints in the "
            "polish and Hessian, mpmath evidence)")


class Working:
    """The working arithmetic at the precision of the mpmath context ``ctx`` (see the module docstring).

    Use as a context manager (arb's working precision is set for the block and restored after it);
    ``ops`` is the :class:`numerics.arithmetic.Arithmetic` the kernels run in: for "mpmath" the given
    ``mp`` (an MPArithmetic whose context is ``ctx``: the values are then the context's own), else a fresh
    MPArithmetic at ``ctx.dps``."""

    def __init__(self, ctx: Any, arithmetic: str = "arb", mp: MPArithmetic | None = None):
        if arithmetic not in ARITHMETICS:
            raise ValueError(f"unknown working arithmetic {arithmetic!r} (one of {ARITHMETICS})")
        if mp is not None and mp.ctx is not ctx:
            raise ValueError("mp must be the MPArithmetic of the context ctx")
        self.ctx = ctx
        self.arithmetic = arithmetic
        self.bits = int(ctx.prec)
        self.arb = arithmetic == "arb"
        self.ops: Any = ArbArithmetic(self.bits) if self.arb else (mp or MPArithmetic(ctx.dps))
        if not self.arb and self.ops.ctx.prec != ctx.prec:  # pragma: no cover - defensive
            raise ValueError("the mpmath working context must have the point's precision")

    def __enter__(self) -> Working:
        if self.arb:
            self.ops.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.arb:
            self.ops.__exit__(*exc)

    # -- conversions (exact) ----------------------------------------------------------------------------
    def from_mp(self, x: Any) -> Any:
        """The mpf ``x`` (of the context) as a number of the working arithmetic, exactly: for arb the
        radius-0 ball of its (mantissa, exponent) (:func:`numerics.precision.to_arb`; non-finite values
        are refused)."""
        if not self.arb:
            return x
        from numerics.precision import to_arb

        return to_arb(x)

    def to_mp(self, x: Any) -> Any:
        """The (midpoint of the) working number ``x`` as an mpf of the context, exactly (its mantissa has
        at most ``ctx.prec`` bits: every arb operation here runs at that precision)."""
        if not self.arb:
            return x
        m, e = x.mid().man_exp()
        return self.ctx.mpf((int(m), int(e)))

    def point(self, x: Any) -> Any:
        """``x`` as an exact point of the working arithmetic: an arb's midpoint with radius 0."""
        if not self.arb:
            return x
        import flint

        return flint.arb(x.mid())

    # -- linear algebra -------------------------------------------------------------------------------
    def gauss_newton_step(self, J: Sequence[Sequence[Any]], F: Sequence[Any]) -> list[Any]:
        """The Gauss-Newton step s solving the normal equations (J^T J) s = -J^T F (J has full column rank
        at a regular zero of an overdetermined consistent system), as points of the working arithmetic.

        mpmath: ``lu_solve`` of the context (the reference).  arb: the same products in ``arb_mat`` on
        the midpoints and arb's approximate (floating-point, midpoint) LU solve at the same precision."""
        if not self.arb:
            ctx = self.ctx
            Jm = ctx.matrix([list(r) for r in J])
            step = ctx.lu_solve(Jm.T * Jm, -(Jm.T * ctx.matrix(list(F))))
            return [step[i] for i in range(step.rows)]
        import flint

        Jm = flint.arb_mat([[self.point(v) for v in r] for r in J])
        Fm = flint.arb_mat([[self.point(f)] for f in F])
        Jt = Jm.transpose()
        step = (Jt * Jm).mid().solve(-(Jt * Fm).mid(), algorithm="approx")
        return [self.point(step[i, 0]) for i in range(step.nrows())]

"""Statements (and the checked derivation) of the pruning claims (seed Theorem 6; spec §3.7).

Lazy builders for ``Claim(statement=..., derivation=...)``; the AllOf labels are the sub-check names
the checks record and the controls target.  :func:`variant` derives a control's false statement from
the claim's own (a term dropped, a constant changed), so no check restates a bound.
"""

from __future__ import annotations

from typing import Any

from verify import AllOf, Derivation, ForAll, Step

__all__ = ["safety_statement", "safety_derivation", "force_kept_statement", "margin_statement",
           "per_head_statement", "variant"]


def _syms() -> dict[str, Any]:
    import sympy as sp

    nn = {"nonnegative": True}
    names = ("delta_j change_j epsilon lambda_1 drop_kl epsilon_tr N n_min Delta_lambda_max b_res b_2 b_F")
    out = {n: sp.Symbol(n, **nn) for n in names.split()}
    out["delta_j"] = sp.Symbol("delta_j", real=True)
    out["change_j"] = sp.Symbol("change_j", real=True)
    out["N"] = sp.Symbol("N", positive=True, integer=True)
    out["n_min"] = sp.Symbol("n_min", positive=True)
    return out


def safety_statement() -> Any:
    """R1-R4 of spec §3.7.  R2 (M-cat): 0 <= delta_j = lambda_j(C_full) - lambda_j(C_sub) <= eps +
    sqrt(lambda_1(C_sub) eps), eps = lambda_max(D); (M-add): |lambda_j(C + B + B^T + D) - lambda_j(C)| <=
    eps + 2 sqrt(lambda_1(C) eps); R3: at an F-stationary point the squared distance of two prototypes
    drops by at most 4 N eps_tr / min(n_k, n_l); R4: |Delta lambda_max(A_res)| <= |P⊥ sym(G M_a^h) P⊥|_2
    <= |G M_a^h|_2 <= |G M_a^h|_F; R1 (per-head dictionaries): no other head's prototype changes."""
    import sympy as sp

    s = _syms()
    n_changed = sp.Symbol("n_changed", integer=True, nonnegative=True)
    root = sp.sqrt(s["lambda_1"] * s["epsilon"])
    return ForAll(sp.Symbol("C_full"), "PSD block covariances [[C_sub, B], [B^T, D]] (M-cat) and C + B + B^T + "
                  "D (M-add); F-stationary points with n_k > 0 (R3); orthonormal U (R4)",
                  AllOf(R2_Mcat_lower=sp.Ge(s["delta_j"], 0),
                        R2_Mcat=sp.Le(s["delta_j"], s["epsilon"] + root),
                        R2_Madd=sp.Le(s["change_j"], s["epsilon"] + 2 * root),
                        R3=sp.Le(s["drop_kl"], 4 * s["N"] * s["epsilon_tr"] / s["n_min"]),
                        R4=sp.And(sp.Le(s["Delta_lambda_max"], s["b_res"]), sp.Le(s["b_res"], s["b_2"]),
                                  sp.Le(s["b_2"], s["b_F"])),
                        invariance=sp.Eq(n_changed, 0)))


def safety_derivation() -> Derivation:
    """The M-cat bound on the 1 + 1 block C_full = [[lambda_1, b], [b, epsilon]] (PSD: b^2 <= lambda_1
    epsilon, written b = r sqrt(lambda_1 epsilon) with r = s/(1 + s) in (0, 1)):
    lambda_1(C_full) - lambda_1 = ((epsilon - lambda_1) + sqrt((lambda_1 - epsilon)^2 + 4 b^2))/2
    <= ((epsilon - lambda_1) + |lambda_1 - epsilon| + 2|b|)/2 <= epsilon + |b| <= epsilon + sqrt(lambda_1 epsilon).
    The general case is the same argument on the Schur complement (spec §3.7); the lower side is
    Cauchy interlacing."""
    import sympy as sp

    s = _syms()
    lam, eps, delta = s["lambda_1"], s["epsilon"], s["delta_j"]
    r = sp.Symbol("s", positive=True)
    b = r / (1 + r) * sp.sqrt(lam * eps)
    top = ((lam + eps) + sp.sqrt((lam - eps) ** 2 + 4 * b**2)) / 2
    return Derivation(
        Step("delta_1 = lambda_1(C_full) - lambda_1(C_sub) for C_full = [[lambda_1, b], [b, epsilon]]", delta),
        Step("the 2 x 2 eigenvalue formula", ((eps - lam) + sp.sqrt((lam - eps) ** 2 + 4 * b**2)) / 2,
             subs={delta: top - lam}),
        Step("sqrt(x^2 + y^2) <= |x| + |y|", ((eps - lam) + sp.Abs(lam - eps) + 2 * b) / 2, relation="<="),
        Step("((epsilon - lambda_1) + |lambda_1 - epsilon|)/2 = max(epsilon - lambda_1, 0) <= epsilon, and "
             "b <= sqrt(lambda_1 epsilon) (PSD block)", eps + sp.sqrt(lam * eps), relation="<="),
        concludes="R2_Mcat")


def force_kept_statement() -> Any:
    """'The force is kept or increased' for a shared M-cat dictionary: n_u(C_sub) >= n_u(C_full), with
    n_u(C) = #{j : c lambda_j(C) > tau} the number of unstable collapse directions (spec §2.5)."""
    import sympy as sp

    n_sub, n_full = sp.symbols("n_u_sub n_u_full", integer=True, nonnegative=True)
    return ForAll(sp.Symbol("C_full"), "rational PSD C_full (M-cat), one head's coordinates pruned, K = 2, "
                  "c in {2, 4}, tau > 0", AllOf(count=sp.Ge(n_sub, n_full)))


def margin_statement() -> Any:
    """Repaired: a mode j whose margin c lambda_j(C_full)/tau - 1 exceeds (c/tau)(eps + sqrt(lambda_1(C_sub)
    eps)) (R2's bound) stays unstable: n_u(C_sub) >= j."""
    import sympy as sp

    lam_j, eps, lam1, tau = sp.symbols("lambda_j epsilon lambda_1 tau", positive=True)
    c, j, n_sub = sp.symbols("c j n_u_sub", integer=True, positive=True)
    premise = sp.Gt(c * lam_j / tau - 1, (c / tau) * (eps + sp.sqrt(lam1 * eps)))
    return ForAll(sp.Symbol("C_full"), "rational PSD C_full (M-cat), one head pruned, modes j <= d_sub",
                  AllOf(margin_count=sp.Implies(premise, sp.Ge(n_sub, j))))


def per_head_statement() -> Any:
    """Seed Theorem 6 as stated (per-head dictionaries): removing head h changes none of the other heads'
    trained prototypes or temperatures (bitwise; counted entries)."""
    import sympy as sp

    n_changed = sp.Symbol("n_changed", integer=True, nonnegative=True)
    return ForAll(sp.Symbol("h"), "heads h of the per-head model, removed one at a time",
                  AllOf(invariance=sp.Eq(n_changed, 0)))


def variant(statement: Any, part: str, change: str) -> Any:
    """A control's false statement from the claim's own part ``part`` (an AllOf with that part only):
    ``no_sqrt`` drops every square-root term, ``sqrt_once`` turns 2 sqrt(.) into sqrt(.), ``halve:NAME``
    replaces the symbol NAME by NAME/2, ``zero:NAME`` by 0, ``constant:a/b`` replaces the integer a by b, ``scale_rhs:a/b``
    multiplies every right-hand side by a/b (top-level relations of the part)."""
    import sympy as sp

    from verify._statement import select

    expr = select(statement, part)
    is_root = lambda e: isinstance(e, sp.Pow) and e.exp == sp.Rational(1, 2)  # noqa: E731
    if change == "no_sqrt":
        new = expr.replace(is_root, lambda e: sp.Integer(0))
    elif change == "sqrt_once":
        new = expr.replace(lambda e: e.is_Mul and any(is_root(a) for a in e.args) and 2 in e.args,
                           lambda e: e / 2)
    elif change.startswith("halve:"):
        name = change.split(":", 1)[1]
        sym = next(x for x in expr.free_symbols if x.name == name)
        new = expr.xreplace({sym: sym / 2})
    elif change.startswith("zero:"):
        name = change.split(":", 1)[1]
        sym = next(x for x in expr.free_symbols if x.name == name)
        new = expr.xreplace({sym: sp.Integer(0)})
    elif change.startswith("constant:"):
        a, b = change.split(":", 1)[1].split("/")
        new = expr.xreplace({sp.Integer(int(a)): sp.Integer(int(b))})
    elif change.startswith("scale_premise_rhs:"):
        f = sp.Rational(change.split(":", 1)[1])
        pre, post = expr.args
        new = sp.Implies(type(pre)(pre.lhs, f * pre.rhs), post)
    elif change.startswith("scale_rhs:"):
        f = sp.Rational(change.split(":", 1)[1])
        rels = [expr] if isinstance(expr, sp.core.relational.Relational) else list(expr.args)
        new_rels = [type(r)(r.lhs, f * r.rhs) for r in rels]
        new = new_rels[0] if isinstance(expr, sp.core.relational.Relational) else type(expr)(*new_rels)
    else:
        raise ValueError(f"unknown statement change {change!r}")
    if new == expr:
        raise ValueError(f"the change {change!r} leaves part {part!r} unchanged: {expr}")
    return AllOf((part, new))

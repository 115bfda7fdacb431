"""A small catalogue whose checks attach figures (synthetic evidence) for the HTML report tests.

Written into a temporary package by :func:`make_catalogue`; shared by ``test_html_report.py`` and
``test_html_browser.py``.
"""

import sys
import textwrap

HTML_CLAIMS = textwrap.dedent('''
    import sympy as sp

    from verify import Check, Claim, Control, Derivation, Evidence, Source, Step, Verdict, figure, refuted

    x = sp.Symbol("x", positive=True)
    y = sp.Symbol("y")


    def _curve(n, a):
        xs = [k / n for k in range(1, n + 1)]
        return xs, [a * v * v for v in xs]


    def with_figures(*, seed, profile):
        xs, ys = _curve(50, 2.0)
        figs = [
            figure(title="loss along training", caption="html.fig.attached: the loss 2 x^2 on 50 points; "
                   "plateau at 1.0", series=[{"label": "loss", "x": xs, "y": ys[:-1] + [float("inf")]}],
                   xlabel="t", ylabel="loss", hlines=[{"y": 1.0, "label": "plateau"}], vlines=[{"x": 0.5}]),
            {"title": "log-log slope", "caption": "fitted slope 2.00", "kind": "scatter",
             "series": [{"label": "a", "x": xs, "y": ys}, {"label": "b", "x": xs, "y": [3 * y for y in ys]}],
             "xscale": "log", "yscale": "log"},
            {"title": "births", "caption": "head births", "kind": "bar",
             "series": [{"label": "heads", "x": ["h1", "h2", "h3"], "y": [1, 2, "1/2"]}]},
        ]
        return Evidence(Verdict.CERTIFIED, instances=50, margin_min=0.25, error=1e-15, tolerance=1e-12,
                        precision="float64", backend="test", seeds=(seed,), details={"figures": figs})


    def with_series(*, seed, profile):
        return Evidence(Verdict.CONSISTENT, instances=5, margin_min=0.1, seeds=(seed,), precision="float64",
                        details={"deltas": [0.1, 0.05, 0.02, 0.01], "lambda_perp": [0.2, 0.1, 0.04, 0.02],
                                 "t_esc": {"0.1": 10.0, "0.05": 20.0, "0.01": 100.0}})


    def with_steps(*, seed, profile):
        steps = [{"label": "definition", "latex": "x^{2}", "status": "PROVED", "method": "sympy simplify"},
                 {"label": "bound", "latex": "x^{2} + 1", "status": "CONSISTENT", "method": "spot check"}]
        return Evidence(Verdict.PROVED, instances=1, seeds=(seed,), precision="symbolic",
                        details={"steps": steps})


    def bad_figure(*, seed, profile):
        return Evidence(Verdict.CERTIFIED, instances=1, seeds=(seed,),
                        details={"figures": [{"title": "broken", "series": [{"x": [1, 2], "y": [1]}]}]})


    def hostile(*, seed, profile):
        return Evidence(Verdict.REFUTED, instances=1, seeds=(seed,), notes="<b>bold</b> & \\"quoted\\"",
                        counterexample=refuted("<script>alert(1)</script> fails", margin=-1.0,
                                               payload="</pre><script>x</script>"))


    def fails(*, seed, profile):
        return Evidence(Verdict.REFUTED, instances=1, seeds=(seed,),
                        counterexample=refuted("the control fails", margin=-1.0, y=2))


    def _claim(cid, expected, check_fn, title=None, reading="r", derivation=(), hypotheses=()):
        return Claim(id=cid, title=title or cid, source=Source("0000.00000", "Thm 1", "§1"),
                     statement=sp.Le(x**2, y + 1), reading=reading,
                     checks=(Check("main", check_fn),),
                     controls=(Control("ctrl", "a false variant", Check("main", fails)),),
                     expected=expected, strength="derived", derivation=derivation, hypotheses=hypotheses)


    CLAIMS = (
        _claim("html.fig.attached", Verdict.CERTIFIED, with_figures, hypotheses=("x > 0", "a < b & c")),
        _claim("html.fig.fallback", Verdict.CONSISTENT, with_series),
        _claim("html.fig.steps", Verdict.PROVED, with_steps),
        _claim("html.fig.unchecked_steps", Verdict.CONSISTENT, with_series,
               derivation=lambda: (("square", x**2), ("plus one", x**2 + 1))),
        _claim("html.fig.bad_figure", Verdict.CERTIFIED, bad_figure),
        _claim("html.fig.derivation", Verdict.CONSISTENT, with_series,
               derivation=lambda: Derivation(Step("square of a sum", (x + 1) ** 2),
                                             Step("expand", x**2 + 2 * x + 1, why="binomial"))),
        _claim("html.fig.hostile", Verdict.REFUTED, hostile, title="<script>alert('t')</script> & co",
               reading="a < b && c > d"),
    )
''')

N_CLAIMS = 7


def make_catalogue(root, name="htmlcat_pkg"):
    """Write the package under ``root`` and put ``root`` on ``sys.path``; returns the package name."""
    pkg = root / name
    (pkg / "html").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "html" / "__init__.py").write_text("")
    (pkg / "html" / "claims.py").write_text(HTML_CLAIMS)
    sys.path.insert(0, str(root))
    return name

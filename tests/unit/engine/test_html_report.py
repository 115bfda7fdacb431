"""The HTML report (``verify run/report --html DIR``): well-formed pages, figures that exist, links that
resolve, escaping, fallback figures, usage errors; and ``verify report --markdown``."""

import json
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from urllib.parse import unquote, urlparse

import pytest

from verify import _report_figures as _figures
from verify._cli import EXIT_OK, EXIT_USAGE, main
from verify._report import from_json, markdown

from ._html_catalogue import N_CLAIMS, make_catalogue

XHTML = "{http://www.w3.org/1999/xhtml}"
VOID = {"meta", "img", "br", "hr", "link", "input"}


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    root = tmp_path_factory.mktemp("htmlcat")
    name = make_catalogue(root)
    yield name
    sys.path.remove(str(root))


@pytest.fixture(scope="module")
def site(catalogue, tmp_path_factory):
    """One run of the catalogue, written as JSON and as a site."""
    out = tmp_path_factory.mktemp("site")
    code = main(["--catalogue", catalogue, "run", "--no-progress", "--json", str(out / "r.json"),
                 "--html", str(out / "site")])
    assert code == EXIT_OK  # every claim at its expected verdict (the hostile one expected REFUTED)
    return out


class _Balance(HTMLParser):
    """Every non-void element is closed, in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):  # <img ... />: complete in itself
        if tag not in VOID:
            self.errors.append(f"<{tag} /> is not a void element")

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def _pages(root):
    return [root / "index.html", *sorted((root / "claims").glob("*.html"))]


def _local_targets(page, attr_tag):
    tree = ET.parse(page)
    for el in tree.iter(f"{XHTML}{attr_tag[1]}"):
        ref = el.get(attr_tag[0])
        if ref is None:
            continue
        url = urlparse(ref)
        assert not url.scheme and not url.netloc, f"{page.name}: non-local reference {ref!r}"
        if url.path:
            yield ref, (page.parent / unquote(url.path)).resolve()


def test_site_is_well_formed(site):
    root = site / "site"
    pages = _pages(root)
    assert len(pages) == 1 + N_CLAIMS
    for page in pages:
        text = page.read_text(encoding="utf-8")
        ET.fromstring(text.split("\n", 1)[1])  # XHTML-compatible: parses as XML (after the doctype)
        p = _Balance()
        p.feed(text)
        p.close()
        assert not p.errors and p.stack == [], (page.name, p.errors, p.stack)
        assert "http://" not in text.replace("http://www.w3.org/1999/xhtml", "") and "https://" not in text


def test_index_table_has_a_row_per_claim_linking_to_its_page(site):
    root = site / "site"
    tree = ET.parse(root / "index.html")
    rows = tree.findall(f".//{XHTML}tbody/{XHTML}tr")
    assert len(rows) == N_CLAIMS
    links = [a.get("href") for a in tree.iter(f"{XHTML}a")]
    ids = [c["id"] for c in json.loads((site / "r.json").read_text())["claims"]]
    assert links == [f"claims/{cid}.html" for cid in ids]


def test_every_image_exists_and_every_link_resolves(site):
    root = site / "site"
    n_img = 0
    for page in _pages(root):
        for ref, target in _local_targets(page, ("src", "img")):
            assert target.is_file(), f"{page.name}: <img src={ref!r}> missing"
            assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            n_img += 1
        for ref, target in _local_targets(page, ("href", "a")):
            assert target.is_file(), f"{page.name}: link {ref!r} does not resolve"
    assert n_img >= 3 + 1  # three attached figures, at least one derived


def test_claim_page_content(site):
    page = (site / "site" / "claims" / "html.fig.attached.html").read_text(encoding="utf-8")
    for text in ("x^{2} \\leq y + 1", "loss along training", "plateau at 1.0", "fitted slope 2.00",
                 "x &gt; 0", "a &lt; b &amp; c", "1e-15", "1e-12", "CERTIFIED", "float64"):
        assert text in page, text
    assert page.count("<figure") == 3
    steps = (site / "site" / "claims" / "html.fig.steps.html").read_text(encoding="utf-8")
    assert "sympy simplify" in steps and "spot check" in steps and "x^{2} + 1" in steps
    notes = (site / "site" / "claims" / "html.fig.unchecked_steps.html").read_text(encoding="utf-8")
    assert "plus one" in notes and "NOT CHECKED" in notes  # (label, expr) pairs: shown, not checked
    checked = (site / "site" / "claims" / "html.fig.derivation.html").read_text(encoding="utf-8")
    assert "square of a sum" in checked and "binomial" in checked
    assert '<span class="PROVED">PROVED</span>' in checked and "x^{2} + 2 x + 1" in checked


def test_a_report_without_checked_steps_lists_the_claims_own(catalogue):
    from verify import catalogue as load
    from verify._html import _claim_steps

    steps = _claim_steps(load(catalogue).get("html.fig.derivation"))
    assert [s["label"] for s in steps] == ["square of a sum", "expand"]
    assert steps[1]["why"] == "binomial" and steps[1]["status"] == "not checked in this run"


def test_fallback_figures_come_from_evidence_details(site):
    page = (site / "site" / "claims" / "html.fig.fallback.html").read_text(encoding="utf-8")
    assert "lambda_perp against deltas" in page and "t_esc" in page
    assert "the check attached no figure of its own" in page


def test_an_invalid_figure_is_reported_not_fatal(site):
    page = (site / "site" / "claims" / "html.fig.bad_figure.html").read_text(encoding="utf-8")
    assert "figure 0 not drawn" in page and "x has 2 points, y has 1" in page


def test_everything_is_escaped(site):
    root = site / "site"
    for page in _pages(root):
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text and "<b>bold" not in text
    hostile = (root / "claims" / "html.fig.hostile.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in hostile and "a &lt; b &amp;&amp; c &gt; d" in hostile


def test_report_writes_html_and_markdown_from_saved_json(site, catalogue, tmp_path):
    code = main(["--catalogue", catalogue, "report", str(site / "r.json"), "--html", str(tmp_path / "s"),
                 "--markdown", str(tmp_path / "r.md")])
    assert code == EXIT_OK
    obj = json.loads((site / "r.json").read_text())
    assert (tmp_path / "r.md").read_text(encoding="utf-8") == markdown(from_json(obj))
    page = (tmp_path / "s" / "claims" / "html.fig.attached.html").read_text(encoding="utf-8")
    assert "x^{2} \\leq y + 1" in page and "catalogue loaded to render this report" in page
    assert len(list((tmp_path / "s" / "figures").glob("*.png"))) == len(list((site / "site" / "figures").glob("*.png")))


def test_report_html_without_the_catalogue_still_renders(site, tmp_path, capsys):
    code = main(["--catalogue", "no_such_catalogue_pkg", "report", str(site / "r.json"), "--html",
                 str(tmp_path / "s")])
    assert code == EXIT_OK
    assert "statements not shown" in capsys.readouterr().err
    page = (tmp_path / "s" / "claims" / "html.fig.attached.html").read_text(encoding="utf-8")
    assert "not in the catalogue loaded" in page and page.count("<figure") == 3


@pytest.mark.parametrize("command", ["run", "report"])
def test_unwritable_html_dir_is_exit_4_before_any_work(catalogue, site, tmp_path, capsys, command):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    args = (["run", "html.fig.attached", "--no-progress"] if command == "run"
            else ["report", str(site / "r.json")])
    out = "--json" if command == "run" else "--junit"
    code = main(["--catalogue", catalogue, *args, "--html", str(blocker), out, str(tmp_path / "r.out")])
    assert code == EXIT_USAGE
    assert "--html" in capsys.readouterr().err
    assert not (tmp_path / "r.out").exists()
    code = main(["--catalogue", catalogue, *args, "--html", str(tmp_path / "file" / "sub")])
    assert code == EXIT_USAGE


def test_report_markdown_unwritable_is_exit_4(site, tmp_path):
    assert main(["report", str(site / "r.json"), "--markdown", str(tmp_path)]) == EXIT_USAGE


def test_run_html_single_claim_passes(catalogue, tmp_path):
    assert main(["--catalogue", catalogue, "run", "html.fig.fallback", "--no-progress", "--html",
                 str(tmp_path)]) == EXIT_OK
    assert (tmp_path / "index.html").is_file() and (tmp_path / "claims" / "html.fig.fallback.html").is_file()


# -- figures --------------------------------------------------------------------------------------
def test_render_png_leaves_pyplot_and_the_backend_alone():
    import matplotlib

    backend = matplotlib.get_backend()
    had_pyplot = "matplotlib.pyplot" in sys.modules
    fig = _figures.normalise({"series": [{"x": [1, 10, 100], "y": [1e-3, "1/2", "inf"]}], "xscale": "log",
                              "yscale": "log", "hlines": [{"y": -1}]})
    png = _figures.render_png(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert matplotlib.get_backend() == backend
    assert ("matplotlib.pyplot" in sys.modules) == had_pyplot


@pytest.mark.parametrize("bad, message", [
    ([], "a mapping"),
    ({"series": []}, "non-empty"),
    ({"series": [{"y": [1, "a"]}]}, "is not a number"),
    ({"series": [{"x": [1], "y": [1, 2]}]}, "x has 1 points"),
    ({"series": [{"y": [1]}], "kind": "pie"}, "kind"),
    ({"series": [{"y": [1]}], "yscale": "symlog"}, "yscale"),
    ({"series": [{"y": [1]}], "hlines": [{"x": 1}]}, "hlines[0]"),
    ({"series": [{"y": [1]}], "title": 3}, "title"),
])
def test_normalise_rejects_malformed_figures(bad, message):
    with pytest.raises(ValueError, match=None) as info:
        _figures.normalise(bad)
    assert message in str(info.value)


def test_long_series_are_thinned_and_empty_ones_drawn_as_a_note():
    fig = _figures.normalise({"series": [{"y": list(range(5000))}]})
    assert _figures.render_png(fig)[:4] == b"\x89PNG"
    _, y = _figures._thin(fig["series"][0]["x"], fig["series"][0]["y"])
    assert len(y) == _figures.MAX_POINTS and y[0] == 0 and y[-1] == 4999
    empty = _figures.normalise({"series": [{"y": [-1.0, 0.0]}], "yscale": "log"})
    assert _figures.render_png(empty)[:4] == b"\x89PNG"


def test_derived_figures_read_lists_mappings_and_rows():
    det = {"grid": [1, 2, 3, 4], "rows": [[1, 2.0, 3.0], [2, 4.0, 5.0], [3, 8.0, 9.0]],
           "nested": {"rate": {"1/10": 1.0, "1/100": 2.0, "1/1000": 3.0}}, "flag": True, "note": "text"}
    figs = _figures.derived_figures("a.b", "chk", det)
    titles = [f["title"] for f in figs]
    assert titles == ["chk: rows", "chk: nested.rate"]  # an integer grid alone is not drawn
    assert figs[1]["series"][0]["x"] == [0.001, 0.01, 0.1]
    assert all(_figures.normalise(f) for f in figs)
    assert _figures.derived_figures("a.b", "chk", {"figures": [{"y": [1, 2, 3]}]}) == []


def test_derived_figures_draw_named_measurements_as_bars():
    det = {"cases": 18,  # a top-level count is not drawn
           "a_full": {"slope": 0.05, "predicted": 0.049, "label": "x"},
           "a_stop": {"slope": -0.02, "predicted": -0.021, "label": "y"},
           "events": {"lam=1/2": {"onset": 67.8, "focus": 94.1, "dilution": 108.0}}}
    figs = _figures.derived_figures("a.b", "sim", det)
    assert [f["kind"] for f in figs] == ["bar", "bar"]
    side, events = figs
    assert [s["label"] for s in side["series"]] == ["slope", "predicted"]
    assert side["series"][0]["x"] == ["a_full", "a_stop"] and side["series"][0]["y"] == [0.05, -0.02]
    assert events["series"][0]["x"] == ["onset", "focus", "dilution"]
    for f in figs:
        assert _figures.render_png(_figures.normalise(f))[:4] == b"\x89PNG"


def test_ball_texts_are_read_at_their_midpoint_and_unordered_rows_are_points():
    assert _figures.to_number("[0.25 +/- 1e-30]") == 0.25
    assert _figures.to_number("-0.9 +/- 6.0e-74") == -0.9
    assert _figures.to_number("[1 +/- 2] and more") is None
    det = {"spectra": {"lazy": {"spectrum": [["-0.9 +/- 1e-70", 1], ["0.07 +/- 1e-70", 2], ["-0.2 +/- 1e-70", 15]]}}}
    (fig,) = _figures.derived_figures("a.b", "certified", det)
    assert fig["kind"] == "scatter" and fig["series"][0]["x"] == [-0.9, 0.07, -0.2]

"""Designation grammars (Assault 3; examples A9-A18 of the digest)."""
import pytest

from studio.rulesets.assault.designations import parse, superiors


@pytest.mark.parametrize("text, role, number, company, battalion", [
    ("2C1", "line", 2, "C", 1),          # A9  Assault 3.B
    ("M3", "mortar", None, None, 3),     # A10 Assault 3.B.1
    ("1M2", "mortar", 1, None, 2),       # A10 section of the mortar platoon
    ("3S1", "scout", 3, None, 1),        # A11 Assault 3.B.2
    ("7AT3", "at", 7, None, 3),          # Assault 3.B.3
    ("TOC1", "toc", None, None, 1),      # A13 Assault 3.B.4
    ("HQE2", "company-hq", None, "E", 2),  # A14 Assault 3.B.5
    ("HQ2", "battalion-hq", None, None, 2),
])
def test_us_grammar(text, role, number, company, battalion):
    d = parse("us", text)
    assert (d.role, d.number, d.company, d.battalion, d.regiment) == (role, number, company, battalion, None)


@pytest.mark.parametrize("text", ["1M1C", "C1", "HQ", "2M", "TOC", "1S", "2CC1", "AT-91"])
def test_us_grammar_refuses(text):
    assert parse("us", text) is None


@pytest.mark.parametrize("text, role, company, battalion, regiment", [
    ("C3", "line", "C", 3, None),          # Assault 3.C
    ("AT6", "line", "AT", 6, None),        # A17
    ("AT-91", "line", "AT", None, 91),     # A17 Assault 3.C.1
    ("AT91", "line", "AT", None, 91),      # reading c3: the hyphen is optional
    ("HQ3", "battalion-hq", None, 3, None),
    ("HQ91", "regiment-hq", None, None, 91),
    ("TOC91", "toc", None, None, 91),      # only regiments have TOCs (3.C.3)
])
def test_soviet_grammar(text, role, company, battalion, regiment):
    d = parse("soviet", text)
    assert (d.role, d.company, d.battalion, d.regiment) == (role, company, battalion, regiment)


@pytest.mark.parametrize("text", ["HQE2", "TOC3", "AT-81", "2C1", "C"])
def test_soviet_grammar_refuses(text):
    """A17 negative tests: no company HQs (3.C.2), no battalion TOCs (3.C.3), regiments begin with 9."""
    assert parse("soviet", text) is None


def test_us_superiors():
    """Assault 3.A: a line platoon answers to its company HQ, battalion HQ and TOC; battalion platoons skip the
    company."""
    assert superiors(parse("us", "2C1")) == ["HQC1", "HQ1", "TOC1"]
    assert superiors(parse("us", "1M2")) == ["HQ2", "TOC2"]
    assert superiors(parse("us", "HQ2")) == ["TOC2"]
    assert superiors(parse("soviet", "AT-91")) == ["HQ91", "TOC91"]
    assert superiors(parse("soviet", "C3")) == ["HQ3"]

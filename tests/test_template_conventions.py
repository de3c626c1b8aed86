"""Template conventions (issue 30 item 6): partials live in an ``includes/`` folder (no
``_name.html`` beside them), and no template carries an inline ``style`` attribute, so the
style policy needs no ``'unsafe-inline'``."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIRS = [ROOT / "templates", *sorted(ROOT.glob("*/templates"))]
STYLE_ATTRIBUTE = re.compile(r"<[a-zA-Z][^<>]*\sstyle\s*=", re.IGNORECASE)


def templates():
    for folder in TEMPLATE_DIRS:
        yield from sorted(folder.rglob("*.html"))


def test_the_templates_are_found():
    assert len(list(templates())) > 100


def test_partials_are_in_includes_folders():
    underscored = [str(p.relative_to(ROOT)) for p in templates() if p.name.startswith("_")]
    assert underscored == []


def test_no_inline_style_attribute():
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in templates()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if STYLE_ATTRIBUTE.search(line)
    ]
    assert found == []


def test_the_style_policy_allows_no_inline_style():
    assert settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]["style-src"] == ["'self'"]


def test_the_checks_can_fail():
    assert STYLE_ATTRIBUTE.search('<h2 class="a" style="margin:0">')
    assert not STYLE_ATTRIBUTE.search('<h2 class="style">')

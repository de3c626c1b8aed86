"""What the round-trip tests share (issue 27, item 2): the project's form classes, and the values a
page's form shows, read from its HTML as a browser would send them.

No fixtures here (the crawl's conftest is its own): plain functions.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from html.parser import HTMLParser
from pathlib import Path

from django import forms

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "tournament",
    "judging",
    "club_entry",
    "awards",
    "series",
    "reader",
    "people",
    "webhooks",
    "hanafuda",
    "dosai",
    "ops",
    "config",
)


def project_form_classes() -> dict[str, type]:
    """Every form class defined in the project's code (``"module.Class"`` → class): each module of
    the apps is imported and its ``forms.BaseForm`` subclasses defined there are kept."""
    found = {}
    for app in APPS:
        package = importlib.import_module(app)
        names = [app] + [
            m.name
            for m in pkgutil.walk_packages(package.__path__, prefix=app + ".")
            if ".migrations" not in m.name and ".management" not in m.name and ".tests" not in m.name
        ]
        for name in names:
            module = importlib.import_module(name)
            for _attr, value in inspect.getmembers(module, inspect.isclass):
                if issubclass(value, forms.BaseForm) and value.__module__ == name:
                    found[f"{name}.{value.__name__}"] = value
    return found


class _FormReader(HTMLParser):
    """The controls of each ``<form>`` of a page, as a browser would submit them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []  # [{"attrs": {...}, "values": {name: [values]}, "names": [names in order]}]
        self._form = None
        self._select = None
        self._option = None
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._form = {"attrs": attrs, "values": {}, "names": []}
            self.forms.append(self._form)
            return
        if self._form is None:
            return
        name = attrs.get("name")
        if tag == "input" and name:
            kind = (attrs.get("type") or "text").lower()
            self._name(name)
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self._add(name, attrs.get("value", "on"))
            elif kind not in ("submit", "button", "image", "reset", "file"):
                self._add(name, attrs.get("value") or "")
        elif tag == "select" and name:
            self._name(name)
            self._select = {"name": name, "multiple": "multiple" in attrs, "chosen": [], "first": None}
        elif tag == "option" and self._select is not None:
            self._option = {"value": attrs.get("value"), "text": "", "selected": "selected" in attrs}
        elif tag == "textarea" and name:
            self._name(name)
            self._textarea = {"name": name, "text": ""}

    def handle_data(self, data):
        if self._option is not None:
            self._option["text"] += data
        if self._textarea is not None:
            self._textarea["text"] += data

    def handle_endtag(self, tag):
        if tag == "option" and self._option is not None:
            value = self._option["value"] if self._option["value"] is not None else self._option["text"].strip()
            if self._select["first"] is None:
                self._select["first"] = value
            if self._option["selected"]:
                self._select["chosen"].append(value)
            self._option = None
        elif tag == "select" and self._select is not None:
            chosen = self._select["chosen"]
            if not chosen and not self._select["multiple"] and self._select["first"] is not None:
                chosen = [self._select["first"]]  # a browser sends the first option
            for value in chosen:
                self._add(self._select["name"], value)
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            text = self._textarea["text"]
            self._add(self._textarea["name"], text[1:] if text.startswith("\n") else text)
            self._textarea = None
        elif tag == "form":
            self._form = None

    def _name(self, name):
        if name not in self._form["names"]:
            self._form["names"].append(name)

    def _add(self, name, value):
        self._form["values"].setdefault(name, []).append(value)


def page_forms(html: str) -> list[dict]:
    """The forms of ``html``: ``[{"attrs", "values": {name: [value, …]}, "names": [every control]}]``."""
    reader = _FormReader()
    reader.feed(html)
    return reader.forms


def form_with(html: str, field: str) -> dict:
    """The first form of ``html`` with a control named ``field`` (AssertionError when none)."""
    for form in page_forms(html):
        if field in form["names"]:
            return form
    raise AssertionError(f"no form with a field {field!r} on the page")


#: Technical fields: the CSRF token, the optimistic lock's version, the submission keys, and the
#: values the edit form was opened with (``tournament.forms.OPENED``, for the stale merge).
NOT_FIELDS = {"csrfmiddlewaretoken", "version", "submission_key", "opened"}


def shown_fields(form: dict) -> set[str]:
    """The names of the person's fields in ``form`` (the CSRF token and the version left out)."""
    return {n for n in form["names"] if n not in NOT_FIELDS}


def as_posted(value) -> list[str]:
    """A test's typed value as the list of texts a browser posts (``True`` → ``["on"]``,
    ``False`` → ``[]``, a list as it is, anything else ``[str]``)."""
    if value is True:
        return ["on"]
    if value is False:
        return []
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return [str(value)]


def post_data(typed: dict) -> dict:
    """``typed`` as the test client posts it (unticked boxes left out, as a browser does)."""
    data = {}
    for name, value in typed.items():
        posted = as_posted(value)
        if posted:
            data[name] = posted if len(posted) > 1 or isinstance(value, list | tuple) else posted[0]
    return data


def lost_values(form: dict, typed: dict, *, ignore=()) -> list[str]:
    """The fields of ``typed`` whose value ``form`` (a reopened page's form) does not show as
    typed: ``["name: typed […] shown […]"]``; empty when every value came back."""
    lost = []
    for name, value in typed.items():
        if name in ignore:
            continue
        want = sorted(as_posted(value))
        shown = sorted(form["values"].get(name, []))
        if want != shown:
            lost.append(f"{name}: typed {want} shown {shown}")
    return lost

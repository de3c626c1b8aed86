"""A club's editions of Dôsai Karuta: the points of its efuda and whether a hand can start.

Responsible for: the built-in edition a club edition starts from (``base_edition``), the
club's values added to it (``edition_of``), the check of the values against the point
classes (``edition_status``: issue 10, a hand cannot start until the 60 efuda in play have
values), and creating, filling, renaming and deleting a club edition. Refusals raise
``DosaiError`` with a message for the screen; nothing is saved then.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from django.db import transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dosai.engine import cards
from dosai.errors import DosaiError
from dosai.models import ClubEdition, Session


def source_words(subject: cards.Subject) -> str:
    """Where a value comes from, in words a club reads (translated): the English guide the
    rules come from (Andy's Playing Cards), Takahashi's book, both, or the club's own text
    (the source it typed). Empty when the value is unknown. ``sources_note`` names them."""
    src = subject.points_source or ""
    if not src:
        return ""
    if src.startswith(cards.SEED) and cards.TK2 in src:
        return _("Andy's guide and Takahashi's book")
    if src.startswith(cards.SEED):
        return _("Andy's guide")
    if src == cards.TK2:
        return _("Takahashi's book")
    return src


def sources_note() -> str:
    """What the names of ``source_words`` stand for, translated; under the points table on
    paper and on the edition page."""
    return _(
        "Andy's guide: Andy's Playing Cards, “Dôsai Karuta” (in English). Takahashi's book: "
        "「道才かるたの遊び方」. Values in neither are the club's, read from its own efuda."
    )


def base_edition(club: ClubEdition) -> cards.Edition:
    """The built-in edition a club edition starts from: Matsui Tengudô (with the values the
    sources give, ``cards.MATSUI_TENGUDO``) or a blank one (``cards.blank_edition``)."""
    if club.base == ClubEdition.BASE_BLANK:
        return cards.blank_edition(club.name or "edition")
    return cards.MATSUI_TENGUDO


def own_classes(club: ClubEdition) -> bool:
    """True for an edition of another maker: its point classes are its own, read from its efuda
    ("other editions may follow a slightly different scheme", sanjo-dosai.md l.27; issue 33).
    Matsui Tengudô's classes are then a comparison (warnings), not a condition."""
    return club.base == ClubEdition.BASE_BLANK


def edition_of(club: ClubEdition) -> cards.Edition:
    """The club edition as a ``cards.Edition``: the base with the club's values entered by
    ``Edition.with_points`` (each marked with the club's source; sourced values stay). An
    edition of another maker with all 60 values takes the classes of its values as its own."""
    edition = base_edition(club)
    values = {int(k): v for k, v in (club.values or {}).items()}
    if values:
        edition = edition.with_points(values, club.source or _("club set"))
    if own_classes(club) and not edition.unknown_in_play:
        edition = replace(edition, class_counts=dict(Counter(s.points for s in edition.subjects if s.in_play)))
    return replace(edition, name=club.name or edition.name)


def full_deck_note() -> str:
    """The full deck's classes and the assumption about nos. 8 and 23, as the edition page and
    the points table say them (sanjo-dosai.md l.32–44, s.3.2, s.3.4 D1; issue 33)."""
    full = cards.MATSUI_CLASS_COUNTS_FULL_DECK
    classes = _(", ").join(
        _("%(count)s × %(points)s points") % {"count": count, "points": points} for points, count in full.items()
    )
    return _(
        "The full deck of 62 efuda (Andy's guide): %(classes)s; %(total)s points in all, with "
        "%(two_full)s two-point cards. Takahashi's book counts %(two_play)s two-point cards among the 60 in "
        "play. Both hold if nos. 8 and 23, removed before play, are two-point cards, as in the "
        "Yamashiroya edition: this app assumes so (no source prints Matsui Tengudô's value of these two)."
    ) % {
        "classes": classes,
        "total": sum(points * count for points, count in full.items()),
        "two_full": full[2],
        "two_play": cards.MATSUI_CLASS_COUNTS[2],
    }


@dataclass(frozen=True)
class ClassLine:
    """One point class of an edition: its value, how many efuda in play need it, how many
    have it now."""

    points: int
    required: int
    entered: int

    @property
    def ok(self) -> bool:
        return self.entered == self.required

    @property
    def over(self) -> bool:
        return self.entered > self.required


@dataclass(frozen=True)
class EditionStatus:
    """What the edition page shows: the edition, the class lines, the problems (translated,
    from the same checks as ``cards.check_edition``) and whether a hand may start."""

    edition: cards.Edition
    classes: tuple[ClassLine, ...]
    unknown: tuple[int, ...]
    problems: tuple[str, ...]
    ready: bool
    warnings: tuple[str, ...] = ()  # another maker's classes against Matsui Tengudô's
    own_classes: bool = False


def edition_status(club: ClubEdition) -> EditionStatus:
    """Check a club edition against its class counts (Matsui: 1×20, 3×15, 7×10, 7×4, 10×3,
    17×2, 15×1 over the 60 efuda in play, sanjo-dosai.md s.3.2, D1). ``ready`` is ``cards.ready_to_play``."""
    edition = edition_of(club)
    if own_classes(club):
        return _own_status(edition)
    in_play = [s for s in edition.subjects if s.in_play]
    lines = []
    problems = []
    for points, required in edition.class_counts.items():
        entered = sum(1 for s in in_play if s.points == points)
        lines.append(ClassLine(points, required, entered))
        if entered > required:
            problems.append(
                _("%(points)s-point efuda: %(entered)s entered, only %(required)s in this edition")
                % {"points": points, "entered": entered, "required": required}
            )
    classes = set(edition.class_counts)
    problems.extend(
        _("no. %(number)s: %(points)s points is not a class of this edition") % {"number": s.number, "points": s.points}
        for s in in_play
        if s.points is not None and s.points not in classes
    )
    unknown = edition.unknown_in_play
    if unknown:
        problems.append(
            _("%(count)s of the 60 efuda in play have no value yet: nos. %(numbers)s")
            % {"count": len(unknown), "numbers": ", ".join(map(str, unknown))}
        )
    else:
        problems.extend(
            _("%(points)s-point efuda: %(entered)s entered, %(required)s needed")
            % {"points": line.points, "entered": line.entered, "required": line.required}
            for line in lines
            if line.entered < line.required
        )
    ready = cards.ready_to_play(edition)
    if ready != (not problems):  # both checks must agree; the engine's word decides
        problems = problems or list(cards.check_edition(edition))
    return EditionStatus(edition, tuple(lines), tuple(unknown), tuple(problems), ready)


def _own_status(edition: cards.Edition) -> EditionStatus:
    """An edition of another maker: ready once the 60 efuda in play have values (the classes
    of its values are its own); each class that differs from Matsui Tengudô's is a warning."""
    in_play = [s for s in edition.subjects if s.in_play]
    matsui = dict(cards.MATSUI_CLASS_COUNTS)
    entered = Counter(s.points for s in in_play if s.points is not None)
    lines = tuple(
        ClassLine(points, matsui.get(points, 0), entered.get(points, 0))
        for points in sorted(set(matsui) | set(entered), reverse=True)
    )
    unknown = edition.unknown_in_play
    problems = ()
    if unknown:
        problems = (
            _("%(count)s of the 60 efuda in play have no value yet: nos. %(numbers)s")
            % {"count": len(unknown), "numbers": ", ".join(map(str, unknown))},
        )
    warnings = tuple(
        _("%(points)s-point efuda: %(entered)s in your set, %(matsui)s in Matsui Tengudô's")
        % {"points": line.points, "entered": line.entered, "matsui": line.required}
        for line in lines
        if line.entered != line.required and (not unknown or line.entered > line.required)
    )
    if warnings:
        warnings = (
            _(
                "Your set's point classes differ from Matsui Tengudô's: kept as you entered them (other "
                "makers' sets may differ). Check them against your efuda."
            ),
            *warnings,
        )
    ready = cards.ready_to_play(edition) and not unknown
    return EditionStatus(edition, lines, unknown, problems, ready, warnings, True)


def create_edition(owner, name: str, base: str) -> ClubEdition:
    """A new club edition with no values entered yet; the source of its values starts as
    "club set" in the active language (the person changes it when saving values)."""
    if base not in dict(ClubEdition.BASES):
        raise DosaiError(_("Choose the edition to start from."))
    return ClubEdition.objects.create(owner=owner, name=name.strip(), base=base, source=_("club set"))


def save_values(club: ClubEdition, values: Mapping[int, int | None], source: str) -> EditionStatus:
    """Save the club's values for the efuda the base edition leaves unknown (partial saves
    allowed: None clears a value). A number the sources already give is refused (issue 10:
    never overwrite a sourced value), as is a number not in play or not unknown.

    Input: number -> points or None; the source text (e.g. "club set, read from the efuda").
    Output: the new ``EditionStatus``. Raises DosaiError naming the card; saves nothing then."""
    base = base_edition(club)
    if not source or not source.strip():
        raise DosaiError(_("Say where the values come from (for example: our club's set)."))
    new = {}
    for number, points in values.items():
        subject = base.subject(number)
        if not subject.in_play:
            raise DosaiError(_("no. %(number)s is removed before play and needs no value") % {"number": number})
        if subject.points is not None:
            raise DosaiError(
                _("no. %(number)s is %(points)s points per %(source)s; it cannot be changed")
                % {"number": number, "points": subject.points, "source": source_words(subject)}
            )
        if points is not None:
            if not isinstance(points, int) or isinstance(points, bool) or points < 1:
                raise DosaiError(_("no. %(number)s: points must be a whole number of at least 1") % {"number": number})
            new[str(number)] = points
    try:
        base.with_points({int(k): v for k, v in new.items()}, source.strip())
    except ValueError as exc:
        raise DosaiError(str(exc)) from None
    with transaction.atomic():
        club.values = dict(sorted(new.items(), key=lambda kv: int(kv[0])))
        club.source = source.strip()
        club.save(update_fields=["values", "source", "updated"])
    return edition_status(club)


def rename_edition(club: ClubEdition, name: str) -> ClubEdition:
    """Give an edition a new name (hands keep the points they were dealt with)."""
    name = (name or "").strip()
    if not name:
        raise DosaiError(_("Give the edition a name."))
    club.name = name
    club.save(update_fields=["name", "updated"])
    return club


def edition_users(club: ClubEdition) -> list[Session]:
    """The sessions that use an edition: while there is one, the edition cannot be deleted."""
    return list(club.sessions.order_by("title", "pk"))


@transaction.atomic
def delete_edition(club: ClubEdition) -> str:
    """Delete an edition with the values entered for it and their source (they are part of
    the edition). Refused (DosaiError, nothing deleted) while a session uses it: a session's
    hands were dealt from it. Returns the name, for the message."""
    club = ClubEdition.objects.select_for_update().get(pk=club.pk)
    users = edition_users(club)
    if users:
        raise DosaiError(
            ngettext(
                "The edition “%(name)s” is used by %(count)s session: %(titles)s. Delete it first; nothing was deleted.",
                "The edition “%(name)s” is used by %(count)s sessions: %(titles)s. Delete them first; nothing was deleted.",
                len(users),
            )
            % {"name": club.name, "count": len(users), "titles": "、".join(s.title for s in users)}
        )
    name = club.name
    try:
        club.delete()
    except ProtectedError:  # a session made from it in the meantime
        raise DosaiError(
            _("The edition “%(name)s” is now used by a session. Delete that session first; nothing was deleted.")
            % {"name": name}
        ) from None
    return name

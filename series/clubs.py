"""The clubs as the clubs page, the rankings and the archive see them: every affiliation
stored on a team or an imported place, grouped into clubs by their key and the merged
spellings (docs/rules/series.md, "Clubs"). Reads only."""

from dataclasses import dataclass, field

from django.db.models import Count

from series.models import ClubSpelling, ImportedPlacing, club_index, club_of
from tournament.engine.names import name_key
from tournament.models import Team


@dataclass
class ClubGroup:
    """One club: ``ref`` (``club_of``), its ``name``, its ``Club`` id when merged (else None),
    and its spellings ``[(text, teams)]`` (teams: how many stored teams carry that text)."""

    ref: str
    name: str
    pk: int | None
    spellings: list = field(default_factory=list)

    @property
    def merged(self):
        return len(self.spellings) > 1


@dataclass
class ClubListing:
    clubs: list
    spellings: list  # every spelling, sorted: the merge form's choices


def affiliation_counts():
    """``{affiliation text: teams}`` over every stored team and imported place (one text per
    distinct spelling; blank left out), plus merged spellings no team carries (0)."""
    counts = {}
    for row in Team.objects.exclude(affiliation="").values("affiliation").annotate(n=Count("pk")):
        counts[row["affiliation"]] = counts.get(row["affiliation"], 0) + row["n"]
    for row in ImportedPlacing.objects.exclude(club="").values("club").annotate(n=Count("pk")):
        counts[row["club"]] = counts.get(row["club"], 0) + row["n"]
    for text in ClubSpelling.objects.values_list("text", flat=True):
        counts.setdefault(text, 0)
    return {text: n for text, n in counts.items() if name_key(text)}


def club_listing():
    """The ``ClubListing``: clubs by name, each with its spellings."""
    index = club_index()
    groups = {}
    counts = affiliation_counts()
    for text in sorted(counts):
        ref, name = club_of(text, index)
        group = groups.get(ref)
        if group is None:
            group = groups[ref] = ClubGroup(ref, name, int(ref[1:]) if ref.startswith("c") else None)
        group.spellings.append((text, counts[text]))
    clubs = sorted(groups.values(), key=lambda g: (name_key(g.name), g.ref))
    return ClubListing(clubs, sorted(counts))

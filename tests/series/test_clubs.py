"""Clubs across years (docs/rules/series.md, "Clubs"): spellings with one key are one club,
merging and splitting spellings, renaming a club; the teams' affiliations are never rewritten."""

import pytest

from common.errors import UserError
from series import services
from series.clubs import club_listing
from series.models import Club, ClubSpelling, club_index, club_of
from tests import factories
from tournament.models import Team


@pytest.fixture
def teams(db):
    event = factories.make_event()
    division = factories.make_division(event)
    for name, club in [("A", "中小路小"), ("B", "中小路小 "), ("C", "日立市立中小路小学校"), ("D", "ﾅｶｺﾞｳｼﾞ"), ("E", "")]:
        factories.make_team(division, name, affiliation=club)
    return division


def refs(*texts):
    index = club_index()
    return [club_of(t, index)[0] for t in texts]


def test_spellings_with_one_name_key_are_one_club_without_any_step(teams):
    a, b, c = refs("中小路小", "中小路小　", "日立市立中小路小学校")
    assert a == b != c
    assert refs("") == [""]
    listing = club_listing()
    assert "" not in listing.spellings
    assert {g.name for g in listing.clubs} >= {"中小路小", "日立市立中小路小学校"}


def test_merging_three_spellings_then_splitting_one_off(teams):
    club = services.merge_spellings("日立市立中小路小学校", "中小路小")
    assert club.name == "日立市立中小路小学校"
    services.merge_spellings("ナカゴウジ", "日立市立中小路小学校")  # half-width kana typed in full width
    merged = refs("中小路小", "日立市立中小路小学校", "ﾅｶｺﾞｳｼﾞ")
    assert len(set(merged)) == 1
    assert Club.objects.count() == 1
    assert Club.objects.get().name == "ナカゴウジ"
    services.split_spelling("ナカゴウジ")  # the club's name spelling leaves: named by another
    assert Club.objects.get().name == "日立市立中小路小学校"
    assert refs("ﾅｶｺﾞｳｼﾞ")[0] != refs("中小路小")[0]
    assert sorted(Team.objects.values_list("affiliation", flat=True)) == sorted(
        ["中小路小", "中小路小", "日立市立中小路小学校", "ﾅｶｺﾞｳｼﾞ", ""]
    )


def test_refusals_name_the_spellings_and_write_nothing(teams):
    with pytest.raises(UserError, match="Choose two spellings|まとめる表記"):
        services.merge_spellings("", "中小路小")
    with pytest.raises(UserError):
        services.merge_spellings("中小路小", "中小路小　")  # one key: one club already
    with pytest.raises(UserError):
        services.split_spelling("中小路小")  # not merged
    assert not Club.objects.exists() and not ClubSpelling.objects.exists()


def test_a_merged_club_may_be_renamed(teams):
    club = services.merge_spellings("中小路小", "日立市立中小路小学校")
    services.rename_club(club, " 中小路小学校 ")
    assert club_of("日立市立中小路小学校", club_index())[1] == "中小路小学校"
    with pytest.raises(UserError):
        services.rename_club(club, "  ")

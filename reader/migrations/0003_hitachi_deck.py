"""The shipped deck edition ``hitachi``: only what a cited source gives (issue 21, item 1).

Sources (docs/rules/hitachi-deck.md, from the domain notes §1.5):
す and ひ from the official site, one card per page; ぴ's text from a newspaper article (its
head kana ぴ is the first sound of that text, as on every karuta card: an inference, said in
``source``); り is the 役札 (the rules' page), its text not found. The other cards are for
the club to type, import or record.
"""

from django.db import migrations

SOURCE = (
    "す: http://hitachikyodokaruta.info/sa_gyou/su.html\n"
    "ひ: http://hitachikyodokaruta.info/ha_gyou/hi.html\n"
    "ぴ: 茨城新聞 (ibarakinews f_jun=14796367378996): the text of the card only; its head kana ぴ is "
    "taken from the first sound of the text (inference)\n"
    "り: http://hitachikyodokaruta.info/asobikata.html: り is the 役札; its text was not found\n"
    "Full list, one card per page: http://hitachikyodokaruta.info/"
)
CARDS = [
    # head kana, text, kana reading (none: no source gives one; the club may add it), 役札, order
    ("す", "諏訪神社 万年太夫と 水穴ロマン", "", False, 1),
    ("ひ", "日立港 世界に開く 海の玄関", "", False, 2),
    ("ぴ", "ピンク色 さくらダコ 市のさかな", "", False, 3),
    ("り", "", "", True, 4),
]


def ship(apps, schema_editor):
    DeckEdition = apps.get_model("reader", "DeckEdition")
    Card = apps.get_model("reader", "Card")
    edition, _created = DeckEdition.objects.get_or_create(
        slug="hitachi", defaults={"name": "ひたち郷土かるた", "source": SOURCE}
    )
    for head, text, reading, joker, order in CARDS:
        Card.objects.get_or_create(
            edition=edition,
            head_kana=head,
            defaults={"text": text, "furigana": reading, "is_joker": joker, "order": order},
        )


def unship(apps, schema_editor):
    apps.get_model("reader", "DeckEdition").objects.filter(slug="hitachi").delete()


class Migration(migrations.Migration):
    dependencies = [("reader", "0002_voices")]

    operations = [migrations.RunPython(ship, unship)]

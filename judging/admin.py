from django.contrib import admin

from judging.models import RecordingSheet


@admin.register(RecordingSheet)
class RecordingSheetAdmin(admin.ModelAdmin):
    list_display = (
        "match",
        "version",
        "cards_a",
        "cards_b",
        "referee_cards",
        "joker_holder",
        "winner_side",
        "is_confirmed",
        "submitted_at",
    )
    list_filter = ("is_confirmed", "is_walkover", "match__event")
    raw_id_fields = ("match",)
    readonly_fields = ("submitted_at",)

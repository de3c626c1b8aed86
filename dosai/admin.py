"""The dosai tables in the admin (superusers only), read mostly: the screens do the work."""

from django.contrib import admin

from dosai.models import ClubEdition, Hand, Session


@admin.register(ClubEdition)
class ClubEditionAdmin(admin.ModelAdmin):
    list_display = ["name", "base", "owner", "updated"]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["title", "edition", "owner", "created"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["session", "number", "dealing", "reader", "created"]

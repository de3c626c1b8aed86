from django.urls import path

from ops import views

urlpatterns = [
    path("manage/backup/latest/", views.backup_download, name="backup_download"),
]

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0007_stages"),
    ]

    operations = [
        migrations.AddField(
            model_name="team",
            name="withdrawn_after_groups",
            field=models.BooleanField(default=False, verbose_name="withdrew after its group was complete"),
        ),
        migrations.AddField(
            model_name="team",
            name="withdrawn_keeps_slots",
            field=models.BooleanField(
                default=False, verbose_name="withdrew after being drawn into the games after the groups"
            ),
        ),
    ]

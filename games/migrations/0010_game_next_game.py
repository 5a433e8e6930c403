import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_game_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="next_game",
            field=models.OneToOneField(blank=True, editable=False, null=True,
                                       on_delete=django.db.models.deletion.SET_NULL,
                                       related_name="previous_game", to="games.game"),
        ),
    ]

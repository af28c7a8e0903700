from django.apps import AppConfig


class ChampionshipsConfig(AppConfig):
    name = "muscore.championships"
    label = "championships"
    verbose_name = "Championships"

    def ready(self) -> None:
        # What a league result sends on (a tie's next game, a heat's final order) its owner
        # writes itself; the championship only drops its pages' kept figures when a
        # group's or heat's revision moves (muscore.leagues.signals: an observer).
        from muscore.championships.kept import on_revisions_moved
        from muscore.leagues.signals import revisions_moved

        revisions_moved.connect(on_revisions_moved, weak=False,
                                dispatch_uid="championships-figures")

        # ...and the club's lists what its competitions are part of (muscore.leagues.part_of):
        # a championship once, not each of its heats, groups and games.
        from muscore.championships import parts
        from muscore.leagues import part_of

        part_of.register("championships", parts.wholes)

from django.apps import AppConfig


class ChampionshipsConfig(AppConfig):
    name = "muscore.championships"
    label = "championships"
    verbose_name = "Championships"

    def ready(self) -> None:
        # A league result moves the championship on (the knockout's next games, a heat's
        # order) in the result's own write: the league does not import us.
        from muscore.championships.results import on_result
        from muscore.clubs.permissions import Actor
        from muscore.leagues.models import Competition
        from muscore.leagues.signals import result_changed

        def listener(sender: object, competition: Competition, by: Actor | None = None,
                     **kwargs: object) -> None:
            on_result(competition, by)

        result_changed.connect(listener, weak=False, dispatch_uid="championships-result")

        # ...and drops its pages' kept figures when a group's or heat's revision moves.
        from muscore.championships.kept import on_revisions_moved
        from muscore.leagues.signals import revisions_moved

        revisions_moved.connect(on_revisions_moved, weak=False,
                                dispatch_uid="championships-figures")

        # ...and the club page's stamp what its championships show (muscore.leagues.club_kept).
        from muscore.championships.pages import club_page_stamp
        from muscore.leagues import club_kept

        if club_page_stamp not in club_kept.STAMPS:
            club_kept.STAMPS.append(club_page_stamp)

        # ...and the club's lists what its competitions are part of (muscore.leagues.part_of):
        # a championship once, not each of its heats, groups and games.
        from muscore.championships import parts
        from muscore.leagues import part_of

        part_of.register("championships", parts.wholes)

"""Print the link where an account chooses a new password (issue 40).

    python manage.py password_link maite
    python manage.py password_link maite --site https://mus.example.org

For an account that cannot log in: restored from a backup written with
--without-passwords, or whose organiser forgot it and whoever invited them cannot reset
it (the admin's account, a club's first organiser). The link is the one an organiser's
page gives (muscore.clubs.services.password_link): it works once, for
PASSWORD_RESET_TIMEOUT, and stops working when the password changes. Hand it to the
account's owner only: whoever opens it chooses the password.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from muscore.clubs import services


class Command(BaseCommand):
    help = ("Print the link where an account (an organiser, the admin) chooses a new "
            "password: after a restore without passwords, or a password forgotten.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="the account's username")
        parser.add_argument(
            "--site", default="",
            help="the site's address, e.g. https://mus.example.org (the link's start; "
                 "without it the path alone is printed)")

    def handle(self, *args: object, username: str, site: str, **options: object) -> None:
        users = get_user_model().objects
        user = users.filter(username=username).first() or users.filter(
            username__iexact=username).first()
        if user is None:
            raise CommandError(f"no account is called {username!r}")
        if not user.is_active:
            raise CommandError(f"the account {user.get_username()!r} is switched off "
                               "(is_active): switch it on in the admin first")
        link = services.password_link(user)
        days = settings.PASSWORD_RESET_TIMEOUT / 86400
        self.stdout.write(site.rstrip("/") + link if site else link)
        self.stderr.write(
            f"The link for {user.get_username()!r}: it works once, for {days:g} days"
            + ("" if site else ", after the site's address (https://your-site)") + ".")

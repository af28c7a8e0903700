"""The club pages' forms: a new club (with its first organiser's account), players, pairs,
inviting an organiser. Rules about names live here as field errors a person understands."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muscore import text as unicode_text
from muscore.clubs.models import NAME_MAX, Club, Pair, Player
from muscore.clubs.people import player_named

USERNAME_MAX = 40


def clean_name(value: str) -> str:
    """Spaces trimmed and collapsed: 'Ana  ' and 'Ana' are one name.

    Checked by `muscore.text` as the tables' names are (a club's names end up on the
    tables' boards, its cards and exports): a control character (ESC, BEL, DEL...), a
    direction override or a name of invisible characters only is refused with a message.
    """
    name = " ".join(value.split())
    if unicode_text.problem(name):
        raise forms.ValidationError(_("El nombre lleva un carácter de control: quítalo."))
    if name and unicode_text.is_invisible(name):
        raise forms.ValidationError(_("El nombre solo tiene caracteres invisibles."))
    if unicode_text.has_bidi_control(name):
        raise forms.ValidationError(
            _("El nombre lleva un carácter que cambia el sentido del texto: quítalo.")
        )
    if unicode_text.is_marks_only(name):
        raise forms.ValidationError(_("El nombre solo tiene acentos sueltos, sin letras."))
    return name


def clean_person_name(value: str) -> str:
    """A person's name: checked as every name (clean_name), and one alphabet in it (a
    Cyrillic І among Latin letters reads as "I" and is not one), with a letter or digit
    (muscore.text.person_name_problem). Two names are one person when their
    muscore.text.person_key is the same."""
    name = clean_name(value)
    found = unicode_text.person_name_problem(name) if name else None
    if found == unicode_text.MIXED_SCRIPTS:
        raise forms.ValidationError(
            _("«%(name)s» mezcla letras de alfabetos distintos (latino, cirílico, griego...): "
              "escríbelo con las de uno solo.") % {"name": name})
    if found == unicode_text.SIGN_LIKE_LETTER:
        raise forms.ValidationError(
            _("«%(name)s» lleva un signo que se lee como una letra: escribe la letra.")
            % {"name": name})
    if found == unicode_text.NO_LETTER:
        raise forms.ValidationError(_("El nombre de una persona necesita alguna letra."))
    return name


class ClubForm(forms.Form):
    """A club's name; the slug of its address comes from it."""

    name = forms.CharField(label=gettext_lazy("Nombre del club"), max_length=NAME_MAX)

    def __init__(self, *args: Any, club: Club | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_name(self) -> str:
        name = clean_name(self.cleaned_data["name"])
        if not slugify(name):
            raise forms.ValidationError(_("El nombre necesita alguna letra o número."))
        return name


class NewAccountForm(forms.Form):
    """The account of whoever creates a club without being logged in."""

    # The browser's password manager: this is a new account's name and password
    # (autocomplete, as Django's own SetPasswordForm and AuthenticationForm say theirs).
    username = forms.CharField(label=gettext_lazy("Tu nombre de usuario"), max_length=USERNAME_MAX,
                               widget=forms.TextInput(attrs={"autocomplete": "username"}))
    password1 = forms.CharField(
        label=gettext_lazy("Contraseña"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=gettext_lazy("Repite la contraseña"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        # Whether the name is taken is not asked here: a form answered on every field
        # would tell anyone which usernames exist (services.create_account_and_club asks).
        return clean_username(self.cleaned_data["username"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        one, two = data.get("password1"), data.get("password2")
        if one and two and one != two:
            self.add_error("password2", _("Las dos contraseñas no coinciden."))
        elif one:
            user = get_user_model()(username=data.get("username", ""))
            try:
                password_validation.validate_password(one, user)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return data


def clean_username(value: str) -> str:
    """The username as Django stores it (NFKC: "ｉｋｅｒ" is "iker", as the login form
    reads it), or a message: no spaces, no invisible letters, only letters, digits and
    @ . + - _."""
    username = get_user_model().normalize_username(value.strip())
    if not username or any(c.isspace() for c in username):
        raise forms.ValidationError(_("El nombre de usuario va sin espacios."))
    if not all(c.isalnum() or c in "@.+-_" for c in username):
        raise forms.ValidationError(
            _("El nombre de usuario solo lleva letras, números y @ . + - _")
        )
    if any(unicode_text.is_invisible(c) for c in username):
        # A Hangul filler is a letter to isalnum() and draws nothing.
        raise forms.ValidationError(_("El nombre de usuario lleva letras invisibles: quítalas."))
    if len(username) > USERNAME_MAX:
        # NFKC can lengthen a name ("ﷺ" is 18 letters).
        raise forms.ValidationError(
            _("El nombre de usuario pasa de %(max)s letras.") % {"max": USERNAME_MAX})
    return username


class InviteForm(forms.Form):
    """Another organiser: a new account (a link to set its password) or an existing one."""

    # Another person's username: never the browser's own account filled in.
    username = forms.CharField(
        label=gettext_lazy("Nombre de usuario del nuevo organizador"), max_length=USERNAME_MAX,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def clean_username(self) -> str:
        return clean_username(self.cleaned_data["username"])


class PlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Nombre"), max_length=NAME_MAX)

    def __init__(self, *args: Any, club: Club, player: Player | None = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.club = club
        self.player = player

    def clean_name(self) -> str:
        name = clean_person_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Escribe un nombre."))
        # One person, one player: the same name however written (muscore.text.person_key).
        other = player_named(self.club.pk, name)
        if other is not None and (self.player is None or other.pk != self.player.pk):
            raise forms.ValidationError(
                _("Ya hay un jugador llamado %(name)s en el club.") % {"name": other.name}
            )
        return name


# The pair form's name inputs suggest the club's players (pair_form.html's datalist).
KNOWN_PLAYERS = forms.TextInput(attrs={"list": "known-players", "autocomplete": "off"})


class PairForm(forms.Form):
    """A pair: its players by name (a new name adds the player to the club), and a name
    that defaults to 'Ana y Bea'. The third player is only for 6-player leagues."""

    player1 = forms.CharField(
        label=gettext_lazy("Jugador 1"), max_length=NAME_MAX, widget=KNOWN_PLAYERS
    )
    player2 = forms.CharField(
        label=gettext_lazy("Jugador 2"), max_length=NAME_MAX, widget=KNOWN_PLAYERS
    )
    player3 = forms.CharField(
        label=gettext_lazy("Jugador 3 (solo en mus a 6)"),
        max_length=NAME_MAX,
        required=False,
        widget=KNOWN_PLAYERS,
    )
    name = forms.CharField(
        label=gettext_lazy("Nombre de la pareja"),
        max_length=NAME_MAX,
        required=False,
        help_text=gettext_lazy("Si lo dejas vacío: «Ana y Bea»."),
    )

    def __init__(self, *args: Any, club: Club, pair: Pair | None = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.club = club
        self.pair = pair

    def player_names(self) -> list[str]:
        """The players' names as cleaned, in seat order."""
        names = [self.cleaned_data.get(f"player{i}", "") for i in (1, 2, 3)]
        return [n for n in names if n]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for key in ("player1", "player2", "player3", "name"):
            if key in data:
                try:
                    data[key] = (clean_name if key == "name" else clean_person_name)(data[key])
                except forms.ValidationError as error:
                    self.add_error(key, error)
        for key in ("player1", "player2"):
            if key in data and not data[key]:
                self.add_error(key, _("Escribe un nombre."))
        names = [data.get(f"player{i}", "") for i in (1, 2, 3)]
        seen: set[str] = set()
        for i, name in enumerate(names, start=1):
            if name and unicode_text.person_key(name) in seen:
                self.add_error(f"player{i}", _("Un jugador no puede estar dos veces en la pareja."))
            seen.add(unicode_text.person_key(name))
        if self.errors:
            return data
        present = [n for n in names if n]
        name = data.get("name") or default_pair_name(present)
        if len(name) > NAME_MAX:
            # Cut, the default of two long names became one player's name (or "Ana y"):
            # the organiser chooses a shorter one instead (issue 17.8).
            self.add_error("name", _(
                "«%(name)s» pasa de %(max)s letras: escribe un nombre más corto para la "
                "pareja.") % {"name": name, "max": NAME_MAX})
            return data
        data["name"] = name
        others = Pair.objects.filter(club=self.club, name__iexact=name)
        if self.pair is not None:
            others = others.exclude(pk=self.pair.pk)
        if others.exists():
            self.add_error(
                "name", _("Ya hay una pareja llamada %(name)s en el club.") % {"name": name}
            )
        return data


def default_pair_name(names: list[str]) -> str:
    """'Ana y Bea', 'Ana, Bea y Carla'."""
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s y %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}

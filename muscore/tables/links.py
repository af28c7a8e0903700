"""A table's links, as its pages name them: the view link's pages (the board, the
history, the export, the manifest) and, with the edit key, the edit link's (the board,
the history, the hand entry, undo, redo, piedras, perete, its manifest)."""

from __future__ import annotations

from django.urls import reverse

from muscore.tables.models import Table


def table_links(table: Table, editable: bool) -> dict[str, str]:
    """The table's paths by name; the edit link's only when `editable`."""
    links = {
        "view": reverse("tables:board", args=[table.id]),
        "view_history": reverse("tables:history", args=[table.id]),
        "export": reverse("api:table_export", args=[table.id]),
        "manifest": reverse("tables:view_manifest", args=[table.id]),
    }
    if editable:
        key = table.edit_key
        links.update(
            edit=reverse("tables:edit_board", args=[table.id, key]),
            history=reverse("tables:edit_history", args=[table.id, key]),
            hand=reverse("tables:hand", args=[table.id, key]),
            undo=reverse("tables:undo", args=[table.id, key]),
            redo=reverse("tables:redo", args=[table.id, key]),
            piedras=reverse("tables:piedras", args=[table.id, key]),
            perete=reverse("tables:perete", args=[table.id, key]),
            manifest=reverse("tables:edit_manifest", args=[table.id, key]),
        )
    return links

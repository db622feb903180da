"""A game named by what a volunteer or a member typed to reserve it."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game

from .copies import Copy


def game_named(text: str):
    """The game a volunteer typed: a copy's barcode, the exact title, or the one title that
    holds the words typed; otherwise the reason none is chosen."""
    copy = Copy.objects.select_related("game").filter(barcode=text).first()
    if copy is not None:
        return copy.game, None
    exact = list(Game.objects.filter(title__iexact=text)[:2])
    if len(exact) == 1:
        return exact[0], None
    matching = Game.objects.filter(title__icontains=text)
    count = matching.count()
    if count == 1:
        return matching.get(), None
    if count == 0:
        return None, _("No game is called %(title)s.") % {"title": text}
    return None, ngettext(
        "%(count)d game matches %(title)s: type more of its title.",
        "%(count)d games match %(title)s: type more of the title.",
        count,
    ) % {"count": count, "title": text}

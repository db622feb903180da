"""An import report as lines of text: what the command prints and the admin page shows."""

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .services import ACTION_LABELS, ImportReport

# "995 $a: Ludothèque" (a subfield), "005: 2023…" (a control field), "900 “Couleur”: rouge"
# (a custom field no mapping knows): what the record holds and the catalogue does not.
UNMAPPED = re.compile(r"^(?P<tag>\d{3})(?: \$(?P<code>\w))?(?P<rest>[^:]*): ?(?P<value>.*)$", re.S)


@dataclass
class UnmappedTag:
    """What a file holds under one tag (or one custom field) that nothing maps: how many
    values, under which subfields, and the first of them."""

    codes: list[str] = field(default_factory=list)
    count: int = 0
    example: str = ""


def unmapped_by_tag(report: ImportReport) -> dict[str, UnmappedTag]:
    """The report's unmapped values, counted by tag, a custom field on its own (its name is
    what the ludothécaire maps), in the order of their tags."""
    tags: dict[str, UnmappedTag] = {}
    for outcome in report.outcomes:
        for left in outcome.unmapped:
            found = UNMAPPED.match(left)
            key = f"{found['tag']}{found['rest']}" if found else left
            entry = tags.setdefault(key, UnmappedTag())
            entry.count += 1
            if found and found["code"] and f"${found['code']}" not in entry.codes:
                entry.codes.append(f"${found['code']}")
            if not entry.example and found:
                entry.example = found["value"].strip()
    return dict(sorted(tags.items()))


def report_lines(report: ImportReport, *, verbose: bool) -> list[str]:
    lines = []
    for outcome in report.outcomes:
        head = f"#{outcome.number} {outcome.title or '—'}: {ACTION_LABELS[outcome.action]}"
        if outcome.reason:
            head += f". {outcome.reason}"
        if outcome.encoding:
            head += f" ({outcome.encoding})"
        lines.append(head)
        if outcome.kept:
            lines.append(
                "  "
                + _("Kept as staff edited them: %(fields)s.") % {"fields": ", ".join(outcome.kept)}
            )
        for note in outcome.notes:
            lines.append(f"  {note}")
        if verbose:
            for source, target, value in outcome.mapped:
                lines.append(f"  {source} → {target}: {value}")
    if verbose:
        # One line a tag for the whole file, not a line a value: a copy alone brings a
        # dozen subfields the catalogue has no place for.
        for key, entry in unmapped_by_tag(report).items():
            what = " ".join([key, *entry.codes])
            lines.append(
                ngettext(
                    "Unmapped %(what)s: %(count)d value, e.g. “%(example)s”.",
                    "Unmapped %(what)s: %(count)d values, e.g. “%(example)s”.",
                    entry.count,
                )
                % {"what": what, "count": entry.count, "example": entry.example}
            )
    for problem in report.problems:
        lines.append(_("File: %(problem)s") % {"problem": problem})
    counts = report.counts
    summary = ", ".join(
        f"{counts[action]} {label}" for action, label in ACTION_LABELS.items() if counts[action]
    )
    # Whole sentences, so that each language sets its own punctuation (French: "Terminé :").
    if report.dry_run:
        last = _("Dry run, nothing changed: %(summary)s.")
    else:
        last = _("Done: %(summary)s.")
    lines.append(last % {"summary": summary or _("no records")})
    return lines

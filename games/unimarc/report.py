"""An import report as lines of text: what the command prints and the admin page shows."""

from django.utils.translation import gettext as _

from .services import ACTION_LABELS, ImportReport


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
            for left in outcome.unmapped:
                lines.append("  " + _("unmapped: %(what)s") % {"what": left})
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

"""Markdown from records rendered to HTML that is safe to show: nothing executable survives."""

import markdown as markdown_lib
import nh3
from django.utils.safestring import mark_safe

ALLOWED_TAGS = {
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "blockquote",
    "code",
    "pre",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "br",
    "hr",
    "a",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}


def render_markdown(text: str) -> str:
    """Render ``text`` (Markdown) to sanitised HTML, marked safe for templates."""
    # Summaries use ## for their sections; they sit under the page's own h2, so shift
    # every heading one level down (## → h3).
    html = markdown_lib.markdown(
        text or "",
        extensions=["tables", "sane_lists", "toc"],
        extension_configs={"toc": {"baselevel": 2}},
    )
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(clean)  # noqa: S308 - sanitised by nh3 just above

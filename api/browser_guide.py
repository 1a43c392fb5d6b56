"""The paperkg guide for Neo4j Browser (`:play`), made from docs/cypher.md so that its queries are the documented
ones that tests/integration/test_cypher_docs.py runs, never a second copy kept by hand.

Every `##` section after the guide marker of docs/cypher.md becomes a slide, in order; its code blocks become
Browser's runnable blocks (a click puts the query in the editor). An installed package has no docs/, so the guide is
committed as api/browser/guide.html: `make browser-guide` writes it again, and a unit test checks that it is what
docs/cypher.md makes. Links to other pages of the docs are left as their text: Browser could not open them.
"""

from __future__ import annotations

import sys
from html import escape, unescape
from pathlib import Path
from urllib.parse import quote

from markdown_it import MarkdownIt

GUIDE_FILE = Path(__file__).resolve().parent / "browser" / "guide.html"
MARKER = "<!-- The Neo4j Browser guide:"
TITLE = "paperkg: the graph of your papers"
RUNNABLE = '<pre class="code runnable">'
_INTRO = ("<p>Click a query to put it in the editor, then run it. Queries with <code>$</code> parameters need "
          "<code>:params</code> first (slide <em>Parameters</em>).</p>\n")


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False})
    md.renderer.rules["fence"] = lambda tokens, idx, *_: f"{RUNNABLE}{escape(tokens[idx].content.strip())}</pre>\n"
    md.core.ruler.push("relative_links_as_text", _relative_links_as_text)
    return md


def _relative_links_as_text(state) -> None:
    for token in state.tokens:
        children, kept, dropped = token.children or [], [], 0
        for child in children:
            if child.type == "link_open" and "://" not in (child.attrGet("href") or ""):
                dropped += 1
            elif child.type == "link_close" and dropped:
                dropped -= 1
            else:
                kept.append(child)
        if children:
            token.children = kept


def sections(markdown: str) -> list[tuple[str, str]]:
    """(heading, body) of each `##` section after the marker."""
    start = markdown.index(MARKER)
    text = markdown[markdown.index("-->", start) + 3:]
    found = []
    for part in text.split("\n## ")[1:]:
        heading, _, body = part.partition("\n")
        found.append((heading.strip(), body))
    return found


def render(markdown: str) -> str:
    """The guide's HTML: one <slide> per section, as Browser's `:play` and `:guide` split a remote guide."""
    md = _markdown()
    slides = []
    for number, (heading, body) in enumerate(sections(markdown)):
        intro = _INTRO if number == 0 else ""
        slides.append(f"<slide>\n<h3>{md.renderInline(heading)}</h3>\n{intro}{md.render(body)}</slide>\n")
    return (f"<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{escape(TITLE)}</title>\n"
            f"</head>\n<body>\n<article class=\"guide\">\n{''.join(slides)}</article>\n</body>\n</html>\n")


def queries(guide: str) -> list[str]:
    """The runnable blocks of a guide, as Browser puts them in its editor."""
    return [unescape(part.split("</pre>", 1)[0]) for part in guide.split(RUNNABLE)[1:]]


def first_query() -> str:
    """The guide's first query, which the README and the API's description link to."""
    return queries(GUIDE_FILE.read_text())[0]


def browser_link(browser_url: str, query: str) -> str:
    """A link that opens Neo4j Browser with query in its editor (Browser's `?cmd=edit&arg=` URL parameters).
    Browser cuts the argument at `&` and `#` even when encoded, so a linked query holds neither."""
    if "&" in query or "#" in query:
        raise ValueError("Neo4j Browser cuts a linked query at '&' or '#'")
    return f"{browser_url}?cmd=edit&arg={quote(query, safe='')}"


if __name__ == "__main__":  # make browser-guide: python -m api.browser_guide docs/cypher.md > api/browser/guide.html
    sys.stdout.write(render(Path(sys.argv[1]).read_text()))

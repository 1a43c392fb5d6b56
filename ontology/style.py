"""Neo4j Browser style (GraSS) generated from the ontology: one colour and one caption property per label.

The sheet holds no comment: Browser's GraSS reader knows no comment syntax and reads any text before the first
block as part of that block's selector, so a heading comment turned `node` into a selector nothing matches."""

from __future__ import annotations

from ontology.loader import Schema

_DEFAULTS = """node {
  diameter: 50px;
  color: #A5ABB6;
  border-color: #9AA1AC;
  border-width: 2px;
  text-color-internal: #FFFFFF;
  font-size: 10px;
}

relationship {
  color: #A5ABB6;
  shaft-width: 1px;
  font-size: 8px;
  padding: 3px;
  text-color-external: #000000;
  text-color-internal: #FFFFFF;
  caption: "<type>";
}
"""


def grass(schema: Schema) -> str:
    """The style sheet; `kg ontology style` prints it, ontology/paperkg.grass is a copy of it and the API serves it
    to Neo4j Browser (api/routers/browser.py)."""
    blocks = [_DEFAULTS]
    for label, cls in schema.nodes.items():
        blocks.append(f"node.{label} {{\n  color: {cls.color};\n  border-color: {_darker(cls.color)};\n"
                      f"  text-color-internal: {_readable_text(cls.color)};\n  caption: \"{{{cls.caption}}}\";\n}}\n")
    return "\n".join(blocks)


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _darker(color: str) -> str:
    return "#" + "".join(f"{int(c * 0.85):02X}" for c in _rgb(color))


def _readable_text(color: str) -> str:
    red, green, blue = _rgb(color)
    return "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 160 else "#FFFFFF"

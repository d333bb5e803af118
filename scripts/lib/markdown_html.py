"""A self-contained HTML page from the markdown subset scripts/report writes: headings, paragraphs,
tables, lists, block quotes, inline code, bold, links and images, the PNG images embedded as base64
data URIs so that the page needs no other file."""

import base64
import html
import os
import re

STYLE = """
body { font-family: sans-serif; max-width: 1400px; margin: 1em auto; padding: 0 1em; line-height: 1.4; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
code { background: #f4f4f4; padding: 0 2px; }
blockquote { border-left: 4px solid #c33; margin: 0.5em 0; padding: 0 1em; background: #fff4f4; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.5em 0; }
"""


def _image(alt, source, base):
    path = os.path.join(base, source)
    if source.endswith(".png") and os.path.isfile(path):
        with open(path, "rb") as handle:
            source = "data:image/png;base64," + base64.b64encode(handle.read()).decode("ascii")
    return f'<img alt="{alt}" src="{source}">'


def inline(text, base):
    """Escaped text with `code`, **bold**, ![images](path) and [links](url)."""
    codes = []

    def keep(match):
        codes.append(f"<code>{html.escape(match.group(1).replace(chr(92) + '|', '|'))}</code>")
        return f"\0{len(codes) - 1}\0"

    text = re.sub(r"`([^`]*)`", keep, text)
    text = html.escape(text.replace("\\|", "|"), quote=False)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"!\[([^\]]*)\]\(([^)]+)\)", lambda m: _image(html.escape(m.group(1)), m.group(2), base), text)
    text = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r'<a href="\2">\1</a>', text)
    return re.sub(r"\0(\d+)\0", lambda m: codes[int(m.group(1))], text)


def _cells(line):
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def convert(markdown, title, base):
    """The page for `markdown`; images are read relative to the directory `base`."""
    out = []
    lines = markdown.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        heading = re.match(r"(#{1,6}) (.*)", line)
        if heading:
            level = len(heading.group(1))
            out.append(f"<h{level}>{inline(heading.group(2), base)}</h{level}>")
            index += 1
            continue
        block = []
        for prefix in ("|", "- ", ">"):
            if line.startswith(prefix):
                while index < len(lines) and lines[index].startswith(prefix):
                    block.append(lines[index])
                    index += 1
                break
        if block and block[0].startswith("|"):
            rows = [_cells(row) for row in block if not re.fullmatch(r"\|(-+\|)+", row.strip())]
            out.append("<table><tr>" + "".join(f"<th>{inline(cell, base)}</th>" for cell in rows[0]) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{inline(cell, base)}</td>" for cell in row) + "</tr>" for row in rows[1:]]
            out.append("</table>")
        elif block and block[0].startswith("- "):
            out.append("<ul>" + "".join(f"<li>{inline(item[2:], base)}</li>" for item in block) + "</ul>")
        elif block:
            quoted = [item[1:].strip() for item in block]
            out.append("<blockquote>" + "<br>".join(inline(item, base) for item in quoted if item) + "</blockquote>")
        elif line.strip():
            paragraph = []
            while index < len(lines) and lines[index].strip() and not re.match(r"(#{1,6} |\||- |>)", lines[index]):
                paragraph.append(lines[index])
                index += 1
            out.append(f"<p>{inline(' '.join(paragraph), base)}</p>")
        else:
            index += 1
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(out) + "\n</body></html>\n")

"""Text from outside escaped for the format it lands in: one function per format the grader writes.

Text from outside is whatever a submission brought: a learner's code, output and exception messages, a file or
folder name, the names a course tool put in its download, a hand-edited gradebook's values. The grader's
files are read by people (the feedback files, the class report, the written answers, lms/README.md) and by
programs that render or interpret them (an LMS that shows Markdown or HTML, Gradescope, a spreadsheet), so
every such string is written through the function for its format:

- `md_text`: a run of Markdown inline text (a heading, a list item, a sentence), on one line;
- `md_code`: a Markdown code span (a file name shown as code), outside tables;
- `md_cell`: a cell of a Markdown table;
- `md_block`: verbatim lines in a Markdown fenced code block (a check's report, a learner's written answer);
- `html_text`: HTML text (Gradescope's top-level `output`, written with `output_format` GRADESCOPE_HTML);
- `plain_text`: text shown as it is (Gradescope's test outputs and names, `output_format` GRADESCOPE_TEXT);
- `csv_text`: CSV rows (grades.csv and the LMS imports), each cell through `csv_cell`;
- `file_name`: a file or folder name the grader makes from a submission's name (feedback/, gradescope/);
- `shown_values`: the strings of a JSON value (Gradescope's `extra_data`), each through `shown`;
- `terminal`: a message for the instructor's terminal (a name printed there cannot move the cursor, recolour
  the screen or reorder the line).

In every format the text still reads as it was written: the characters that would hide or reorder it on
screen are shown as their Python escapes (`\\x1b`, `\\u202e`), and inline text keeps to its line, each line
break shown the same way (`\\n`). Those characters are the C0 and C1 controls but tab (a terminal's escape
sequences start with one) and Unicode's bidirectional embeddings, overrides and isolates (U+202A-U+202E,
U+2066-U+2069: a line shown in another order than it is stored, as in "Trojan Source", CVE-2021-42574,
https://trojansource.codes/). The bidirectional marks (U+200E, U+200F, U+061C) stay: names in right-to-left
scripts use them, and they reorder nothing but the punctuation beside them.
"""

from __future__ import annotations

import csv
import html
import io
import re

# Gradescope renders each text field of results.json in the format it names; the grader names one for every field
# rather than rely on the defaults (Gradescope's specification, "Output String Formatting":
# https://gradescope-autograders.readthedocs.io/en/latest/specs/#output-string-formatting). "simple_format", the
# default of the top-level `output`, renders HTML (sanitized) and turns "\n" into a line break, so that `output`
# is written as HTML text; "text", the default of tests' outputs and names, renders "No HTML, Markdown, or ANSI".
GRADESCOPE_HTML, GRADESCOPE_TEXT = "simple_format", "text"

# Every line break str.splitlines knows (https://docs.python.org/3/library/stdtypes.html#str.splitlines).
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
HIDDEN = re.compile("[\x00-\x08\x0e-\x1b\x1f\x7f\x80-\x84\x86-\x9f\u202a-\u202e\u2066-\u2069]")
NAMED = {"\n": "\\n", "\r": "\\r"}

# Markdown: CommonMark lets a backslash escape any ASCII punctuation, which then is text and nothing else
# (https://spec.commonmark.org/0.31.2/#backslash-escapes). These are escaped wherever they stand: code spans
# and fences (`), emphasis (*), links and images ([ ]), raw HTML and autolinks (< >), table
# cells (|, GitHub Flavored Markdown: https://github.github.com/gfm/#tables-extension-), strikethrough (~),
# headings' closing sequences (#), math in the renderers that have it (JupyterLab, GitLab: $), e-mail
# autolinks and mentions (@), superscripts (^, in renderers such as markdown-it's and mistune's plugins) and
# the backslash itself. `&` is written `&amp;`, a character reference: an escaped `\&` next to other escapes
# was read back as the start of a reference by mistune 3.4 (`\&\#60;` shown as `<`).
MD_ALWAYS = frozenset("\\`*[]<>|~#$@^")
# Escaped only where they could start something: `_` unless inside a word (CommonMark never opens emphasis
# inside a word with it: https://spec.commonmark.org/0.31.2/#emphasis-and-strong-emphasis), `:` before `//`
# (GFM's extended autolinks, https://github.github.com/gfm/#autolinks-extension-) or before a `name:` (an emoji
# shortcode), `=` beside another (`==mark==`, those plugins again), `.` after `www` (the same autolinks), and at the very start what opens a block: a list item
# (`-`, `+`, `1.`, `1)`) or a setext heading's underline (`=`); block quotes and ATX headings are escaped
# everywhere. So `assemble_context`, `learner-01.ipynb` and `ValueError: x` stay as they are.
MD_URL_COLON = re.compile(r":(?=//|[A-Za-z0-9_+-]+:)")
MD_WWW_DOT = re.compile(r"(?<=\b[Ww][Ww][Ww])\.")
MD_BLOCK_START = re.compile(r"[-+=!:]|\d{1,9}[.)]")  # a list item, a setext underline, a spoiler, a definition
MD_EDGE_SPACE = re.compile(r"^[ \t]+|[ \t]+$")

# A spreadsheet (Excel, LibreOffice, Google Sheets) reads a cell starting with one of these as a formula. OWASP's
# rule for text exported to a spreadsheet: "special characters (including '=', '+', '-', '@', '\t' (tab), and
# '\0' (null character)) must be escaped with a single quote if they appear as the first character in a field
# value" (ASVS 5.0.0, requirement 1.2.10: https://github.com/OWASP/ASVS/blob/v5.0.0_release/5.0/en/0x10-V1-Encoding-and-Sanitization.md;
# https://owasp.org/www-community/attacks/CSV_Injection adds the carriage return and the line feed). The quote shows
# in a program that reads the file as text; the grader's own numbers never start with one of these.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\0")


def _escape(char: str) -> str:
    """A character as Python writes it in a string literal: `\\n`, `\\x1b`, `\\u202e`."""
    code = ord(char)
    return NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def shown(text: str) -> str:
    """The text with every character that would hide or reorder it on screen written as its escape."""
    return HIDDEN.sub(lambda match: _escape(match[0]), text)


def lines_of(text: str) -> str:
    """The text with its hidden characters shown and every line break one "\\n"."""
    return LINE_BREAK.sub("\n", shown(text))


def one_line(text: str) -> str:
    """The text on one line: hidden characters and every line break shown as their escapes."""
    return LINE_BREAK.sub(lambda match: "".join(map(_escape, match[0])), shown(text))


def terminal(text: str) -> str:
    """A message for a terminal: hidden characters (ESC starts a terminal's escape sequences) and every line break
    but the message's own "\\n" shown as their escapes (a "\\r" would return to the start of the line)."""
    return LINE_BREAK.sub(lambda match: match[0] if match[0] == "\n" else "".join(map(_escape, match[0])), shown(text))


def md_text(text: str) -> str:
    """Markdown inline text that renders as exactly `one_line(text)`: no markup, link, HTML or line break of its
    own, wherever on a line it is put (after a list marker, in a heading, in a table cell, opening a paragraph)."""
    text = one_line(str(text))
    marked = {m.start() for pattern in (MD_URL_COLON, MD_WWW_DOT) for m in pattern.finditer(text)}
    start = MD_BLOCK_START.match(text)
    if start:
        marked.add(start.end() - 1)
    out = []
    for index, char in enumerate(text):
        if (
            index in marked
            or char in MD_ALWAYS
            or (char == "_" and not (text[index - 1 : index].isalnum() and text[index + 1 : index + 2].isalnum()))
            or (char == "=" and "=" in (text[index - 1 : index], text[index + 1 : index + 2]))
        ):
            out.append("\\" + char)
        else:
            out.append("&amp;" if char == "&" else char)
    # Spaces and tabs at either end: Markdown trims them (and four at the start open a code block), so they are
    # written as character references, which are text.
    return MD_EDGE_SPACE.sub(lambda match: "".join("&#9;" if c == "\t" else "&#32;" for c in match[0]), "".join(out))


def md_code(text: str) -> str:
    """A Markdown code span that renders as exactly `one_line(text)` ("" for no text): its backtick strings are
    longer than any run of backticks inside, and where the text starts or ends with a backtick, or with a space
    at both ends, one space pads each side, which the renderer removes (https://spec.commonmark.org/0.31.2/#code-spans).
    Not for a table cell, where GitHub ends the cell at a `|` even inside a code span: use md_cell there."""
    text = one_line(str(text))
    if not text:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    padded = text[0] == "`" or text[-1] == "`" or (text[0] == text[-1] == " " and text.strip(" "))
    pad = " " if padded else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_cell(text: str) -> str:
    """A Markdown table cell that renders as exactly `one_line(text)`: inline text whose `|` is escaped, which
    GitHub Flavored Markdown reads as text inside a cell (https://github.github.com/gfm/#tables-extension-)."""
    return md_text(text)


def md_block(text: str, info: str = "text") -> str:
    """A Markdown fenced code block showing `lines_of(text)` verbatim: its fence is longer than any run of
    backticks inside, so no line of the text can close it (https://spec.commonmark.org/0.31.2/#fenced-code-blocks)."""
    body = lines_of(str(text))
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{body}\n{fence}"


def html_text(text: str) -> str:
    """HTML text that shows as `lines_of(text)`: `&`, `<`, `>` and quotes as character references."""
    return html.escape(lines_of(str(text)), quote=True)


def plain_text(text: str) -> str:
    """Text for a format that shows it as it is (Gradescope's "text"): `lines_of(text)`."""
    return lines_of(str(text))


def csv_text(rows: list[list[object]]) -> str:
    """Rows as CSV text, "\\n" after each row, the csv module's minimal quoting, every cell through csv_cell. A
    cell holding a line break of either kind a CSV reader splits rows at ("\\n", "\\r") is quoted: Python's
    writer quotes only the characters of its own line terminator, so each row is written with "\\r\\n" and ends
    in "\\n"."""
    lines = []
    for row in rows:
        out = io.StringIO()
        csv.writer(out, lineterminator="\r\n").writerow([csv_cell(value) for value in row])
        lines.append(out.getvalue().removesuffix("\r\n") + "\n")
    return "".join(lines)


def csv_cell(value: object) -> str:
    """A CSV cell's text: its hidden characters shown (`shown`), and a value a spreadsheet would run as a formula
    given a leading `'` (see FORMULA_START)."""
    text = shown(str(value))
    return "'" + text if text.startswith(FORMULA_START) else text


def file_name(text: str) -> str:
    """A file or folder name (or a path of them) that shows as `one_line(text)`: no character that hides or
    reorders it on screen, no line break."""
    return one_line(str(text))


def shown_values(value: object) -> object:
    """A JSON value with every string in it (keys included) through `shown`."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {shown(str(k)): shown_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shown_values(v) for v in value]
    return value

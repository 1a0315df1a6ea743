"""Real text for lesson 05, read from packages already installed: nobody here wrote any of it.

Each sample is a list of passages cut from one source, with where it came from. Sources are read from
the installed files (never downloaded); a source that is missing raises a FileNotFoundError that names it.
Passages are drawn with a fixed seed from a sorted list, so every run measures the same text.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import random
import re
from dataclasses import dataclass
from pathlib import Path

PER_SAMPLE = 100  # passages measured per sample (all of them when a source has fewer)
SEED = 5


@dataclass(frozen=True)
class Sample:
    """Passages of one kind of text, with the script or content type and where they come from."""

    name: str
    kind: str  # "prose", "code", "names", "data": the kind of text, as the lesson's figures colour it
    script: str
    source: str
    passages: tuple[str, ...]


def package_file(package: str, *parts: str) -> Path:
    """A file shipped inside an installed package; FileNotFoundError naming it when absent."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"package {package!r} is not installed")
    path = Path(next(iter(spec.submodule_search_locations)), *parts)
    if not path.is_file():
        raise FileNotFoundError(f"{package} does not ship {'/'.join(parts)}")
    return path


def _draw(items: list[str], k: int = PER_SAMPLE, seed: int = SEED) -> tuple[str, ...]:
    """k items drawn with a fixed seed from the sorted, de-duplicated list (all when there are fewer)."""
    pool = sorted(set(items))
    return tuple(pool if len(pool) <= k else random.Random(seed).sample(pool, k))


def _groups(lines: list[str], size: int, joiner: str = "\n") -> list[str]:
    """Consecutive runs of `size` lines, joined (the last, shorter run dropped)."""
    return [joiner.join(lines[i : i + size]) for i in range(0, len(lines) - size + 1, size)]


def english_prose() -> Sample:
    """Paragraphs of CPython's own documentation topics (the text help() shows for a topic or keyword, e.g. help('raise'))."""
    from pydoc_data.topics import topics

    paragraphs = [p.strip() for key in sorted(topics) for p in topics[key].split("\n\n")]
    prose = [
        p for p in paragraphs if len(p) >= 200 and not p.startswith((" ", ">>>", "*", "-", "=")) and "\n   " not in p
    ]
    return Sample("English prose", "prose", "Latin", "pydoc_data.topics (CPython documentation)", _draw(prose))


CODE_MODULES = (
    "bisect",
    "calendar",
    "csv",
    "difflib",
    "fractions",
    "heapq",
    "json.decoder",
    "pprint",
    "shlex",
    "statistics",
    "string",
    "textwrap",
    "tokenize",
)


def source_lines(source: str) -> list[str]:
    """A source's lines, each with its end (\\n, \\r\\n or \\r), split as ast.get_source_segment splits them."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", source)


def source_segment(lines: list[str], node: ast.stmt) -> str:
    """What ast.get_source_segment gives for `node`, from the source's lines split once (get_source_segment splits
    the whole source again for every node: lesson 09's first cell spent most of a second there)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    start, end = node.col_offset, node.end_col_offset
    if first == last:
        return lines[first].encode()[start:end].decode()
    head, tail = lines[first].encode()[start:].decode(), lines[last].encode()[:end].decode()
    return head + "".join(lines[first + 1 : last]) + tail


def python_code() -> Sample:
    """Top-level functions and classes of a few CPython standard-library modules, as their source."""
    pieces = []
    for name in CODE_MODULES:
        source = Path(importlib.import_module(name).__file__).read_text(encoding="utf-8")
        lines = source_lines(source)
        for node in ast.parse(source).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                segment = source_segment(lines, node)
                if 200 <= len(segment) <= 4000:
                    pieces.append(segment)
    return Sample("Python code", "code", "Latin", "CPython standard library: " + ", ".join(CODE_MODULES), _draw(pieces))


def _po_messages(path: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) pairs of a gettext catalog, with continuation lines joined."""
    pairs, current, key = [], {"msgid": "", "msgstr": ""}, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        match = re.match(r'(msgid|msgstr) "(.*)"$', line)
        if match:
            key = match.group(1)
            if key == "msgid" and current["msgstr"]:
                pairs.append((current["msgid"], current["msgstr"]))
                current = {"msgid": "", "msgstr": ""}
            current[key] = match.group(2)
        elif line.startswith('"') and key:
            current[key] += line[1:-1]
        elif not line.strip() and key:
            if current["msgid"] and current["msgstr"]:
                pairs.append((current["msgid"], current["msgstr"]))
            current, key = {"msgid": "", "msgstr": ""}, None
    return [(_unescape_po(a), _unescape_po(b)) for a, b in pairs if a and b]


def _unescape_po(text: str) -> str:
    """A .po string's escapes (newline, quote, backslash) as the characters they stand for."""
    return text.replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")


def ui_messages() -> tuple[Sample, Sample]:
    """jupyter_server's Simplified Chinese message catalogs: the English originals and their translations."""
    folder = "i18n/zh_CN/LC_MESSAGES"
    pairs = [
        pair
        for name in ("nbui.po", "notebook.po")
        for pair in _po_messages(package_file("jupyter_server", folder, name))
    ]
    pairs = [(en, zh) for en, zh in pairs if len(en) >= 40]
    chosen = _draw([f"{en}\x00{zh}" for en, zh in pairs])
    source = f"jupyter_server {folder}/*.po"
    return (
        Sample("English UI messages", "prose", "Latin", source + " (msgid)", tuple(c.split("\x00")[0] for c in chosen)),
        Sample("Chinese UI messages", "prose", "Han", source + " (msgstr)", tuple(c.split("\x00")[1] for c in chosen)),
    )


NAME_LOCALES = {
    "ja": ("Japanese", "Han + Kana"),
    "ko": ("Korean", "Hangul"),
    "hi": ("Hindi", "Devanagari"),
    "th": ("Thai", "Thai"),
    "ru": ("Russian", "Cyrillic"),
    "ar": ("Arabic", "Arabic"),
    "en": ("English", "Latin"),
}


def cldr_names(locale: str) -> Sample:
    """Names of languages, territories and currencies in one locale (CLDR data shipped by babel), eight at
    a time, joined with that locale's own list pattern."""
    from babel import Locale
    from babel.lists import format_list

    data = Locale.parse(locale)
    names = [table[key] for table in (data.languages, data.territories, data.currencies) for key in sorted(table)]
    language, script = NAME_LOCALES[locale]
    passages = [format_list(names[i : i + 8], locale=locale) for i in range(0, len(names) - 7, 8)]
    return Sample(
        f"{language} names",
        "names",
        script,
        f"babel CLDR locale data ({locale}): languages, territories, currencies",
        _draw(passages),
    )


def base64_certificates() -> Sample:
    """The base64 bodies of the root certificates in certifi's bundle."""
    text = package_file("certifi", "cacert.pem").read_text(encoding="ascii")
    bodies = re.findall(r"-----BEGIN CERTIFICATE-----\n(.*?)\n-----END CERTIFICATE-----", text, re.DOTALL)
    return Sample("base64", "data", "ASCII", "certifi cacert.pem (certificate bodies)", _draw(bodies))


def hex_values() -> Sample:
    """64-bit test values in hex from numpy's random-generator test sets, eight lines at a time."""
    lines = []
    for name in ("pcg64-testset-1.csv", "pcg64dxsm-testset-1.csv", "philox-testset-1.csv", "sfc64-testset-1.csv"):
        lines += _groups(package_file("numpy", "random", "tests", "data", name).read_text().splitlines()[1:], 8)
    return Sample("hex", "data", "ASCII", "numpy random/tests/data/*-testset-1.csv", _draw(lines))


def numeric_table() -> Sample:
    """Daily stock prices as CSV from matplotlib's sample data, eight rows at a time."""
    rows = []
    for name in ("Stocks.csv", "msft.csv"):
        lines = package_file("matplotlib", "mpl-data", "sample_data", name).read_text().splitlines()
        rows += _groups([line for line in lines if line[:1].isdigit()], 8)
    return Sample("numeric CSV", "data", "ASCII", "matplotlib mpl-data/sample_data Stocks.csv, msft.csv", _draw(rows))


@functools.cache
def samples() -> tuple[Sample, ...]:
    """Every sample the lesson measures, in a fixed order."""
    english_ui, chinese_ui = ui_messages()
    return (
        english_prose(),
        python_code(),
        english_ui,
        chinese_ui,
        *[cldr_names(locale) for locale in NAME_LOCALES],
        base64_certificates(),
        hex_values(),
        numeric_table(),
    )


def sample(name: str) -> Sample:
    """One sample by name; ValueError naming the known ones."""
    found = {s.name: s for s in samples()}
    if name not in found:
        raise ValueError(f"name: unknown sample {name!r}; known: {', '.join(found)}")
    return found[name]

"""A lesson's practice points on its page, where no kernel runs: what the reader does at each, read from the
points themselves (packer.checking.practice) when the site is built.

- A choose point becomes a radio group (one `<input type=radio>` per option, in a `<fieldset>` named by its
  `<legend>`: the browser's own radio group, so Tab enters and leaves it and the arrow keys move the choice) with
  a Check button and a status line a screen reader announces. The feedback of every option is the kernel's own:
  `check_choice` is called for each option here, and static/practice.js only shows the text it gave.
- A predict point whose answer is a literal of numbers, strings, lists and tuples becomes a text box and a Check
  button: practice.js reads the reader's Python literal and judges it as `check_prediction` does (its type, then
  which items are right, then the misconceptions it shows), from the expected value, the answer's type and the
  misconceptions written into the page here. A listed wrong value is told exactly what `check_prediction` said
  to it here (its `known` text), so those words are never copied into practice.js. tests/e2e/
  test_site_in_browser.py compares the page's verdicts with check_prediction's, word for word, on every point.
- A write point (a function to run) and any other predict point say where and how they are answered: in
  JupyterLab, with the lesson's run link when the site has one.
- The kernel's saved words for an unanswered point ("not answered yet ... run this cell again") and the progress
  cell's count ("0 of N answered right in this kernel") are not shown: the progress cell says what it does in
  JupyterLab.

Nothing is sent anywhere and nothing is kept: a reload starts afresh. The time a lesson's page gives counts its
practice at PRACTICE_MINUTES a point, the course's planning assumption (docs/instructors.md says so)."""

from __future__ import annotations

import html
import json
import re
import typing
from typing import Any

import nbformat

from packer.checking.compare import PREDICT_NOTE, type_name
from packer.checking.practice import (
    BY_LESSON,
    POINTS,
    Choose,
    Point,
    Predict,
    Write,
    check_choice,
    check_prediction,
)
from packer.checking.practice.kinds import NOT_ANSWERED, NOT_YET, RIGHT

# Minutes a reader spends on one point, by kind: reading the question, answering, reading the feedback, once
# more when wrong. A planning assumption of the course, not a measurement.
PRACTICE_MINUTES = {"predict": 2, "choose": 2, "write": 5}
SCRIPT = "practice.js"
STYLESHEET = "practice.css"
CALL = re.compile(r'^(predict|write|choose)\("(p\d+\.\d+)"', re.M)  # a cell that asks a point
PROGRESS = re.compile(r'^progress\("([\w-]+)"\)', re.M)  # the lesson's progress cell
FORM_CLASS = "site-practice"
NOTE_CLASS = "site-practice-note"
LITERALS = (int, str, bool, list, tuple)  # what practice.js reads and compares (no float is ever expected)


def practice_minutes(lesson: str) -> tuple[int, int]:
    """(how many practice points, the minutes planned for them) of a lesson ('02_prompt_packer'); (0, 0) for a
    page with none."""
    points = BY_LESSON.get(lesson, ())
    return len(points), sum(PRACTICE_MINUTES[p.kind] for p in points)


def minutes_words() -> str:
    """'2 min a predict or choose point, 5 a write point', from PRACTICE_MINUTES."""
    by_minutes: dict[int, list[str]] = {}
    for kind, minutes in PRACTICE_MINUTES.items():
        by_minutes.setdefault(minutes, []).append(kind)
    parts = [f"{minutes} min a {' or '.join(kinds)} point" for minutes, kinds in sorted(by_minutes.items())]
    return ", ".join(parts)


def encoded(value: Any) -> Any:
    """A literal as practice.js reads values: [kind, value] ('int', 'str', 'bool', 'None', 'list', 'tuple'), or
    a ValueError naming what the page cannot compare."""
    if value is None:
        return ["None"]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [encoded(item) for item in value]]
    if type(value) in (int, str, bool):
        return [type(value).__name__, value]
    raise ValueError(f"value: a {type(value).__name__} is not a literal the page compares ({value!r})")


def described(wanted: Any) -> dict[str, Any]:
    """An answer's annotated type as practice.js checks it: its name as written, its kind, and its parts."""
    origin, parts = typing.get_origin(wanted) or wanted, typing.get_args(wanted)
    if origin not in LITERALS:
        raise ValueError(f"wanted: {type_name(wanted)} is not a type the page checks")
    return {"name": type_name(wanted), "kind": origin.__name__, "parts": [described(part) for part in parts]}


def comparable(found: Predict) -> dict[str, Any] | None:
    """What practice.js needs to judge a prediction as check_prediction does, or None when the page cannot."""
    try:
        return {
            "type": described(found.answer_type),
            "expected": encoded(found.result()),
            "misconceptions": [[encoded(wrong), why] for wrong, why in found.misconceptions],
            "known": [[encoded(wrong), str(check_prediction(found, wrong))] for wrong, _ in found.misconceptions],
        }
    except ValueError:
        return None


def data_attribute(data: dict[str, Any]) -> str:
    """What practice.js reads, as JSON in the form's data-check attribute (escaped for an attribute: no inline
    script on the site)."""
    return f'data-check="{html.escape(json.dumps(data, ensure_ascii=False), quote=True)}"'


def ident(found: Point, part: str) -> str:
    """An id for a part of a point's form: practice-p2-7-A."""
    return f"practice-{found.pid.replace('.', '-')}-{part}"


def status(found: Point) -> str:
    """The line the Check button writes into (a status: a screen reader reads it when it changes)."""
    return f'<pre class="site-practice-feedback" role="status" id="{ident(found, "said")}"></pre>'


def choose_form(found: Choose) -> str:
    """The options as a radio group, a Check button, the status line, and each answer's feedback (the kernel's)."""
    options = "".join(
        f'<div class="site-practice-option"><input type="radio" name="{ident(found, "choice")}" '
        f'id="{ident(found, option.key)}" value="{html.escape(option.key, quote=True)}">'
        f'<label for="{ident(found, option.key)}">{html.escape(option.key)}. {html.escape(option.text)}</label></div>'
        for option in found.options
    )
    said = {option.key: str(check_choice(found, option.key)) for option in found.options}
    data = {"kind": "choose", "said": said, "none": str(check_choice(found, None))}
    return (
        f'<form class="{FORM_CLASS}" data-practice="{found.pid}" {data_attribute(data)} data-pagefind-ignore>'
        f"<fieldset><legend>Practice {found.number}: pick one option</legend>{options}</fieldset>"
        f'<button type="submit">Check</button>{status(found)}'
        '<p class="site-practice-keys">Keys: Tab reaches the options, the arrow keys pick one, Tab to Check and '
        "press Enter. Checked in this page: nothing is sent or kept.</p></form>"
    )


def predict_form(found: Predict, data: dict[str, Any]) -> str:
    """A text box for the prediction, a Check button, the status line, and what practice.js judges it by."""
    words = {"right": RIGHT, "not_yet": NOT_YET, "not_answered": NOT_ANSWERED, "note": PREDICT_NOTE}
    box = ident(found, "answer")
    check = {"kind": "predict", "number": found.number, **data, "words": words}
    return (
        f'<form class="{FORM_CLASS}" data-practice="{found.pid}" {data_attribute(check)} data-pagefind-ignore>'
        f'<label for="{box}">Practice {found.number}: your prediction, written as a Python literal '
        f"(<code>{html.escape(data['type']['name'])}</code>)</label>"
        f'<input type="text" id="{box}" class="site-practice-answer" autocomplete="off" spellcheck="false" '
        'autocapitalize="off">'
        f'<button type="submit">Check</button>{status(found)}'
        '<p class="site-practice-keys">Checked in this page as the lesson\'s check does in the kernel: '
        "nothing is sent or kept.</p></form>"
    )


def in_the_lab(found: Point, notebook: str, run: tuple[str, str] | None) -> str:
    """Where and how a point the page cannot check is answered: in JupyterLab, with the run link if any."""
    how = (
        "replace the line that raises <code>NotImplementedError</code> with your function and run the cell; its check "
        "runs your function on fixed cases, then generated inputs"
        if isinstance(found, Write)
        else "write your prediction in place of <code>...</code> and run the cell"
    )
    where = (
        f'<a href="{html.escape(run[0], quote=True)}">run this lesson on {html.escape(run[1])}</a>'
        if run
        else "<code>make lab</code> (or the class's JupyterHub link)"
    )
    return (
        f'<p class="{NOTE_CLASS}">Practice {found.number} ({found.kind}) is answered in JupyterLab, where your code '
        f"runs: {where}, open <code>{html.escape(notebook)}</code>, {how}.</p>"
    )


def progress_note(lesson: str) -> str:
    """What the progress cell does in JupyterLab, in place of the count a kernel saved."""
    count = len(BY_LESSON.get(lesson, ()))
    return (
        f'<p class="{NOTE_CLASS}">In JupyterLab this cell says how many of the lesson\'s {count} practice points '
        "the kernel answered right (each by its last answer) and which to revisit. On this page nothing is kept: "
        "each point's Check says right or not yet.</p>"
    )


def html_output(text: str) -> Any:
    return nbformat.v4.new_output("display_data", data={"text/html": text})


def practice_on_page(notebook: nbformat.NotebookNode, notebook_path: str, run: tuple[str, str] | None) -> bool:
    """Replace what the kernel saved under each practice cell by what a reader of the page does there (in place);
    whether the page now has a form (so it needs practice.js). `notebook_path` is the lesson's path in the
    repository, `run` its run link (address, where it runs) or None."""
    forms = False
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        asked, counted = CALL.search(cell.source), PROGRESS.search(cell.source)
        if counted:
            cell.outputs = [html_output(progress_note(counted.group(1)))]
        if not asked or asked.group(2) not in POINTS:
            continue
        found = POINTS[asked.group(2)]
        data = comparable(found) if isinstance(found, Predict) else None
        if isinstance(found, Choose):
            shown = choose_form(found)
        elif data is not None:
            shown = predict_form(found, data)  # type: ignore[arg-type]
        else:
            shown = in_the_lab(found, notebook_path, run)
        forms = forms or shown.startswith("<form")
        cell.outputs = [html_output(shown)]
    return forms

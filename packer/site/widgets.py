"""Each explorer of a lesson as a still: an explorer needs a kernel, so its widget view is replaced by a note
saying in words what the explorer does (its controls, read from the saved widget state, and what it redraws) and
how to run it live (`make lab`, and the notebook to open), the controls' saved values, and what its Output widget
showed when the lesson was last run (the figure and text saved in the notebook's `metadata.widgets` state). No
JavaScript."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import nbformat

from packer.site.pages import SiteError

LIVE_NOTE = "This explorer runs live in JupyterLab: <code>make lab</code> (or the class's JupyterHub link)."
# A lesson's multiple-choice practice point (packer.checking.practice's box carries this class): a note in its place.
PRACTICE_CLASS = "workbook-practice"
PRACTICE_NOTE = (
    "is answered live in JupyterLab: <code>make lab</code> (or the class's JupyterHub link). There, pick an option "
    "and press Check; the options are listed above, and the worked answer is folded below."
)
# How a reader uses each kind of control, in words (ipywidgets' model names); any other control is "the control".
CONTROL_WORDS = {
    "IntSliderModel": "the slider",
    "FloatSliderModel": "the slider",
    "IntRangeSliderModel": "the range slider",
    "FloatRangeSliderModel": "the range slider",
    "DropdownModel": "the menu",
    "SelectModel": "the list",
    "RadioButtonsModel": "the choice",
    "ToggleButtonsModel": "the choice",
    "TextModel": "the text box",
    "TextareaModel": "the text area",
    "CheckboxModel": "the check box",
    "ToggleButtonModel": "the toggle",
    "IntTextModel": "the number box",
    "FloatTextModel": "the number box",
}
SHOWING = ("LabelModel", "HTMLModel", "HTMLMathModel", "OutputModel")  # what shows results, not a control
SHOWN = (("figure", {"image/png", "image/jpeg", "image/svg+xml"}), ("text", {"stream", "text/plain", "text/html"}))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def widget_stills(notebook: nbformat.NotebookNode, source: Path) -> None:
    """Replace every widget view by a still of it (the live note, the controls' values, its saved output) and drop
    the saved widget state, which the page then does not need."""
    state = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is None:
                outputs.append(output)
                continue
            model_id = view["model_id"]
            if model_id not in state:
                raise SiteError(f"{source}: a widget view names model {model_id}, which the saved widget state lacks")
            if PRACTICE_CLASS in state[model_id]["state"].get("_dom_classes", []):
                note = (
                    f'<p class="site-practice-note">{html.escape(_practice_name(state, model_id))} {PRACTICE_NOTE}</p>'
                )
                outputs.append(nbformat.v4.new_output("display_data", data={"text/html": note}))
                continue
            controls: list[str] = []
            saved: list[Any] = []
            _walk(state, model_id, controls, saved)
            listed = "".join(controls)
            note = f'<p class="site-live-note">{explorer_note(state, model_id, saved, source)}</p>' + (
                f'<ul class="site-controls">{listed}</ul>' if listed else ""
            )
            outputs.append(nbformat.v4.new_output("display_data", data={"text/html": note}))
            outputs.extend(nbformat.from_dict(o) for o in saved)
        cell.outputs = outputs
    notebook.metadata.pop("widgets", None)


def _practice_name(state: dict[str, Any], model_id: str) -> str:
    """'Practice 2.3': the description of the practice box's choices."""
    for child in state[model_id]["state"].get("children", []):
        description = state.get(child.removeprefix("IPY_MODEL_"), {}).get("state", {}).get("description", "")
        if description.startswith("Practice "):
            return description
    return "This practice point"


def _controls(state: dict[str, Any], model_id: str) -> list[tuple[str, str]]:
    """The explorer's controls in page order, as (kind in words, label): ("the slider", "budget (tokens)")."""
    model = state[model_id]
    name, values = model["model_name"], model["state"]
    found = []
    if name in CONTROL_WORDS or (name not in SHOWING and "children" not in values and "value" in values):
        found.append((CONTROL_WORDS.get(name, "the control"), values.get("description", "")))
    for child in values.get("children", []):
        child_id = child.removeprefix("IPY_MODEL_")
        if child_id in state:
            found += _controls(state, child_id)
    return found


def _described(controls: list[tuple[str, str]]) -> list[str]:
    """Controls of a kind together: the sliders “budget” and “passages”, the menu “question”."""
    by_kind: dict[str, list[str]] = {}
    for kind, label in controls:
        by_kind.setdefault(kind, []).append(f"\u201c{html.escape(label)}\u201d" if label else "")
    words = []
    for kind, labels in by_kind.items():
        named = [label for label in labels if label]
        plural = kind + ("es" if kind.endswith("x") else "s") if len(labels) > 1 else kind
        words.append(f"{plural} {_joined(named)}" if named else plural)
    return words


def _joined(words: list[str]) -> str:
    """a, b and c."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def explorer_note(state: dict[str, Any], model_id: str, saved: list[Any], source: Path) -> str:
    """What the explorer does, in words read from its saved state, and how to run it live: "An explorer: change
    the menu “question” and the slider “budget (tokens)”, and it redraws the figure and text under them. Shown here
    as it was saved ... make lab ... open notebooks/06_policies.ipynb and choose Run ▸ Run All Cells."."""
    controls = _controls(state, model_id)
    kinds = {o.get("output_type") for o in saved} | {key for o in saved for key in o.get("data", {})}
    shows = [word for word, keys in SHOWN if kinds & keys] or ["line"]
    under = "it" if len(controls) == 1 else "them"
    does = (
        f"An explorer: change {_joined(_described(controls))}, and it redraws the {' and '.join(shows)} under {under}."
    )
    notebook = f"{source.parent.name}/{source.name}"
    return (
        f"{does if controls else 'An explorer.'} Shown here as it was saved, with the values below. {LIVE_NOTE} "
        f"There, open <code>{html.escape(notebook)}</code> and choose Run \u25b8 Run All Cells."
    )


def _walk(state: dict[str, Any], model_id: str, controls: list[str], saved: list[Any]) -> None:
    """Collect a widget tree's controls (as list items) and its Output widgets' saved outputs, in page order."""
    model = state[model_id]
    name, values = model["model_name"], model["state"]
    if name == "OutputModel":
        saved.extend(values.get("outputs", []))
    elif name == "LabelModel" or name == "HTMLModel":
        controls.append(f"<li>{html.escape(str(values.get('value', '')))}</li>")
    elif "children" not in values and ("value" in values or "index" in values):
        label = values.get("description", "")
        value = values.get("value")
        if "index" in values and values.get("_options_labels"):
            index = values["index"]
            value = values["_options_labels"][index] if isinstance(index, int) else index
        shown = html.escape(str(value)).replace("\n", "<br>")
        controls.append(f'<li>{html.escape(label)}{": " if label else ""}<span class="site-value">{shown}</span></li>')
    for child in values.get("children", []):
        child_id = child.removeprefix("IPY_MODEL_")
        if child_id in state:
            _walk(state, child_id, controls, saved)

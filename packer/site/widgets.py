"""Each explorer of a lesson as a still: an explorer needs a kernel, so its widget view is replaced by one line
saying how to run it live, the controls' saved values, and what its Output widget showed when the lesson was last
run (the figure and text saved in the notebook's `metadata.widgets` state). No JavaScript."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import nbformat

from packer.site.pages import SiteError

LIVE_NOTE = "This explorer runs live in JupyterLab: <code>make lab</code> (or the class's JupyterHub link)."
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
            controls: list[str] = []
            saved: list[Any] = []
            _walk(state, model_id, controls, saved)
            listed = "".join(controls)
            note = f'<p class="site-live-note">{LIVE_NOTE}</p>' + (
                f'<ul class="site-controls">{listed}</ul>' if listed else ""
            )
            outputs.append(nbformat.v4.new_output("display_data", data={"text/html": note}))
            outputs.extend(nbformat.from_dict(o) for o in saved)
        cell.outputs = outputs
    notebook.metadata.pop("widgets", None)


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

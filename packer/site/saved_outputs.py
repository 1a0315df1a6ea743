"""Saved outputs without the build machine in them: `make outputs` runs this nbconvert preprocessor after executing
each notebook (`--NotebookExporter.preprocessors=packer.site.saved_outputs.RelativePaths`).

A traceback names each file by its absolute path (`File /home/ada/workbook/packer/chunks.py:50`), so a lesson saved
by one person showed their checkout's folder to every reader of the notebook and of the site. The preprocessor
rewrites, in every saved output (tracebacks, printed text, any text of a display), the checkout's folder as a path
relative to it (`packer/chunks.py:50`) and the home folder as `~`. Only what is saved changes: a learner re-running
a lesson sees their own paths, and strict nbval, which compares an error's name and message but not its traceback
(nbval's `skip_compare`), compares the rest as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nbconvert.preprocessors import Preprocessor
from traitlets import Unicode

CHECKOUT = Path(__file__).resolve().parents[2]  # the folder that holds packer/


def relative_paths(text: str, checkout: str, home: str) -> str:
    """`text` with the checkout's folder dropped before the paths under it, and the home folder written `~`."""
    text = text.replace(checkout.rstrip("/") + "/", "")
    return text.replace(home.rstrip("/") + "/", "~/") if home not in ("", "/") else text


def _rewrite(value: Any, checkout: str, home: str) -> Any:
    """Every string in an output (nested in its lists and dicts) rewritten by relative_paths."""
    if isinstance(value, str):
        return relative_paths(value, checkout, home)
    if isinstance(value, list):
        return [_rewrite(item, checkout, home) for item in value]
    if isinstance(value, dict):
        return type(value)((key, _rewrite(item, checkout, home)) for key, item in value.items())
    return value


class RelativePaths(Preprocessor):
    """nbconvert preprocessor: the build machine's folders out of every saved output (see the module)."""

    checkout = Unicode(str(CHECKOUT), help="The checkout's folder, dropped before the paths under it").tag(config=True)
    home = Unicode(str(Path.home()), help="The home folder, written as ~").tag(config=True)
    enabled = True

    def preprocess(self, nb: Any, resources: dict) -> tuple[Any, dict]:
        """Every code cell's outputs, and the outputs saved in the widgets' state (an explorer's last view)."""
        if "widgets" in nb.metadata:
            nb.metadata["widgets"] = _rewrite(nb.metadata["widgets"], self.checkout, self.home)
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell: Any, resources: dict, index: int) -> tuple[Any, dict]:
        if cell.get("cell_type") == "code":
            cell.outputs = [_rewrite(output, self.checkout, self.home) for output in cell.get("outputs", [])]
        return cell, resources

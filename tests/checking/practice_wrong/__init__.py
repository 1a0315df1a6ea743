"""Wrong answers typical of each *write* practice point's step, as a learner would write them: each must lose
(tests/checking/test_practice.py), and every write point has at least three. One module per lesson, named as its
practice module is (lesson_02_prompt_packer.py), each with WRONG_ANSWERS: {practice id: [(what is wrong, the
source of a cell that defines the function the point names)]}."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

WRONG_ANSWERS: dict[str, list[tuple[str, str]]] = {}
for _, _name, _ in sorted(pkgutil.iter_modules([str(Path(__file__).parent)])):
    WRONG_ANSWERS.update(importlib.import_module(f"{__name__}.{_name}").WRONG_ANSWERS)

"""The half of the grader that runs inside a submission's kernel, after all of the submission's cells.

The grader sends this file's text into the kernel (it never imports it there), then calls
`_workbook_grader_setup(...)` once and `_workbook_grade_question(qid)` once per question. Setup loads a
fresh copy of `packer` from the grader's own folder, so a submission that replaced `check` or patched
the `packer` it imported cannot change how it is graded, and it reports the tampering it can see. It also
reads the generated inputs the grader recorded for the checks' searches (packer.checking.replay), when
they are the grader's (their sha256 and counts match) and this kernel's search would draw the same
ones (the same version of the search: packer.checking.search); each check then replays them instead of
generating them again.
Results go, one JSON line per question, to a file whose name the submission could not know.
"""

import builtins as _builtins
import hashlib as _hashlib
import importlib as _importlib
import json as _json
import os as _os
import sys as _sys
import types as _types


def _workbook_fingerprint(dotted, code_key):
    """The code digest of a module attribute named like 'copy.deepcopy', looked up live."""
    module_name, _, attribute = dotted.rpartition(".")
    module = _sys.modules.get(module_name) or _importlib.import_module(module_name)
    return code_key(getattr(module, attribute, None))


def _workbook_generated(path, sha256, counts, checks, fresh):
    """The recorded generated inputs by question id, read against the fresh copy's modules, when the file is
    the grader's and this kernel's search is the same version as the grader's; {} otherwise (the checks search)."""
    if not path:
        return {}
    try:
        with open(path, "rb") as source:
            data = source.read()
        if _hashlib.sha256(data).hexdigest() != sha256:
            return {}
        version, inputs = checks.replay.read(data.decode("utf-8"), fresh)
    except Exception:
        return {}
    if version != checks.engine.inputs_version() or {q: len(i) for q, i in inputs.items()} != counts:
        return {}
    return inputs


def _workbook_grader_setup(root, results_path, fingerprints, generated=("", "", {})):
    """Load a fresh packer from `root`, compare it with what the notebook used, read the recorded generated
    inputs (`generated`: their file, its sha256 and the number per question), and start the results file."""
    flags = []
    is_packer = lambda name: name == "packer" or name.startswith("packer.")  # noqa: E731
    saved = {name: module for name, module in list(_sys.modules.items()) if is_packer(name)}
    for name in saved:
        del _sys.modules[name]
    _sys.path.insert(0, root)
    _importlib.invalidate_caches()
    try:
        checks = _importlib.import_module("packer.checking")  # the engine and the question bank
        fresh = {name: module for name, module in _sys.modules.items() if is_packer(name)}
    finally:
        _sys.path.remove(root)
        for name in [name for name in _sys.modules if is_packer(name)]:
            del _sys.modules[name]
        _sys.modules.update(saved)

    real_root = _os.path.realpath(root)
    for name, module in sorted(fresh.items()):
        if not _os.path.realpath(getattr(module, "__file__", "") or "").startswith(real_root):
            flags.append(f"the import system was changed: {name} did not load from the grader's copy")
        seen = saved.get(name)
        if seen is None:
            continue
        for attribute, value in sorted(vars(module).items()):
            if (
                isinstance(value, _types.FunctionType)
                and is_packer(value.__module__ or "")
                and checks.code_key(getattr(seen, attribute, None)) != checks.code_key(value)
            ):
                flags.append(f"the notebook replaced {name}.{attribute}")
    checks.forbid_copies(saved.values())  # the notebook's own import of the references stays uncredited
    namespace = get_ipython().user_ns  # noqa: F821 (the kernel provides get_ipython)
    user_check = namespace.get("check")
    if user_check is not None and checks.code_key(user_check) != checks.code_key(checks.check):
        flags.append("the notebook redefined check (ignored: the grader uses its own copy)")
    for dotted, expected in sorted(fingerprints.items()):
        if _workbook_fingerprint(dotted, checks.code_key) != expected:
            flags.append(f"the notebook replaced {dotted}")
    _builtins._workbook_grader = {
        "checks": checks,
        "namespace": namespace,
        "path": results_path,
        "generated": _workbook_generated(*generated, checks, fresh),
    }
    with open(results_path, "w", encoding="utf-8") as out:
        out.write(_json.dumps({"flags": flags}) + "\n")


def _workbook_grade_question(qid):
    """Check one question against the notebook's own definition and append the result as a JSON line."""
    state = _builtins._workbook_grader
    checks = state["checks"]
    question = checks.question(qid)
    answer = state["namespace"].get(question.name)
    if answer is None:
        result = checks.CheckResult(
            qid, question.name, checks.NOT_ATTEMPTED, 0, question.points, detail=f"no {question.name} defined"
        )
    else:
        result = checks.run_check(qid, answer, state["generated"].get(qid))
    with open(state["path"], "a", encoding="utf-8") as out:
        out.write(_json.dumps(result.as_dict()) + "\n")

"""What the grader writes besides the grades: feedback per learner, Gradescope results, the class report and
the open written answers, each as (file name in the gradebook, bytes).

- `feedback/<submission>.md`: a readable report per learner (the name mirrors the submission's, so two
  learners never share one and each file is traceable to its notebook);
- `gradescope/<submission>/results.json`: Gradescope's autograder results format
  (https://gradescope-autograders.readthedocs.io/en/latest/specs/);
- `report.md` with `report/<lesson>/*.png`: the class at a glance, lesson by lesson;
- `answers/<lesson>/open-question-<n>.md`: every learner's written answer to one open question.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Iterator

from packer.grading.escaping import (
    GRADESCOPE_HTML,
    GRADESCOPE_TEXT,
    file_name,
    html_text,
    md_block,
    md_cell,
    md_code,
    md_text,
    one_line,
    plain_text,
    shown_values,
)
from packer.grading.exports import lesson_slug
from packer.grading.layouts import learner_key
from packer.grading.outcome import DID_NOT_RUN, NOT_GRADED, Outcome, qid_order

# Gradescope's published field lists (top level, and per test).
GRADESCOPE_FIELDS = (
    "score",
    "execution_time",
    "output",
    "output_format",
    "test_output_format",
    "test_name_format",
    "visibility",
    "stdout_visibility",
    "extra_data",
    "tests",
    "leaderboard",
)
GRADESCOPE_TEST_FIELDS = (
    "score",
    "max_score",
    "status",
    "name",
    "name_format",
    "number",
    "output",
    "output_format",
    "tags",
    "visibility",
    "extra_data",
)


def result_text(result: dict) -> str:
    """The learner-facing lines for one question (the same lines the self-check prints)."""
    from packer.checking import CheckResult

    fields = CheckResult.__dataclass_fields__
    return str(CheckResult(**{k: result[k] for k in fields if k in result}))


def feedback_name(name: str) -> str:
    """The feedback file of a submission: its own name (folders kept) plus .md, so names stay unique; a character
    that would hide or reorder the name on screen is written as its escape (escaping.file_name)."""
    return f"feedback/{file_name(name)}.md"


def gradescope_name(name: str) -> str:
    """The Gradescope results file of a submission, in a folder named as the submission (escaping.file_name)."""
    return f"gradescope/{file_name(name)}/results.json"


def to_markdown(outcome: Outcome) -> str:
    """A readable report for one learner; every string from the submission is escaped (packer.grading.escaping)."""
    lines = [
        f"# Feedback: {md_text(outcome.name)}",
        "",
        f"- learner: {md_text(outcome.learner) if outcome.learner else 'unknown'}"
        + (" (late)" if outcome.late else ""),
        f"- status: **{md_text(outcome.status)}**",
        f"- score: **{outcome.score} / {outcome.max_score}**",
        f"- lesson: {md_text(outcome.lesson) if outcome.lesson else 'unknown'}",
    ]
    if outcome.submitted_at:
        lines.append(f"- handed in: {md_text(outcome.submitted_at)}")
    if outcome.containment:
        lines.append(f"- containment: {md_text(outcome.containment)}")
    if outcome.superseded_by:
        lines.append(f"- this submission does not count: a later one does ({md_text(outcome.superseded_by)})")
    lines.append("")
    if outcome.flags:
        lines += ["## Flagged", "", *[f"- {md_text(flag)}" for flag in outcome.flags], ""]
    if outcome.notes:
        lines += ["## Notes", "", *[f"- {md_text(note)}" for note in outcome.notes], ""]
    for result in outcome.results:
        lines += [
            f"## {md_text(result['qid'])} {md_text(result['name'])}: {result['points']}/{result['max_points']}",
            "",
            md_block(result_text(result)),
            "",
        ]
    return "\n".join(lines)


def to_gradescope(outcome: Outcome) -> dict:
    """One submission in Gradescope's results.json format: test status passed/failed, the rest in extra_data.
    Every text field's format is set (escaping.GRADESCOPE_HTML, GRADESCOPE_TEXT) and its text escaped for it;
    `extra_data` is stored, never shown."""
    from packer.checking import PASSED

    return {
        "score": outcome.score,
        "output": html_text("\n".join([f"status: {outcome.status}"] + outcome.flags + outcome.notes)),
        "output_format": GRADESCOPE_HTML,
        "test_output_format": GRADESCOPE_TEXT,
        "test_name_format": GRADESCOPE_TEXT,
        "visibility": "visible",
        "extra_data": shown_values(
            {
                "submission": outcome.name,
                "learner": outcome.learner,
                "late": outcome.late,
                "lms": outcome.lms,
                "submitted_at": outcome.submitted_at,
                "superseded_by": outcome.superseded_by,
                "status": outcome.status,
                "lesson": outcome.lesson,
                "sha256": outcome.sha256,
                "max_score": outcome.max_score,
                "flags": outcome.flags,
            }
        ),
        "tests": [
            {
                "score": r["points"],
                "max_score": r["max_points"],
                "status": "passed" if r["status"] == PASSED else "failed",
                "name": plain_text(f"{r['qid']} {r['name']}"),
                "name_format": GRADESCOPE_TEXT,
                "number": r["qid"],
                "output": plain_text(result_text(r)),
                "output_format": GRADESCOPE_TEXT,
                "extra_data": shown_values({"status": r["status"], "counterexample": r.get("counterexample")}),
            }
            for r in outcome.results
        ],
    }


def gradebook_files(outcomes: list[Outcome]) -> Iterator[tuple[str, bytes]]:
    """Every file the gradebook holds besides grades.csv, grades.json and lms/: the text files, then the figures."""
    yield from text_files(outcomes)
    yield from figure_files(outcomes)


def text_files(outcomes: list[Outcome]) -> Iterator[tuple[str, bytes]]:
    """The feedback files, Gradescope's results, the class report and the written answers."""
    for outcome in outcomes:
        yield feedback_name(outcome.name), to_markdown(outcome).encode("utf-8")
        yield (
            gradescope_name(outcome.name),
            (json.dumps(to_gradescope(outcome), indent=2, ensure_ascii=False) + "\n").encode("utf-8"),
        )
    yield "report.md", report_markdown(outcomes).encode("utf-8")
    yield from written_answers(outcomes)


# --- the class at a glance --------------------------------------------------------------------------------------
def question_stats(outcomes: list[Outcome]) -> dict[str, dict]:
    """Per question: name, counts per status, each failing answer's counterexample, expected and actual results
    and detail (the check's own report of it), the failing submissions' names, and how many of its answers come
    from submissions that ran (DID_NOT_RUN_ROWS apart), which its pass rate counts."""
    from packer.checking import FAILED

    stats: dict[str, dict] = {}
    for outcome in outcomes:
        for r in outcome.results:
            entry = stats.setdefault(
                r["qid"], {"name": r["name"], "statuses": Counter(), "failures": [], "failing": set(), "ran": 0}
            )
            entry["statuses"][r["status"]] += 1
            entry["ran"] += outcome.status not in DID_NOT_RUN_ROWS
            if r["status"] == FAILED:
                entry["failing"].add(outcome.name)
                entry["failures"].append(
                    tuple(None if r.get(k) is None else str(r[k]) for k in ("counterexample", "expected", "actual"))
                    + (str(r.get("detail") or ""),)
                )
    return dict(sorted(stats.items(), key=lambda kv: qid_order(kv[0])))


def report_lessons(outcomes: list[Outcome]) -> dict[str, list[Outcome]]:
    """The submissions that count, by lesson (the assignment): those graded against a lesson's questions."""
    lessons: dict[str, list[Outcome]] = {}
    for o in outcomes:
        if not o.superseded_by and o.max_score and o.lesson:
            lessons.setdefault(o.lesson, []).append(o)
    return dict(sorted(lessons.items()))


# A submission whose notebook never ran an answer (an empty or unreadable file, a notebook with no answer in it,
# one the grader itself failed on): counted apart from the pass rates, which are over the submissions that ran.
DID_NOT_RUN_ROWS = ("unreadable", "no answers", "grader error", "unknown lesson")
# What a note says when the sandbox stopped something a learner's code tried (packer.grading.sandbox).
SANDBOX_STOPPED = ("Read-only file system", "Operation not permitted", "Permission denied", "limit (")


def pass_rate(entry: dict) -> float | None:
    """A question's pass rate over the submissions that ran (None when none did)."""
    from packer.checking import PASSED

    return entry["statuses"][PASSED] / entry["ran"] if entry["ran"] else None


def needs_help(outcome: Outcome) -> list[str]:
    """Why a learner needs help, from their row: it did not run, timed out, its kernel died, it tried something
    the sandbox stopped, it was flagged, an answer did not run ([] when none of these)."""
    stopped = [note for note in outcome.notes if "ran past" in note or "ignored the interrupt" in note]
    reasons = {
        "unreadable": [f"could not be read: {outcome.notes[0]}" if outcome.notes else "could not be read"],
        "no answers": ["handed in no answer"],
        "grader error": ["the grader failed on it (not the learner's fault): grade it again"],
        "timeout": [f"timed out: {stopped[0]}" if stopped else "timed out"],
        "kernel died": [f"its kernel died: {outcome.notes[0]}" if outcome.notes else "its kernel died"],
        "flagged": [f"flagged: {flag}" for flag in outcome.flags],
    }.get(outcome.status, [])
    reasons += [
        f"tried something the sandbox stopped: {note}"
        for note in outcome.notes
        if any(words in note for words in SANDBOX_STOPPED) and note not in stopped
    ]
    reasons += [f"{r['qid']} {r['detail'] or 'did not run'}" for r in outcome.results if r["status"] == DID_NOT_RUN]
    return reasons


def who_needs_help(outcomes: list[Outcome]) -> list[str]:
    """The report's list of learners who need help and why, by learner ([] when nobody does)."""
    lines = []
    for outcome in sorted(outcomes, key=lambda o: (o.learner or o.name, o.name)):
        reasons = needs_help(outcome)
        if reasons:
            lines.append(
                f"- **{md_text(outcome.learner or outcome.name)}** ({md_text(outcome.name)}): "
                + "; ".join(md_text(reason) for reason in reasons)
            )
    return lines


def written_summary(lesson: str, outcomes: list[Outcome]) -> list[str]:
    """The report's lines on a lesson's open questions: how many answered each, and the file that lists the answers
    for grading by hand (named as code: no link the readers of report.md must follow) ([] for a lesson with no open question)."""
    asked = max((len(o.written) for o in outcomes), default=0)
    lines = []
    for number in range(1, asked + 1):
        answered = sum(len(o.written) >= number and bool(o.written[number - 1]["answer"]) for o in outcomes)
        name = f"answers/{lesson_slug(lesson)}/open-question-{number}.md"
        lines.append(f"- open question {number}: {answered} of {len(outcomes)} answered, in {md_code(name)}")
    return ["", "### Written answers", "", *lines] if lines else []


def figure_names(lesson: str) -> tuple[str, str]:
    """The report's two figures of one lesson: its score distribution and its pass rates."""
    folder = f"report/{lesson_slug(lesson)}"
    return f"{folder}/scores.png", f"{folder}/questions.png"


def counted(count: int, what: str = "answer") -> str:
    """'1 answer', '3 answers'."""
    return f"{count} {what}{'' if count == 1 else 's'}"


def aligned(pairs: list[tuple[str, str]]) -> str:
    """Lines 'label: value' with the values aligned, each value on one line (its line breaks shown as escapes)."""
    width = max(len(label) for label, _ in pairs) + 1
    return "\n".join(f"{label + ':':<{width}} {one_line(value)}" for label, value in pairs)


def with_counts(values: Counter) -> list[tuple[str, str]]:
    """Each distinct value labelled with how many gave it ('2 answers'), most first."""
    return [(counted(count), value) for value, count in sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))]


def misunderstood(qid: str, entry: dict, earlier: dict[str, dict] | None = None) -> list[str]:
    """What the class got wrong on one question: the input most wrong answers disagreed on, the expected result
    and each distinct actual one with its count; a prediction's wrong values with their counts; the failures
    with no input (a check stopped, a name that is not a function) by what the check said."""
    failures = entry["failures"]
    lines = [f"#### {md_text(qid)} {md_text(entry['name'])}: {counted(len(failures), 'failing answer')}", ""]
    same = [other for other, seen in (earlier or {}).items() if seen["failing"] == entry["failing"]]
    if same:
        function = " (the same function)" if earlier[same[0]]["name"] == entry["name"] else ""
        lines += [
            f"These are the answers of the same {counted(len(entry['failing']), 'submission')} that fail "
            f"{md_text(same[0])}{function}: one mistake may explain both failures, so re-teach it once.",
            "",
        ]
    with_input = Counter(f[0] for f in failures if f[0] is not None)
    if with_input:
        example, count = sorted(with_input.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        on_it = [f for f in failures if f[0] == example]
        lines += [
            f"{count} of them disagreed with the reference on this input; each result they gave instead, with how "
            "many gave it:",
            "",
            md_block(
                aligned(
                    [
                        ("input", example),
                        ("expected", str(on_it[0][1])),
                        *with_counts(Counter(str(f[2]) for f in on_it)),
                    ]
                )
            ),
            "",
        ]
        others = sum(with_input.values()) - count
        if others:
            lines += [
                f"{counted(others, 'other answer')} disagreed on "
                f"{counted(len(with_input) - 1, 'other input')} (each learner's feedback shows theirs).",
                "",
            ]
    predictions = Counter(f[2] for f in failures if f[0] is None and f[2] is not None)
    if predictions:
        lines += [
            f"{md_text(qid)} is a prediction: it has no input, and its expected value is not shown here, as the "
            "learners' feedback never shows it. The wrong predictions, each with how many gave it:",
            "",
            md_block(aligned(with_counts(predictions))),
            "",
        ]
    said = Counter(f[3] for f in failures if f[0] is None and f[2] is None)
    if said:
        lines += [
            "Failing answers the check could not run on an input, by what it said:",
            "",
            md_block(aligned(with_counts(said))),
            "",
        ]
    return lines


def report_markdown(outcomes: list[Outcome]) -> str:
    """report.md: statuses of every submission, then for each lesson (the assignment) what the class
    misunderstands (the question with the most failing answers first), who needs help and why, the score
    distribution and the questions' results with pass rates over the submissions that ran, each with its figure."""
    from packer.checking import NOT_ATTEMPTED, PASSED

    statuses = Counter(o.status for o in outcomes)
    lines = [
        "# Class report",
        "",
        f"{len(outcomes)} submissions from {len({learner_key(o.lms, o.learner) for o in outcomes})} learners"
        f" ({sum(o.late for o in outcomes)} of the submissions late, {sum(bool(o.superseded_by) for o in outcomes)} "
        "superseded by another submission of the same learner and lesson).",
        "",
        "Each lesson's scores and questions count the submission that counts for each learner and lesson; the "
        "status table counts every submission.",
        "",
        "## Status",
        "",
        "| status | submissions |",
        "|---|---|",
        *[f"| {md_cell(status)} | {count} |" for status, count in sorted(statuses.items())],
    ]
    for lesson, mine in report_lessons(outcomes).items():
        stats = question_stats(mine)
        scores_png, questions_png = figure_names(lesson)
        ran = sum(o.status not in DID_NOT_RUN_ROWS for o in mine)
        lines += [
            "",
            f"## {md_text(lesson)}",
            "",
            f"{counted(len(mine), 'submission')} {'counts' if len(mine) == 1 else 'count'} for this lesson "
            f"({ran} ran).",
        ]
        # First what most of the class got wrong, the question with the most failing answers first.
        failing = sorted(
            ((qid, entry) for qid, entry in stats.items() if entry["failures"]),
            key=lambda item: (-len(item[1]["failures"]), qid_order(item[0])),
        )
        if failing:
            qid, entry = failing[0]
            lines += [
                "",
                "### What the class misunderstands",
                "",
                f"Most failing answers: {md_text(qid)} {md_text(entry['name'])}, "
                f"{len(entry['failures'])} of the {entry['ran']} submissions that ran. Each question with failing "
                "answers, most first:",
                "",
            ]
            listed: dict[str, dict] = {}
            for qid, entry in failing:
                lines += misunderstood(qid, entry, listed)
                listed[qid] = entry
            lines.pop()
        helped = who_needs_help(mine)
        lines += [
            "",
            "### Who needs help",
            "",
            *(helped or ["Nobody: every submission ran, within its limits, with nothing flagged."]),
            *written_summary(lesson, mine),
            "",
            "### Scores",
            "",
            f"![score distribution, {md_text(lesson)}]({scores_png})",
            "",
            "| score | submissions |",
            "|---|---|",
            *[
                f"| {score:g} / {top:g} | {count} |"
                for (score, top), count in sorted(Counter((o.score, o.max_score) for o in mine).items())
            ],
            "",
            "### Questions",
            "",
            f"![pass rate per question, {md_text(lesson)}]({questions_png})",
            "",
            "| question | passed | failed | did not run | not attempted | not graded | pass rate |",
            "|---|---|---|---|---|---|---|",
        ]
        for qid, entry in stats.items():
            counts = entry["statuses"]
            total = sum(counts.values())
            apart = (PASSED, DID_NOT_RUN, NOT_ATTEMPTED, NOT_GRADED)
            rate = pass_rate(entry)
            lines.append(
                f"| {md_cell(qid)} {md_cell(entry['name'])} | {counts[PASSED]} | "
                f"{total - sum(counts[s] for s in apart)} | {counts[DID_NOT_RUN]} | {counts[NOT_ATTEMPTED]} | "
                f"{counts[NOT_GRADED]} | {'–' if rate is None else f'{rate:.0%}'} |"
            )
        if ran < len(mine):
            lines += [
                "",
                f"Pass rates are over the {ran} submissions that ran; the {len(mine) - ran} that did not (an "
                "unreadable or empty file, a notebook with no answer, a grader error) are counted in the table but "
                "not in the rates.",
            ]
    return "\n".join(lines) + "\n"


def figure_files(outcomes: list[Outcome]) -> Iterator[tuple[str, bytes]]:
    """The class report's PNG figures, two per lesson: the score distribution and the pass rate per question."""
    for lesson, mine in report_lessons(outcomes).items():
        scores_png, questions_png = figure_names(lesson)
        yield scores_png, _scores_figure(mine, lesson)
        yield questions_png, _questions_figure(question_stats(mine), lesson)


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(figure)
    return buffer.getvalue()


def _scores_figure(outcomes: list[Outcome], lesson: str) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3))
    fractions = [o.score / o.max_score for o in outcomes if o.max_score]
    axes.hist(fractions, bins=[i / 10 for i in range(11)], color="#4c72b0", edgecolor="white")
    axes.set(xlabel="score (fraction of the maximum)", ylabel="submissions", title=f"Score distribution: {lesson}")
    figure.tight_layout()
    return _png(figure)


def _questions_figure(stats: dict[str, dict], lesson: str) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3))
    qids = list(stats)
    rates = [pass_rate(stats[q]) or 0.0 for q in qids]
    axes.bar(qids, rates, color="#55a868")
    axes.set(ylim=(0, 1), ylabel="pass rate", title=f"Pass rate per question: {lesson}")
    axes.tick_params(axis="x", labelrotation=45)
    figure.tight_layout()
    return _png(figure)


def written_answers(outcomes: list[Outcome]) -> Iterator[tuple[str, bytes]]:
    """One Markdown file per open question and lesson, with every learner's answer, for manual grading (the
    submission that counts for each learner and lesson: a superseded one is never graded by hand). Each answer
    is shown as the learner typed it, in a block of its own: its Markdown is not rendered."""
    by_question: dict[tuple[str, int], list[tuple[Outcome, dict]]] = {}
    for outcome in (o for o in outcomes if not o.superseded_by):
        for number, written in enumerate(outcome.written, start=1):
            by_question.setdefault((outcome.lesson, number), []).append((outcome, written))
    for (lesson, number), answers in sorted(by_question.items()):
        lines = [
            f"# {md_text(lesson or 'unknown lesson')}: open question {number}",
            "",
            f"> {md_text(answers[0][1]['question'])}",
            "",
            f"{sum(bool(w['answer']) for _, w in answers)} of {len(answers)} submissions answered.",
            "",
        ]
        for outcome, written in answers:
            lines += [
                f"## {md_text(outcome.learner or outcome.name)} ({md_text(outcome.name)})",
                "",
                md_block(written["answer"]) if written["answer"] else "*(no answer)*",
                "",
                "Points: ____",
                "",
            ]
        yield (
            f"answers/{lesson_slug(lesson) if lesson else 'unknown'}/open-question-{number}.md",
            "\n".join(lines).encode("utf-8"),
        )

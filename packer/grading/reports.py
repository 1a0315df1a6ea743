"""What the grader writes besides the grades: feedback per learner, Gradescope results, the class report and
the open written answers, each as (file name in the gradebook, bytes).

- `feedback/<submission>.md`: a readable report per learner (the name mirrors the submission's, so two
  learners never share one and each file is traceable to its notebook);
- `gradescope/<submission>/results.json`: Gradescope's autograder results format
  (https://gradescope-autograders.readthedocs.io/en/latest/specs/);
- `report.md` with `report/*.png`: the class at a glance;
- `answers/<lesson>/open-question-<n>.md`: every learner's written answer to one open question.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Iterator

from packer.grading.layouts import learner_key
from packer.grading.outcome import NOT_GRADED, Outcome, qid_order

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
    """The feedback file of a submission: its own name (folders kept) plus .md, so names stay unique."""
    return f"feedback/{name}.md"


def to_markdown(outcome: Outcome) -> str:
    """A readable report for one learner."""
    lines = [
        f"# Feedback: {outcome.name}",
        "",
        f"- learner: {outcome.learner or 'unknown'}" + (" (late)" if outcome.late else ""),
        f"- status: **{outcome.status}**",
        f"- score: **{outcome.score} / {outcome.max_score}**",
        f"- lesson: {outcome.lesson or 'unknown'}",
    ]
    if outcome.submitted_at:
        lines.append(f"- handed in: {outcome.submitted_at}")
    if outcome.containment:
        lines.append(f"- containment: {outcome.containment}")
    if outcome.superseded_by:
        lines.append(f"- this submission does not count: a later one does ({outcome.superseded_by})")
    lines.append("")
    if outcome.flags:
        lines += ["## Flagged", "", *[f"- {flag}" for flag in outcome.flags], ""]
    if outcome.notes:
        lines += ["## Notes", "", *[f"- {note}" for note in outcome.notes], ""]
    for result in outcome.results:
        lines += [
            f"## {result['qid']} {result['name']}: {result['points']}/{result['max_points']}",
            "",
            "```",
            result_text(result),
            "```",
            "",
        ]
    return "\n".join(lines)


def to_gradescope(outcome: Outcome) -> dict:
    """One submission in Gradescope's results.json format: test status passed/failed, the rest in extra_data."""
    from packer.checking import PASSED

    return {
        "score": outcome.score,
        "output": "\n".join([f"status: {outcome.status}"] + outcome.flags + outcome.notes),
        "visibility": "visible",
        "extra_data": {
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
        },
        "tests": [
            {
                "score": r["points"],
                "max_score": r["max_points"],
                "status": "passed" if r["status"] == PASSED else "failed",
                "name": f"{r['qid']} {r['name']}",
                "number": r["qid"],
                "output": result_text(r),
                "extra_data": {"status": r["status"], "counterexample": r.get("counterexample")},
            }
            for r in outcome.results
        ],
    }


def gradebook_files(outcomes: list[Outcome]) -> Iterator[tuple[str, bytes]]:
    """Every file the gradebook holds besides grades.csv and grades.json."""
    for outcome in outcomes:
        yield feedback_name(outcome.name), to_markdown(outcome).encode("utf-8")
        yield (
            f"gradescope/{outcome.name}/results.json",
            (json.dumps(to_gradescope(outcome), indent=2, ensure_ascii=False) + "\n").encode("utf-8"),
        )
    yield from class_report(outcomes)
    yield from written_answers(outcomes)


# --- the class at a glance --------------------------------------------------------------------------------------
def question_stats(outcomes: list[Outcome]) -> dict[str, dict]:
    """Per question: name, counts per status, and the counterexamples the failing answers produced."""
    stats: dict[str, dict] = {}
    for outcome in outcomes:
        for r in outcome.results:
            entry = stats.setdefault(
                r["qid"], {"name": r["name"], "statuses": Counter(), "counterexamples": Counter(), "examples": {}}
            )
            entry["statuses"][r["status"]] += 1
            if r.get("counterexample") is not None:
                key = str(r["counterexample"])
                entry["counterexamples"][key] += 1
                entry["examples"].setdefault(key, (r.get("expected"), r.get("actual")))
    return dict(sorted(stats.items(), key=lambda kv: qid_order(kv[0])))


def class_report(outcomes: list[Outcome]) -> Iterator[tuple[str, bytes]]:
    """report.md and its PNG figures: statuses, the score distribution, pass rate and the most common
    counterexample per question."""
    from packer.checking import PASSED

    statuses = Counter(o.status for o in outcomes)
    counting = [o for o in outcomes if not o.superseded_by]  # scores and questions: one per learner and lesson
    stats = question_stats(counting)
    scores = Counter((o.score, o.max_score) for o in counting if o.max_score)
    lines = [
        "# Class report",
        "",
        f"{len(outcomes)} submissions from {len({learner_key(o.lms, o.learner) for o in outcomes})} learners"
        f" ({sum(o.late for o in outcomes)} of the submissions late, {sum(bool(o.superseded_by) for o in outcomes)} "
        "superseded by another submission of the same learner and lesson).",
        "",
        "Scores and questions count the submission that counts for each learner and lesson; the status table "
        "counts every submission.",
        "",
        "## Status",
        "",
        "| status | submissions |",
        "|---|---|",
    ]
    lines += [f"| {status} | {count} |" for status, count in sorted(statuses.items())]
    lines += [
        "",
        "## Scores",
        "",
        "![score distribution](report/scores.png)",
        "",
        "| score | submissions |",
        "|---|---|",
    ]
    lines += [f"| {score} / {top} | {count} |" for (score, top), count in sorted(scores.items())]
    lines += [
        "",
        "## Questions",
        "",
        "![pass rate per question](report/questions.png)",
        "",
        "| question | passed | failed | not attempted | not graded | pass rate |",
        "|---|---|---|---|---|---|",
    ]
    for qid, entry in stats.items():
        total = sum(entry["statuses"].values())
        passed = entry["statuses"][PASSED]
        others = total - passed - entry["statuses"]["not attempted"] - entry["statuses"][NOT_GRADED]
        lines.append(
            f"| {qid} {entry['name']} | {passed} | {others} | {entry['statuses']['not attempted']} | "
            f"{entry['statuses'][NOT_GRADED]} | {passed / total:.0%} |"
        )
    lines += [
        "",
        "## What the class misunderstands",
        "",
        "The most common counterexample per question: the input on which most wrong answers disagreed "
        "with the reference.",
        "",
    ]
    for qid, entry in stats.items():
        if not entry["counterexamples"]:
            continue
        example, count = sorted(entry["counterexamples"].items(), key=lambda kv: (-kv[1], kv[0]))[0]
        expected, actual = entry["examples"][example]
        lines += [
            f"### {qid} {entry['name']}: {count} of {sum(entry['counterexamples'].values())} failing answers",
            "",
            "```",
            f"input:    {example}",
            f"expected: {expected}",
            f"actual:   {actual}",
            "```",
            "",
        ]
    yield "report.md", ("\n".join(lines).rstrip() + "\n").encode("utf-8")
    yield "report/scores.png", _scores_figure(counting)
    yield "report/questions.png", _questions_figure(stats)


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(figure)
    return buffer.getvalue()


def _scores_figure(outcomes: list[Outcome]) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3))
    fractions = [o.score / o.max_score for o in outcomes if o.max_score]
    axes.hist(fractions, bins=[i / 10 for i in range(11)], color="#4c72b0", edgecolor="white")
    axes.set(xlabel="score (fraction of the maximum)", ylabel="submissions", title="Score distribution")
    figure.tight_layout()
    return _png(figure)


def _questions_figure(stats: dict[str, dict]) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from packer.checking import PASSED

    figure, axes = plt.subplots(figsize=(6, 3))
    qids = list(stats)
    rates = [stats[q]["statuses"][PASSED] / max(1, sum(stats[q]["statuses"].values())) for q in qids]
    axes.bar(qids, rates, color="#55a868")
    axes.set(ylim=(0, 1), ylabel="pass rate", title="Pass rate per question")
    axes.tick_params(axis="x", labelrotation=45)
    figure.tight_layout()
    return _png(figure)


def written_answers(outcomes: list[Outcome]) -> Iterator[tuple[str, bytes]]:
    """One Markdown file per open question and lesson, with every learner's answer, for manual grading (the
    submission that counts for each learner and lesson: a superseded one is never graded by hand)."""
    by_question: dict[tuple[str, int], list[tuple[Outcome, dict]]] = {}
    for outcome in (o for o in outcomes if not o.superseded_by):
        for number, written in enumerate(outcome.written, start=1):
            by_question.setdefault((outcome.lesson or "unknown", number), []).append((outcome, written))
    for (lesson, number), answers in sorted(by_question.items()):
        lines = [
            f"# {lesson}: open question {number}",
            "",
            f"> {answers[0][1]['question']}",
            "",
            f"{sum(bool(w['answer']) for _, w in answers)} of {len(answers)} submissions answered.",
            "",
        ]
        for outcome, written in answers:
            lines += [
                f"## {outcome.learner or outcome.name} ({outcome.name})",
                "",
                written["answer"] or "*(no answer)*",
                "",
                "Points: ____",
                "",
            ]
        yield f"answers/{lesson}/open-question-{number}.md", "\n".join(lines).encode("utf-8")

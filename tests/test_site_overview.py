"""What a reader sees under a page's title, made of parts tested here on their own: a lesson's time (its words at
238 a minute, and its Run All time as `make outputs` measured it: packer/site/outline.py, packer/site/run_times.py),
the page's outline ("On this page"), and its figures, a light copy shown and the notebook's own PNG, with twice the
pixels, behind "Open the figure at full size" (packer/site/figures.py, packer/lab/figures.py)."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import nbformat
import pytest
from matplotlib.figure import Figure
from PIL import Image

from packer.lab.figures import ZOOM, figure_with, png_bytes, shown_size
from packer.site.figures import FULL, light_figures
from packer.site.outline import WORDS_A_MINUTE, duration, lesson_minutes, outline, time_line, word_count
from packer.site.run_times import CPU, RUN_TIMES, MeasuredExecute, RecordRunTime, read_run_times, run_seconds


def test_words_are_counted_in_markdown_and_code_cells_not_in_outputs():
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# Title\n\nTwo words, and `code`."),
            nbformat.v4.new_code_cell(
                "print(total_tokens)", outputs=[nbformat.v4.new_output("stream", text="x " * 99)]
            ),
            nbformat.v4.new_raw_cell("not counted"),
        ]
    )
    assert word_count(notebook) == 5 + 2  # Title Two words and code, then print total_tokens


def test_the_time_is_reading_at_238_words_a_minute_plus_the_measured_run_rounded_up():
    assert WORDS_A_MINUTE == 238  # Brysbaert (2019), silent reading of English non-fiction
    assert lesson_minutes(238 * 10, 30) == 11 and lesson_minutes(238 * 10, None) == 10 and lesson_minutes(1, 0) == 1
    assert [duration(s) for s in (0.2, 40, 89, 90, 600, 3720)] == [
        "1 s",
        "40 s",
        "89 s",
        "2 min",
        "10 min",
        "1 h 2 min",
    ]
    line = time_line(4760, 45, guide="../docs/instructors.html#how-long-a-lesson-takes")
    assert "<strong>About 21 min:</strong> 20 min reading (4,760 words at 238 a minute)" in line
    assert (
        "45 s running all its cells (measured as processor time)" in line
        and 'href="../docs/instructors.html#how' in line
    )
    assert "not yet measured" in time_line(4760, None, guide="") and "href" not in time_line(4760, None, guide="")


def test_the_outline_lists_the_sections_with_their_subsections_under_them_and_escapes_their_text():
    made = outline(
        [
            (3, "before any section", "a"),
            (2, "One <code>&lt;b&gt;</code>", "one"),
            (3, "One.1", "one-1"),
            (4, "deeper", "d"),
            (2, "Two", "two"),
        ]
    )
    assert made.startswith('<nav class="site-outline" aria-label="On this page"')
    assert "<summary>On this page</summary>" in made and "<details>" in made  # folded; site.js opens it when wide
    assert (
        '<ol><li><a href="#one">One &lt;b&gt;</a><ol><li><a href="#one-1">One.1</a></li></ol></li>'
        '<li><a href="#two">Two</a></li></ol>'
    ) in made
    assert outline([(2, "Only one", "x"), (3, "sub", "y")]) == ""  # nothing to find one's way through


def timed_notebook(cells: list[str], folder: Path) -> tuple[nbformat.NotebookNode, float]:
    """A notebook run top to bottom as `make outputs` runs it (MeasuredExecute, record_timing on), and the
    wall-clock seconds the whole run took here, the kernel's start included."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    started = time.monotonic()
    executor = MeasuredExecute(record_timing=True, kernel_name="python3", timeout=120)
    executor.preprocess(notebook, {"metadata": {"path": str(folder)}})
    return notebook, time.monotonic() - started


def test_make_outputs_records_a_lesson_s_cpu_seconds_not_its_waits_and_saves_the_notebook_without_its_stamps(
    tmp_path,
):
    """The kernel's CPU time for each cell: a cell that works counts, a cell that only waits (as a cell waits for
    a processor on a loaded machine) adds nothing, so the time is what a quiet machine takes."""
    (tmp_path / "notebooks").mkdir()
    work = "x = 0\nfor i in range(3 * 10**6):\n    x += i"
    notebook, whole = timed_notebook([work, "import time; time.sleep(1.5)", "print(x)"], tmp_path / "notebooks")
    cpu = [cell.metadata[CPU] for cell in notebook.cells]
    assert cpu[0] > 0.05 and cpu[1] < 0.3 and cpu[2] < 0.3  # the loop counted; the 1.5 s sleep did not
    assert all("shell.execute_reply" in cell.metadata["execution"] for cell in notebook.cells)
    seconds = run_seconds(notebook.cells)
    assert seconds == pytest.approx(sum(cpu)) and seconds < whole - 1.5
    resources = {"metadata": {"path": str(tmp_path / "notebooks"), "name": "01_x"}}
    saved, _ = RecordRunTime(checkout=str(tmp_path)).preprocess(notebook, resources)
    assert all("execution" not in cell.metadata and CPU not in cell.metadata for cell in saved.cells)
    nbformat.validate(saved)  # the notebook as it was without them
    assert read_run_times(tmp_path) == {"notebooks/01_x.ipynb": max(1, int(seconds + 0.999999))}
    kept = json.loads((tmp_path / RUN_TIMES).read_text())
    assert "CPU seconds of the kernel" in kept["about"]


def test_only_a_lesson_of_the_checkout_is_recorded_and_a_run_without_stamps_changes_nothing(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
    notebook.cells[0].metadata["execution"] = {"shell.execute_reply": "2026-12-01T10:00:02Z", "other": 1}
    notebook.cells[0].metadata["execution"]["iopub.status.busy"] = "2026-12-01T10:00:00Z"
    for folder in ("solutions", "elsewhere/notebooks"):
        (tmp_path / folder).mkdir(parents=True)
        RecordRunTime(checkout=str(tmp_path)).preprocess(
            notebook, {"metadata": {"path": str(tmp_path / folder), "name": "a"}}
        )
    assert read_run_times(tmp_path) == {}
    assert notebook.cells[0].metadata["execution"] == {"other": 1}  # only the kernel's stamps are taken out
    assert run_seconds([nbformat.v4.new_code_cell("1")]) is None


def test_a_lesson_figure_is_saved_with_twice_the_pixels_it_is_shown_at():
    figure = Figure(figsize=(4, 2), dpi=80)
    figure.add_subplot().plot([1, 2, 3])
    described = figure_with(figure, "A line rising from 1 to 3.")
    data, metadata = described._repr_mimebundle_()
    width, height = Image.open(io.BytesIO(data["image/png"])).size
    assert ZOOM == 2 and metadata["image/png"] == {"alt": "A line rising from 1 to 3.", **shown_size(data["image/png"])}
    assert shown_size(data["image/png"]) == {"width": width // 2, "height": height // 2}
    assert abs(width - 2 * 4 * 80) <= 4 * 80  # cropped to what is drawn, at twice the figure's dpi
    assert data["image/png"] == png_bytes(described)


def test_the_page_shows_a_light_copy_and_its_link_opens_the_notebook_s_own_png():
    figure = Figure(figsize=(4, 2), dpi=80)
    figure.add_subplot().bar([1, 2, 3], [3, 1, 2], hatch="//")
    png = png_bytes(figure)
    shown = shown_size(png)
    body = (
        f'<a class="site-figure" href="p_files/figure_1_0.png"><img alt="x" src="p_files/figure_1_0.png" '
        f"width={shown['width']} height={shown['height']}></a>"
        '<a class="site-figure" href="p_files/figure_2_0.png"><img src="p_files/figure_2_0.png"></a>'
    )
    made, files = light_figures(body, {"p_files/figure_1_0.png": png, "p_files/figure_2_0.png": b"\x89PNG other"})
    assert f'<a class="site-figure" href="p_files/figure_1_0{FULL}.png">' in made
    assert files[f"p_files/figure_1_0{FULL}.png"] == png  # the notebook's own bytes, full size
    light = Image.open(io.BytesIO(files["p_files/figure_1_0.png"]))
    assert light.mode == "P" and light.size == Image.open(io.BytesIO(png)).size
    assert len(files["p_files/figure_1_0.png"]) < len(png) * 0.6
    assert '<a class="site-figure" href="p_files/figure_2_0.png">' in made  # saved at the size shown: one file
    assert files["p_files/figure_2_0.png"] == b"\x89PNG other" and len(files) == 3


def test_the_light_copy_looks_like_the_figure():
    """Every pixel of the palette copy within a few levels of the original's (a chart's flat colours survive)."""
    figure = Figure(figsize=(4, 2), dpi=80)
    axes = figure.add_subplot()
    axes.bar([1, 2, 3], [3, 1, 2], color=["#0072B2", "#E69F00", "#009E73"], hatch="//", edgecolor="#222222")
    axes.set_title("three bars, hatched")
    png = png_bytes(figure)
    shown = shown_size(png)
    body = f'<a class="site-figure" href="f.png"><img src="f.png" width={shown["width"]}></a>'
    _, files = light_figures(body, {"f.png": png})
    original = Image.open(io.BytesIO(png)).convert("RGB")
    light = Image.open(io.BytesIO(files["f.png"])).convert("RGB")
    a, b = original.tobytes(), light.tobytes()
    far = sum(max(abs(a[i + c] - b[i + c]) for c in range(3)) > 24 for i in range(0, len(a), 3))
    assert len(a) == len(b) and far / (len(a) / 3) < 0.01


def test_a_cell_s_prints_saved_in_pieces_show_as_one_output_as_jupyterlab_shows_them():
    """A kernel flushes its output now and then: a table printed under load is saved as several stream outputs,
    which the page joins again (one box that scrolls, not one per piece)."""
    from packer.site.render import SiteExporter

    pieces = [nbformat.v4.new_output("stream", name="stdout", text=t) for t in ("n  ratio\n", "1  0.5\n", "2  0.7\n")]
    cell = nbformat.v4.new_code_cell("print(table)", execution_count=1, outputs=pieces)
    body, _ = SiteExporter().from_notebook_node(nbformat.v4.new_notebook(cells=[cell]))
    assert body.count("<pre>") == 2 and "n  ratio\n1  0.5\n2  0.7\n</pre>" in body  # the code's, and one output

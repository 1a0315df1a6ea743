"""notebooks/README.md lists every lesson in notebooks/, so a reader of the folder sees them all."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_lessons_readme_lists_every_lesson():
    index = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert [name for name in lessons if f"`{name}`" not in index] == []

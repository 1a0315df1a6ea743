"""Root pytest configuration: nbval's sanitize file is found from any working folder."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent


def pytest_configure(config):
    """Point nbval at the repository's sanitize file unless one was given on the command line."""
    if getattr(config.option, "nbval_sanitize_with", "unset") is None:
        config.option.nbval_sanitize_with = str(ROOT / "tests" / "nbval_sanitize.cfg")

"""Shared by the checks' tests: in-process checks grade now."""

from __future__ import annotations

import pytest

from packer.checking import DEFER_VARIABLE


@pytest.fixture(autouse=True)
def _checks_run_now(monkeypatch):
    """In-process checks must grade now, whatever the environment that started pytest says."""
    monkeypatch.delenv(DEFER_VARIABLE, raising=False)

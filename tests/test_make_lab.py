"""`make lab`: JupyterLab configured by jupyter-config/ (the browser tests in tests/e2e use the same folder and
the same environment, `make lab-env`), its state kept in .jupyter-state/, allowed to run as root, and the
environment created first when it is missing."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def dry_run(folder: Path) -> str:
    """What `make lab` would run in `folder`, without running it."""
    return subprocess.run(["make", "-n", "lab"], cwd=folder, capture_output=True, text=True, check=True).stdout


def test_make_lab_starts_jupyterlab_with_the_repository_configuration():
    lab_line = next(line for line in dry_run(ROOT).splitlines() if "jupyter lab" in line)
    assert lab_line.startswith(f'JUPYTER_CONFIG_PATH="{ROOT}/jupyter-config')
    # JupyterLab refuses to start as root without --allow-root (CI machines and containers run as root).
    assert lab_line.endswith(".venv/bin/jupyter lab" + (" --allow-root" if os.geteuid() == 0 else ""))
    assert (ROOT / "jupyter-config" / "jupyter_server_config.py").is_file()
    assert (ROOT / "jupyter-config" / "labconfig" / "default_setting_overrides.json").is_file()


STATE_VARIABLES = (
    "JUPYTER_CONFIG_DIR",  # workspaces, changed settings, the migration marker (else ~/.jupyter)
    "JUPYTER_DATA_DIR",  # the notebook-signature database and its key (else ~/.local/share/jupyter)
    "JUPYTER_RUNTIME_DIR",  # connection files and the cookie secret (else ~/.local/share/jupyter/runtime)
    "IPYTHONDIR",  # the kernels' history (else ~/.ipython)
    "MPLCONFIGDIR",  # matplotlib's font cache (else ~/.cache/matplotlib and ~/.config/matplotlib)
    "XDG_CACHE_HOME",  # jedi's completion cache, and any other cache a kernel fills (else ~/.cache)
)


def test_make_lab_points_everything_the_lab_writes_into_one_ignored_folder_of_the_repository():
    """tests/e2e/test_home_folder_in_browser.py shows the home folder stays empty; this is the mechanism."""
    printed = subprocess.run(["make", "-s", "lab-env"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    lab_env = dict(line.split("=", 1) for line in printed.splitlines())
    assert set(lab_env) == {"JUPYTER_CONFIG_PATH", *STATE_VARIABLES}
    lab_line = next(line for line in dry_run(ROOT).splitlines() if "jupyter lab" in line)
    for name in STATE_VARIABLES:
        assert Path(lab_env[name]).parent == ROOT / ".jupyter-state", name
        assert f'{name}="{lab_env[name]}"' in lab_line, f"make lab does not set {name} as make lab-env prints it"
    assert ".jupyter-state/" in (ROOT / ".gitignore").read_text().splitlines()
    cleaned = subprocess.run(["make", "-n", "clean"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert ".jupyter-state" in cleaned.split()


def test_the_lab_does_not_search_for_language_servers():
    """jupyter_lsp's search runs `npm prefix -g`, which writes ~/.npm/_logs wherever npm is installed."""
    assert lab_config().LanguageServerManager.autodetect is False


def test_make_lab_creates_the_environment_when_it_is_missing(tmp_path):
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    commands = dry_run(tmp_path)
    assert "-m venv .venv" in commands
    assert "pip install --quiet --disable-pip-version-check -c constraints.txt -e ." in commands  # the pins


def lab_config():
    """jupyter-config/jupyter_server_config.py as Jupyter loads it."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("jupyter_server_config.py", path=str(ROOT / "jupyter-config")).load_config()


def test_the_lab_culls_only_kernels_that_no_page_is_connected_to():
    """The backstop behind shutting a kernel down when its tab closes: a kernel idle for an hour with no page
    connected (its browser went away) is stopped; an open notebook's kernel never is, however long it sits idle."""
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager

    culling = lab_config().MappingKernelManager
    assert set(culling) <= set(MappingKernelManager.class_traits()), "a misspelled setting is silently ignored"
    assert culling.cull_idle_timeout >= 3600 and culling.cull_interval > 0
    assert culling.cull_connected is False and culling.cull_busy is False

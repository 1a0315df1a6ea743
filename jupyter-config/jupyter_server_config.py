"""The JupyterLab that `make lab` starts, and the browser tests too: one configuration for both.

`make lab` puts this folder first on JUPYTER_CONFIG_PATH, so Jupyter reads this file and the settings in
labconfig/default_setting_overrides.json (no news pop-up, every notebook cell kept in the page, a notebook's
kernel shut down when its tab closes, and the arrow keys on a focused practice option left to the option:
JupyterLab binds them to moving between cells, so a binding with a narrower selector, `preventDefault` false and a
command that does nothing (JupyterLab logs "Cannot execute key binding" and does no more) lets the browser move
the choice between the radio buttons, as a radio group does).
"""

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent

c = get_config()  # noqa: F821 (traitlets provides get_config when it loads this file)

# Serve the repository root, so that notebooks/, exercises/ and solutions/ are all reachable and the
# lessons' `../exercises/...` links open; start on the first lesson. A learner's server on the class's JupyterHub
# (make hub) serves the learner's own copy instead: the hub names it in JUPYTERHUB_ROOT_DIR.
c.ServerApp.root_dir = os.environ.get("JUPYTERHUB_ROOT_DIR") or str(HERE.parent)
c.LabApp.default_url = "/lab/tree/notebooks/00_start_here.ipynb"

# The page Jupyter opens in the browser also puts the file browser at the root (templates/browser-open.html).
c.ServerApp.extra_template_paths = [str(HERE / "templates")]

# The editable install's metadata folder is not something a learner needs to see.
c.ContentsManager.hide_globs.append("*.egg-info")

# A notebook's kernel stops when its tab closes (kernelShutdown in labconfig/default_setting_overrides.json), so
# following the links through the lessons no longer leaves a kernel per notebook opened. Kernels whose page went
# away without closing its tabs (the browser closed, a reload that did not reconnect) are the backstop's: one that
# has been idle for an hour with no page connected is stopped. A kernel an open notebook is connected to is never
# culled, however long the learner reads, so no one loses the variables of a lesson they are still on.
c.MappingKernelManager.cull_idle_timeout = 3600
c.MappingKernelManager.cull_interval = 300
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False

# jupyter_lsp (installed with JupyterLab) looks for language servers at start-up by running `npm prefix -g`, which
# writes a log into ~/.npm/_logs wherever npm is installed. The lessons use no language server.
c.LanguageServerManager.autodetect = False

# nbgrader is installed for instructors (make nbgrader, and its test); a learner's lab shows none of it: its server
# extensions are off in jupyter_server_config.json beside this file, its JupyterLab extensions (and notebook 7's
# "open in Notebook" button, which came with it) in labconfig/page_config.json.

# Two commands on a fresh machine: `make lab` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# One stamp per set of pyproject.toml (its comment says why three sets, and why as extras): the learner's set
# (make venv, make lab), the instructor's on top of it (make grade, nbgrader, site, hub), and all three (make test,
# make lint). Installing a larger set touches the smaller sets' stamps too: `make lab` after `make test` does nothing.
STAMP  := $(VENV)/.installed
INSTRUCTOR_STAMP := $(VENV)/.installed-instructor
ALL_STAMP := $(VENV)/.installed-all
# (a variable: a comma inside $(call ...) would split its argument)
EVERY_SET := '.[instructor,contributor]'

.PHONY: venv venv-instructor learner-venv system-deps lock lab lab-env site test test-under-load lint mutation check-mutation outputs exercises grade demo-class gradescope nbgrader check-nbgrader hub hub-proxy axe bench bench-prompt bench-request bench-history bench-transcript bench-widgets bench-grade bench-sandbox bench-checks clean

# Reinstall only when pyproject.toml or constraints.txt is newer than the last install. constraints.txt
# pins the exact version of everything installed: lesson 05 prints numbers measured on text that ships
# inside installed packages (certifi's certificates, babel's locale data, ...), so a new release of one
# must not change a lesson's saved outputs on the next fresh machine. `make lock` refreshes it.
# $(call install,VENV,WHAT): create VENV when it is missing, then install WHAT (the project, editable, with the
# extras named) at constraints.txt's pins.
define install
test -x $(1)/bin/python || $(PYTHON) -m venv $(1)
$(1)/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
$(1)/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e $(2)
endef

$(STAMP): pyproject.toml constraints.txt
	$(call install,$(VENV),.)
	touch $(STAMP)
$(INSTRUCTOR_STAMP): pyproject.toml constraints.txt
	$(call install,$(VENV),'.[instructor]')
	touch $(STAMP) $(INSTRUCTOR_STAMP)
$(ALL_STAMP): pyproject.toml constraints.txt
	$(call install,$(VENV),$(EVERY_SET))
	touch $(STAMP) $(INSTRUCTOR_STAMP) $(ALL_STAMP)

venv: $(STAMP)
# .venv with the instructor's set too, for the grader's commands run by hand (docs/instructors.md).
venv-instructor: $(INSTRUCTOR_STAMP)

# The learner's set alone, in an environment of its own, made afresh whenever pyproject.toml or constraints.txt
# changes (nothing left over from an earlier set), with a kernel named $(LEARNER_KERNEL) in a kernel folder of its
# own (LEARNER_JUPYTER_PATH). make test runs every lesson and solution (strict nbval) and the exercises' checks in
# that kernel: what a lesson needs from another set fails there. tests/test_learner_set.py checks the rest.
LEARNER_VENV := .venv-learner
LEARNER_STAMP := $(LEARNER_VENV)/.installed
LEARNER_KERNEL := workbook-learner
LEARNER_JUPYTER_PATH := $(CURDIR)/$(LEARNER_VENV)/kernel/share/jupyter
$(LEARNER_STAMP): pyproject.toml constraints.txt
	rm -rf $(LEARNER_VENV)
	$(call install,$(LEARNER_VENV),.)
	$(LEARNER_VENV)/bin/python -m ipykernel install --prefix $(CURDIR)/$(LEARNER_VENV)/kernel \
		--name $(LEARNER_KERNEL) --display-name "Python 3 (the learner's set)" >/dev/null
	touch $(LEARNER_STAMP)

learner-venv: $(LEARNER_STAMP)

# What the tests and the grader use beyond Python, make and git, from Debian's packages with apt-get (as root or with
# sudo): Chromium (the browser tests), bubblewrap (the grader's containment of each kernel), Slurm and munge (grading
# on a real Slurm cluster), Node.js and npm (the hub's proxy). The list, and which tests each part turns on, is
# tests/system_parts.py; a part whose commands are already on PATH is left as it is. `make test` passes without
# them, skipping the tests that need one and saying so at its start and end.
system-deps:
	@missing="$$($(PYTHON) tests/system_parts.py --missing-packages)" || exit 2; \
	if [ -z "$$missing" ]; then echo "make system-deps: nothing to install (every part is on PATH)"; exit 0; fi; \
	echo "make system-deps: installing with apt-get: $$missing"; \
	command -v apt-get >/dev/null || { echo "make system-deps: no apt-get here: install $$missing with this system's package manager" >&2; exit 2; }; \
	if [ "$$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
	else echo "make system-deps: apt-get needs root: run it as root, or with sudo installed" >&2; exit 2; fi; \
	$$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing

# Re-resolve pyproject.toml's ranges in a scratch environment and pin what they give today. Afterwards run
# `make outputs exercises` and `make test`, and commit constraints.txt with the outputs it changed.
# `make lock KEEP=1` keeps every existing pin and only adds what pyproject.toml gained since the last lock
# (a new dependency then moves no other version, so no lesson's saved numbers change).
LOCK_VENV := $(CURDIR)/.lock-venv
KEEP ?=
lock:
	rm -rf $(LOCK_VENV) && $(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(LOCK_VENV)/bin/python -m pip install --quiet --disable-pip-version-check $(if $(KEEP),-c constraints.txt) \
		-e $(EVERY_SET)
	{ echo "# Exact versions of every set of pyproject.toml (the learner's, [instructor], [contributor]), for make venv"; \
	  echo "# and the other installs (pip install -c constraints.txt -e '.[...]'). Made by make lock with"; \
	  echo "# $$($(LOCK_VENV)/bin/python --version); refresh with make lock, never by hand."; \
	  $(LOCK_VENV)/bin/python -m pip freeze --all --exclude-editable | grep -v '^pip=='; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(LOCK_VENV)

# JupyterLab refuses to start as root unless told to (containers and CI machines often run as root).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)
# The lab's configuration is the folder jupyter-config/ (repository root served, first lesson opened, news
# pop-up off, a kernel shut down with its tab).
LAB_CONFIG := $(CURDIR)/jupyter-config
# Everything the lab and its kernels write goes to .jupyter-state/ (git-ignored), none of it to the home
# folder: Jupyter's config folder (workspaces, changed settings, its migration marker), data folder (the
# notebook-signature database and its secret), runtime folder (server and kernel connection files, the cookie
# secret), IPython's folder (history), matplotlib's (font cache), and other caches a kernel fills (jedi's and
# parso's, for completion). Your own ~/.jupyter settings are not read by this lab either.
LAB_STATE := $(CURDIR)/.jupyter-state
LAB_ENV := JUPYTER_CONFIG_PATH="$(LAB_CONFIG)$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
	JUPYTER_CONFIG_DIR="$(LAB_STATE)/config" JUPYTER_DATA_DIR="$(LAB_STATE)/data" \
	JUPYTER_RUNTIME_DIR="$(LAB_STATE)/runtime" IPYTHONDIR="$(LAB_STATE)/ipython" \
	MPLCONFIGDIR="$(LAB_STATE)/matplotlib" XDG_CACHE_HOME="$(LAB_STATE)/cache"
lab: $(STAMP)
	$(LAB_ENV) $(BIN)/jupyter lab $(ALLOW_ROOT)

# The environment `make lab` starts JupyterLab with, one NAME=value a line: the browser tests in tests/e2e/
# start their JupyterLab with exactly this.
lab-env:
	@env -i $(LAB_ENV) env

# The lessons, exercises and guides (docs/) as a static web site in SITE (default _site/, git-ignored), from
# their saved outputs (nothing is executed), with a search index (Pagefind, from its PyPI wheel): serve it
# (python -m http.server -d _site) or copy the folder to any static host; opened from disk, all but search works.
# SOLUTIONS=1 adds the worked answers (for instructors). A folder the builder did not make is never replaced.
# REPOSITORY (the workbook's git address), BRANCH (default main) and JUPYTERHUB (the class's hub) give each lesson's
# page its "Run this lesson" link: nbgitpuller on the hub, or Binder for a GitHub repository without one
# (packer/site/launch.py). See packer/site/build.py.
SITE ?= _site
SOLUTIONS ?=
REPOSITORY ?=
BRANCH ?= main
JUPYTERHUB ?=
site: $(INSTRUCTOR_STAMP)
	$(BIN)/python -m packer.site $(call shell_quote,$(SITE)) $(if $(filter-out 0,$(SOLUTIONS)),--solutions) \
		--repository $(call shell_quote,$(REPOSITORY)) --branch $(call shell_quote,$(BRANCH)) \
		--hub $(call shell_quote,$(JUPYTERHUB))

# Two pytest workers (pytest-xdist), each test file kept on one worker so that a file's shared fixtures (a
# graded class, a JupyterLab and its browser) are built once, the longest files first (conftest.py). Measured in a
# clean clone on an idle 2-core machine, 2026-12-07: 13 min 23 s to 14 min 21 s in four runs with both installs (the
# load tests 85-95 s, the rest 639-697 s; on 2026-12-06 it was 15 min 26 s to 18 min 1 s, before jsonschema was kept
# below 4.25 (pyproject.toml says why) and the browser tests stopped repeating work). Three workers were no faster
# (2026-12-06): the suite is CPU-bound.
# `.venv/bin/python -m pytest tests/core` runs a part of it in one process.
#
# First, on their own, the tests that saturate the machine on purpose (tests/test_under_load.py: a correct answer
# keeps its points when the grading machine is busy; 1–4 min): beside the rest they would slow every test down.
#
# The notebooks (nbval) and the exercises' checks run in the learner set's own kernel (LEARNER_KERNEL above).
IN_LEARNER_KERNEL = JUPYTER_PATH="$(LEARNER_JUPYTER_PATH)$${JUPYTER_PATH:+:$$JUPYTER_PATH}"
SUITE = $(BIN)/python -m pytest -n 2 --dist loadfile -m "not load" --nbval-kernel-name $(LEARNER_KERNEL)
test: $(ALL_STAMP) $(LEARNER_STAMP) lint
	$(BIN)/python -m pytest -m load tests/test_under_load.py
	$(IN_LEARNER_KERNEL) $(SUITE)

# The whole suite with the machine saturated (twice as many spinning processes as cores; tests/load.py): every
# test must wait for what it watches, never for a fixed time. Not part of make test (about twice as long).
test-under-load: $(ALL_STAMP) $(LEARNER_STAMP)
	$(IN_LEARNER_KERNEL) $(BIN)/python tests/load.py -- $(SUITE)

# Lint and format check (ruff, configured in pyproject.toml): the package, the tests and the notebooks.
lint: $(ALL_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Mutation testing of the packer core against its unit tests (minutes; not part of `make test`).
# Scratch copies only: the working tree is never changed. Explained equivalents: tests/mutation/equivalent.toml.
mutation: $(ALL_STAMP)
	$(BIN)/python tests/mutation/score.py

# Mutation testing of the exercises' and lessons' checks: every worked answer in solutions/, and every lesson
# write point's worked answer in notebooks/, is mutated with the core's operators and the mistakes learners make,
# and each mutant must lose points on its own check. Explained equivalents: tests/mutation/check_equivalent.toml.
# It takes under a minute on a quiet machine, so make test runs it too (tests/mutation/test_check_score.py).
check-mutation: $(ALL_STAMP)
	$(BIN)/python tests/mutation/check_score.py

# Re-execute the lessons top to bottom and save their real outputs (run after changing packer/ or a lesson).
# Saved outputs name files relative to the checkout (packer/chunks.py, not /home/you/workbook/packer/chunks.py):
# packer/site/saved_outputs.py rewrites them after each notebook runs. Each lesson's run is timed (the kernel's CPU
# seconds for each cell, MeasuredExecute, which a loaded machine barely inflates) into packer/site/run_times.json
# for the site's time estimates, and the stamps are then taken out of the notebook again (packer/site/run_times.py).
# A printed output that a loaded machine saved in pieces is joined into one (CoalesceStreamsPreprocessor).
NOTEBOOKS ?= notebooks/*.ipynb solutions/*.ipynb
outputs: $(ALL_STAMP)
	$(BIN)/jupyter nbconvert --to notebook --inplace \
		--ExecutePreprocessor.record_timing=True --ExecutePreprocessor.timeout=300 \
		--NotebookExporter.preprocessors=packer.site.run_times.MeasuredExecute \
		--NotebookExporter.preprocessors=packer.site.saved_outputs.RelativePaths \
		--NotebookExporter.preprocessors=packer.site.run_times.RecordRunTime \
		--NotebookExporter.preprocessors=nbconvert.preprocessors.CoalesceStreamsPreprocessor $(NOTEBOOKS)

# Regenerate exercises/ from solutions/ (solutions/solution_NN_x.ipynb -> exercises/exercise_NN_x.ipynb: stubs in
# place of solution code, outputs cleared).
exercises: $(ALL_STAMP)
	$(BIN)/python -m packer.checking.exercises

# Grade a folder of submitted exercise notebooks: make grade SUBMISSIONS="path/to/my class" [OUT=grades]
# [GRADE_ARGS="--lesson 01 --due 2026-11-20T23:59+01:00"]. SUBMISSIONS and OUT are one path each, quoted
# for the shell (spaces and quotes in folder names are safe); GRADE_ARGS is passed as it is.
SUBMISSIONS ?= submissions
OUT ?= grades
GRADE_ARGS ?=
shell_quote = '$(subst ','\'',$(1))'
grade: $(INSTRUCTOR_STAMP)
	$(BIN)/python -m packer.grading $(call shell_quote,$(SUBMISSIONS)) --out $(call shell_quote,$(OUT)) $(GRADE_ARGS)

# A made-up class of 40 submissions (correct, wrong, hostile) to try the grader on.
demo-class: $(INSTRUCTOR_STAMP)
	$(BIN)/python -m packer.grading.demo_class demo-class

# Gradescope's autograder zip for one lesson's assignment, to upload on its Configure Autograder page:
# make gradescope LESSON=01 writes dist/gradescope-01_assemble_context.zip (without LESSON,
# dist/gradescope-all.zip grades each notebook as the lesson it records). See packer/grading/gradescope_files/run_autograder.
LESSON ?=
gradescope: $(INSTRUCTOR_STAMP)
	$(BIN)/python -m packer.grading.gradescope_package build $(if $(LESSON),--lesson $(LESSON)) --out dist

# An nbgrader course made from solutions/ in a new folder: make nbgrader NBGRADER_COURSE=/srv/courses/packing writes
# its nbgrader_config.py and source/<lesson>/exercise_<lesson>.ipynb (packer/grading/nbgrader_course.py). Then, in
# that folder, nbgrader as usual: PATH="$(CURDIR)/.venv/bin:$$PATH" nbgrader generate_assignment 01_assemble_context
NBGRADER_COURSE ?=
nbgrader: $(INSTRUCTOR_STAMP)
	@test -n $(call shell_quote,$(NBGRADER_COURSE)) || { echo "make nbgrader: say where: make nbgrader NBGRADER_COURSE=<a new folder>" >&2; exit 2; }
	$(BIN)/python -m packer.grading.nbgrader_course $(call shell_quote,$(NBGRADER_COURSE))

# The demo class graded by nbgrader and by the workbook's grader, question by question (minutes; make test runs a
# smaller class, tests/grading/test_nbgrader_course.py). The instructors' guide shows its last run.
check-nbgrader: $(ALL_STAMP)
	$(BIN)/python tests/grading/nbgrader_demo.py

# The class on one machine: a real JupyterHub on http://127.0.0.1:$(HUB_PORT)/ (jupyter-config/hub/jupyterhub_config.py).
# Any name logs in with one shared password, printed at start (or HUB_PASSWORD, 8 characters or more); each
# learner gets a server of their own on this .venv and a copy of HUB_COURSE in HUB_LEARNERS/<name>/ (their work
# is kept there across restarts; never deleted by make). Ctrl-C stops the hub, the proxy and every learner's
# server. The hub's own database and secrets go to HUB_STATE.
#   make hub [HUB_PORT=8000] [HUB_COURSE="notebooks exercises solutions"] [HUB_LEARNERS=/srv/class]
HUB_PORT ?= 8000
HUB_COURSE ?= notebooks exercises
HUB_STATE ?= $(CURDIR)/.hub
HUB_LEARNERS ?=
HUB_PASSWORD ?=
HUB_PROXY := .hub/proxy/node_modules/.bin/configurable-http-proxy
hub: $(INSTRUCTOR_STAMP) $(HUB_PROXY)
	WORKBOOK_HUB_STATE=$(call shell_quote,$(HUB_STATE)) WORKBOOK_HUB_LEARNERS=$(call shell_quote,$(HUB_LEARNERS)) \
	WORKBOOK_HUB_PORT=$(call shell_quote,$(HUB_PORT)) WORKBOOK_HUB_COURSE=$(call shell_quote,$(HUB_COURSE)) \
	WORKBOOK_HUB_PASSWORD=$(call shell_quote,$(HUB_PASSWORD)) WORKBOOK_HUB_PROXY=$(CURDIR)/$(HUB_PROXY) \
		$(BIN)/jupyterhub -f jupyter-config/hub/jupyterhub_config.py

# JupyterHub's proxy, configurable-http-proxy from the npm registry, at the version and checksums that
# jupyter-config/hub/package-lock.json pins, installed into .hub/proxy/ (git-ignored) with the machine's Node.js.
hub-proxy: $(HUB_PROXY)
$(HUB_PROXY): jupyter-config/hub/package.json jupyter-config/hub/package-lock.json
	@command -v npm >/dev/null || { echo "make hub-proxy: npm not found: install Node.js and npm (Debian: apt-get install -y nodejs npm)" >&2; exit 1; }
	mkdir -p .hub/proxy
	cp jupyter-config/hub/package.json jupyter-config/hub/package-lock.json .hub/proxy/
	cd .hub/proxy && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

# axe-core, the accessibility rules tests/e2e/test_site_accessibility.py runs on every page of the site, from the npm
# registry at the version and checksum tests/e2e/axe/package-lock.json pins, installed into .axe/ (git-ignored) with
# the machine's Node.js. The test runs this target itself (as the hub's test runs hub-proxy), so `make test` and
# .ci/run install it where npm is on PATH.
AXE := .axe/node_modules/axe-core/axe.min.js
axe: $(AXE)
$(AXE): tests/e2e/axe/package.json tests/e2e/axe/package-lock.json
	@command -v npm >/dev/null || { echo "make axe: npm not found: install Node.js and npm (Debian: apt-get install -y nodejs npm)" >&2; exit 1; }
	mkdir -p .axe
	cp tests/e2e/axe/package.json tests/e2e/axe/package-lock.json .axe/
	cd .axe && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

bench: $(ALL_STAMP)
	$(BIN)/python tests/benchmarks/bench_utf8.py

bench-prompt: $(ALL_STAMP)
	$(BIN)/python tests/benchmarks/bench_prompt.py

# pack_request with Mistral's v7 template: re-measuring every candidate request against the exact fast path.
bench-request: $(ALL_STAMP)
	$(BIN)/python tests/benchmarks/bench_request.py

# pack_history on lesson 09's agent transcript (Mistral's v7 template): counting the kept request once, the exact
# fast path, and re-measuring every candidate request.
bench-history: $(ALL_STAMP)
	$(BIN)/python tests/benchmarks/bench_history.py

# python -m packer.transcript's report on a 2,000-message log against one count of the whole log (target: 10x).
bench-transcript: $(ALL_STAMP)
	$(BIN)/python tests/benchmarks/bench_transcript.py

bench-widgets: $(ALL_STAMP)
	$(BIN)/python tests/benchmarks/bench_widgets.py

bench-grade: $(ALL_STAMP)
	$(BIN)/python tests/benchmarks/bench_grade.py

# Milliseconds per check of each graded question, on the worked answer and on the stub (median of 7 runs).
bench-checks: $(ALL_STAMP)
	$(BIN)/python tests/benchmarks/bench_checks.py

# What containment costs: the same class graded with and without it, in turn.
bench-sandbox: $(ALL_STAMP)
	$(BIN)/python tests/benchmarks/bench_containment.py

clean:
	rm -rf $(VENV) $(LEARNER_VENV) $(LOCK_VENV) *.egg-info .hypothesis demo-class grades dist tests/e2e/screenshots .jupyter-state .hub/proxy .axe

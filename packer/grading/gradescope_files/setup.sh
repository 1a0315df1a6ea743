#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (the network is reachable then,
# and only then): it installs Python, the workbook's pinned dependencies and the grader, as `make venv` does.
# Spec: https://gradescope-autograders.readthedocs.io/en/latest/specs/ (this zip's root is /autograder/source).
set -euo pipefail

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"  # /autograder/source
VENV=/opt/workbook/venv                                  # run_autograder's default AUTOGRADER_PYTHON is its python
GRADER_USER=workbook-grader                              # the grader, and so the learner's code, runs as this user

export DEBIAN_FRONTEND=noninteractive
apt-get update
# bubblewrap: the grader's containment of each kernel (no network, nothing of the file system but its own
# folder). run_autograder uses it where the container lets it make namespaces, and otherwise relies on the
# container Gradescope starts for each submission alone (its stdout, shown to instructors, says which).
# util-linux: prlimit (the containment's resource limits), runuser and setpriv.
apt-get install -y --no-install-recommends bubblewrap util-linux ca-certificates

# Python 3.11, the version constraints.txt was locked with (3.11.7), at 3.11.5 or later: some of its pins
# require that (soupsieve 4.1.3: Requires-Python >=3.11.5). Ubuntu's own python3.11 is older (22.04 has
# 3.11.0rc1; 24.04 has none), so it comes from the deadsnakes archive, unless the image already has one
# that is new enough. The system python3 is never replaced: Gradescope's own harness runs on it.
PYTHON=python3.11
new_enough() {
    command -v "$PYTHON" >/dev/null &&
        "$PYTHON" -c 'import sys, venv, ensurepip; sys.exit(not (3, 11, 5) <= sys.version_info[:3] < (3, 12))'
}
if ! new_enough; then
    apt-get install -y software-properties-common
    add-apt-repository -y ppa:deadsnakes/ppa
    apt-get update
    apt-get install -y --no-install-recommends python3.11 python3.11-venv
fi
if ! new_enough; then
    echo "setup.sh: no Python 3.11 at 3.11.5 or later ($("$PYTHON" --version 2>&1)); choose an Ubuntu base image" >&2
    exit 1
fi

# The same two pip commands as the Makefile's venv target: every package at the version constraints.txt pins,
# and the workbook itself installed editable from this folder (the grader and its checks are this packer/), with
# the learner's set and the grader's extra (pyproject.toml), not the rest of the instructor's set.
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -c "$SOURCE/constraints.txt" -e "$SOURCE[grader]"

# Gradescope's advice: run the learners' code as a user without root's rights. The grader runs as this
# user, which may read the grader's files and the Python environment but change neither, nor results/.
id -u "$GRADER_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$GRADER_USER"
chmod -R go-w,a+rX "$SOURCE" "$VENV"

# A check now rather than on the first learner's submission: the grader starts and knows its lessons.
cd "$SOURCE"
"$VENV/bin/python" -m packer.grading --help >/dev/null
"$VENV/bin/python" -c 'from packer.grading.running import lessons; print("lessons:", ", ".join(lessons().values()))'
"$VENV/bin/python" -c 'from packer.grading.sandbox import probe; print("containment while building:", probe() or "available")'

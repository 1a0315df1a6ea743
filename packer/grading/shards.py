"""Grading a class on many machines: which share of the class a shard grades, and what it records.

`--shard K/N` grades the submissions whose name hashes to K of N. The hash is of the row's name (the
submission's path from the folder given), so a shard is the same whatever order the files are listed or
found in, and every submission lands in exactly one shard. Each shard gradebook records K, N and a
digest of the whole class it saw, so a merge can tell that it has every shard exactly once, of one class.

`--shard auto` takes K and N from the batch engine that started the task: a Slurm job array submitted with
`--array=1-N` (SLURM_ARRAY_TASK_ID is K, SLURM_ARRAY_TASK_COUNT is N). `--shard auto/N` takes only K from
the engine, for a Kubernetes Indexed Job (JOB_COMPLETION_INDEX + 1; a pod is not told the Job's completions)
or a Slurm array that reruns some shards (`--array=2,5`). A task whose shard cannot be worked out is refused,
naming the variables looked for.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping

SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def parse_shard(raw: str) -> tuple[int, int]:
    """'2/8' -> (2, 8); a ValueError naming --shard unless 1 <= K <= N."""
    match = SHARD.match(raw)
    if not match:
        raise ValueError(f"--shard: {raw!r} is not K/N (for example 2/8: the second of 8 shards)")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"--shard: {raw!r} needs 1 <= K <= N (K is the shard, from 1, N how many shards)")
    return index, count


SLURM = ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT")
KUBERNETES = "JOB_COMPLETION_INDEX"
AUTO = re.compile(r"^\s*auto\s*(?:/\s*(\d+)\s*)?$")


def engine_shard(raw: str, env: Mapping[str, str]) -> tuple[int, int] | None:
    """'auto' or 'auto/N' -> (K, N) from the batch engine's variables in `env`; None when `raw` is not auto.
    A ValueError naming --shard and the variables when the task's shard cannot be worked out."""
    match = AUTO.match(raw)
    if not match:
        return None
    count = int(match.group(1)) if match.group(1) else None
    if count is not None and count < 1:
        raise ValueError(f"--shard: {raw!r} needs N >= 1 (how many shards the class is graded in)")
    slurm, kubernetes = SLURM[0] in env, KUBERNETES in env
    if slurm and kubernetes:
        raise ValueError(
            f"--shard {raw}: both {SLURM[0]} (Slurm) and {KUBERNETES} (Kubernetes) are set; give --shard K/N"
        )
    if kubernetes:
        if count is None:
            raise ValueError(
                f"--shard auto: {KUBERNETES} is set, but a Kubernetes pod is not told how many completions its Job "
                "has; give --shard auto/N with N the Job's completions"
            )
        index = _number(env, KUBERNETES) + 1
        if index > count:
            raise ValueError(f"--shard {raw}: {KUBERNETES}={index - 1} is not below N={count} (it runs from 0 to N-1)")
        return index, count
    if not slurm:
        raise ValueError(
            f"--shard {raw}: neither {SLURM[0]} (a task of a Slurm job array) nor {KUBERNETES} (a pod of a "
            "Kubernetes Indexed Job) is set, so this is no task of a batch engine's array; give --shard K/N"
        )
    index = _number(env, SLURM[0])
    if count is None:
        low, high, tasks = (_number(env, name) for name in SLURM[1:])
        if (low, high) != (1, tasks):
            raise ValueError(
                f"--shard auto: this Slurm array runs tasks {low} to {high} ({SLURM[1]}, {SLURM[2]}), {tasks} of "
                f"them ({SLURM[3]}); auto needs an array numbered 1 to N (sbatch --array=1-N), and a rerun of some "
                "shards must say how many the class has: --shard auto/N"
            )
        count = tasks
    if not 1 <= index <= count:
        raise ValueError(
            f"--shard {raw}: {SLURM[0]}={index} is not a shard from 1 to {count}; number the array from 1 "
            f"(sbatch --array=1-{count})"
        )
    return index, count


def _number(env: Mapping[str, str], name: str) -> int:
    """A batch engine's variable as a whole number; a ValueError naming it when missing or not one."""
    value = env.get(name, "")
    if not value.strip().isdigit():
        raise ValueError(f"--shard auto: the batch engine's {name} is {value!r}, not a whole number")
    return int(value)


def shard_of(name: str, count: int) -> int:
    """The shard (1..count) a submission's row name belongs to: a stable hash, not a position in a list."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big") % count + 1


def class_digest(names: list[str], skipped: list[str]) -> str:
    """A digest of the whole class a shard saw (every submission's name and every file skipped)."""
    text = json.dumps([sorted(names), sorted(skipped)], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()

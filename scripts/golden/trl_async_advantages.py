"""TRL 1.13.0's async GRPO advantages, run from the installed wheel's own source.

trl/experimental/async_grpo/async_rollout_worker.py scores each RolloutGroup (one prompt's completions)
in AsyncRolloutWorker._score_group: (r - mean) / (np.std(r) (ddof 0) + 1e-8) over the group's scorable
rewards, 0 for a completion whose every reward function returned None. The module imports vLLM's
client stack and transformers at its top, so this script does not import it: it parses the file with
ast and execs only `_score_group` and the RolloutSample dataclass, with numpy, on a worker object that
has just the attributes the method reads. Every case groups the rewards by prompt id in order of first
appearance, as the rollout worker builds one group per prompt.

usage: python scripts/golden/trl_async_advantages.py [SITE_PACKAGES] > test/fixtures/golden-trl-async-advantages.json
"""

import ast
import asyncio
import dataclasses
import inspect
import json
import logging
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

import importlib.metadata as md

site = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(np.__file__).parent.parent
source_path = site / "trl/experimental/async_grpo/async_rollout_worker.py"
source = source_path.read_text()
tree = ast.parse(source)

wanted = {"_score_group", "RolloutSample"}
nodes = []
for node in ast.walk(tree):
    if isinstance(node, (ast.AsyncFunctionDef, ast.ClassDef)) and node.name in wanted:
        nodes.append(node)
assert {n.name for n in nodes} == wanted, [n.name for n in nodes]
namespace: dict[str, Any] = {
    "np": np,
    "asyncio": asyncio,
    "inspect": inspect,
    "logger": logging.getLogger("trl-async"),
    "dataclass": dataclasses.dataclass,
    "Messages": Any,
    "Any": Any,
    "RolloutGroup": Any,
    "__name__": "trl_async_exec",
}
for node in nodes:
    # Annotations are not evaluated at def time only under `from __future__ import annotations`; keep them harmless.
    exec(compile(ast.Module(body=[node], type_ignores=[]), str(source_path), "exec"), namespace)
score_group = namespace["_score_group"]


class Sequence:
    def __init__(self):
        self.input_ids = [0]
        self.completion_mask = [1]
        self.old_log_probs = [0.0]


class Group:
    def __init__(self, rewards):
        n = len(rewards)
        self.prompts = [[{"role": "user", "content": "p"}]] * n
        self.reward_kwargs = {}
        self.completions = [[{"role": "assistant", "content": "c"}]] * n
        self.completions_ids = [[0]] * n
        self.completions_sequences = [[Sequence()] for _ in range(n)]
        self.tool_call_counts = [0] * n
        self.tool_failure_counts = [0] * n
        self.model_version = 0
        self.group_id = 0
        self.env_rewards = [None] * n
        self.rollout_rewards = [None] * n


class Worker:
    def __init__(self, rewards):
        self.reward_funcs = [lambda completions, **kwargs: list(rewards)]
        self.reward_func_names = ["reward"]
        self._env_reward_types = []
        self._provides_rollout_reward = False


def run_group(rewards):
    samples = asyncio.run(score_group(Worker(rewards), Group(rewards)))
    return [s.advantage for s in samples]


def advantages(rewards, prompt_ids):
    out = [None] * len(rewards)
    groups: dict[int, list[int]] = {}
    for i, p in enumerate(prompt_ids):
        groups.setdefault(p, []).append(i)
    for positions in groups.values():
        for i, a in zip(positions, run_group([rewards[i] for i in positions])):
            out[i] = a
    return out


rng = random.Random(36)
cases = []
hand = [
    ([1.0, 0.0, 1.0, 0.0], [0, 0, 1, 1], 2),
    ([5.0, 5.0, 5.0, 5.0, 1.0, 0.0, 0.0, 0.0], [0, 0, 0, 0, 1, 1, 1, 1], 4),
    ([1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3], 4),
    ([0.3], [7], 1),
    ([1.0, 3.0, 0.0, 2.0], [0, 1, 0, 1], 2),
]
for rewards, ids, k in hand:
    cases.append({"rewards": [float(r) for r in rewards], "promptIds": ids, "k": k})
for _ in range(40):
    k = rng.choice([1, 2, 3, 4, 8])
    prompts = rng.randint(1, 6)
    ids = [p for p in range(prompts) for _ in range(k)]
    if rng.random() < 0.3:
        rng.shuffle(ids)
    if rng.random() < 0.3 and len(ids) > 1:
        ids = ids[: rng.randint(1, len(ids) - 1)]
    kind = rng.random()
    if kind < 0.4:
        rewards = [float(rng.choice([0, 1])) for _ in ids]
    elif kind < 0.7:
        rewards = [rng.uniform(-2, 3) for _ in ids]
    else:
        rewards = [float(rng.choice([0.0, 0.5, 1.0, 5.0])) for _ in ids]
    cases.append({"rewards": rewards, "promptIds": ids, "k": k})
for c in cases:
    c["advantages"] = advantages(c["rewards"], c["promptIds"])

print(
    json.dumps(
        {
            "source": f"trl {md.version('trl')} (wheel) trl/experimental/async_grpo/async_rollout_worker.py "
            "AsyncRolloutWorker._score_group and RolloutSample, exec'd from the installed source with numpy "
            f"{np.__version__} on Python {sys.version.split()[0]}; one RolloutGroup per prompt id",
            "trl": md.version("trl"),
            "cases": cases,
        }
    )
)

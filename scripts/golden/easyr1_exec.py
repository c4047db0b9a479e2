"""Shared by scripts/golden/easyr1_*.py: loads pieces of an EasyR1 checkout (hiyouga/EasyR1) by
reading their source and exec'ing it, without importing the `verl` package (its modules import ray,
vllm, transformers and tensordict at the top).

    from easyr1_exec import EasyR1
    e = EasyR1("/path/to/EasyR1-checkout")

Made with EasyR1 b44b311b669bf1fd1aa2fc36f2251482ba33cb16 under torch 2.13 CPU and torchdata 0.11.
Everything named here is the checkout's own source; only imports are replaced by the names given.
"""
import __future__
import ast
import heapq
import itertools
import os
import subprocess
from collections import defaultdict
from copy import deepcopy
from enum import Enum, IntEnum, auto

import numpy as np
import torch


def commit(checkout):
    return subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()


def exec_nodes(path, pick, extra_globals=None, lazy_annotations=False):
    """Exec the top-level nodes of `path` for which pick(node) is true; returns the namespace."""
    tree = ast.parse(open(path).read())
    nodes = [n for n in tree.body if pick(n)]
    g = {
        "__name__": "easyr1_exec",
        "torch": torch,
        "np": np,
        "heapq": heapq,
        "copy": __import__("copy"),
        "chain": itertools.chain,
        "defaultdict": defaultdict,
        "deepcopy": deepcopy,
        "Enum": Enum,
        "IntEnum": IntEnum,
        "auto": auto,
    }
    g.update(extra_globals or {})
    flags = __future__.annotations.compiler_flag if lazy_annotations else 0
    exec(compile(ast.Module(body=nodes, type_ignores=[]), path, "exec", flags=flags, dont_inherit=True), g)
    return g


def named(*names):
    def pick(n):
        return isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Assign)) and (
            getattr(n, "name", None) in names
            or (isinstance(n, ast.Assign) and any(getattr(t, "id", None) in names for t in n.targets))
        )

    return pick


def not_relative_import(n):
    """Every node except `from .x import y` (the names are injected instead)."""
    return not (isinstance(n, ast.ImportFrom) and n.level > 0)


class EasyR1:
    def __init__(self, checkout):
        self.root = checkout
        self.commit = commit(checkout)

    def path(self, rel):
        return os.path.join(self.root, rel)

    def config_classes(self):
        """verl/trainer/config.py PPOConfig and the worker config dataclasses it nests, exec'd from source."""
        gabs = exec_nodes(self.path("verl/utils/py_functional.py"), named("get_abs_path"), {"os": os}, lazy_annotations=True)
        get_abs_path = gabs["get_abs_path"]
        actor = exec_nodes(self.path("verl/workers/actor/config.py"), not_relative_import)
        critic = exec_nodes(self.path("verl/workers/critic/config.py"), not_relative_import, actor)
        reward = exec_nodes(self.path("verl/workers/reward/config.py"), not_relative_import, {"get_abs_path": get_abs_path})
        rollout = exec_nodes(self.path("verl/workers/rollout/config.py"), not_relative_import)
        names = {**actor, "CriticConfig": critic["CriticConfig"], "RewardConfig": reward["RewardConfig"]}
        names["RolloutConfig"] = rollout["RolloutConfig"]
        workers = exec_nodes(self.path("verl/workers/config.py"), not_relative_import, names)
        trainer = exec_nodes(
            self.path("verl/trainer/config.py"),
            not_relative_import,
            {"get_abs_path": get_abs_path, "WorkerConfig": workers["WorkerConfig"]},
        )
        return trainer

    def seqlen_balancing(self):
        """verl/utils/seqlen_balancing.py: Set, State, karmarkar_karp, get_seqlen_balanced_partitions, rearrange_micro_batches..."""
        return exec_nodes(
            self.path("verl/utils/seqlen_balancing.py"),
            named(
                "Set",
                "State",
                "karmarkar_karp",
                "greedy_partition",
                "get_seqlen_balanced_partitions",
                "log_seqlen_unbalance",
                "ceildiv",
                "rearrange_micro_batches",
                "get_reverse_idx",
            ),
            {"Optional": __import__("typing").Optional, "Tuple": __import__("typing").Tuple, "TensorDict": dict, "dist": torch.distributed},
            lazy_annotations=True,
        )

    def core_algos(self):
        """verl/trainer/core_algos.py: AdvantageEstimator, the registry and every registered estimator."""
        return exec_nodes(
            self.path("verl/trainer/core_algos.py"),
            lambda n: isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AnnAssign, ast.Assign)),
            {"Any": object, "Literal": None, "TYPE_CHECKING": False, "ABC": object, "abstractmethod": lambda f: f, "VF": None, "F": None},
            lazy_annotations=True,
        )

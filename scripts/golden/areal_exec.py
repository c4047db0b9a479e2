"""Loads AReaL's own pure functions from a checkout without importing the `areal` package.

Used by scripts/golden/areal_*.py (not run on its own). The `areal` package's __init__ pulls ray,
sglang, transformers and uvloop, so each needed file is parsed with `ast` and its top-level
definitions are exec'd in a namespace holding torch/numpy and stand-ins for the imports named below.
Stand-ins (none of them computes anything the fixtures record):
- numba: `numba.njit` is the identity (numba is not installed in the golden venv; it only decorates
  seqpack.partition_balanced, which no fixture uses; the allocators are plain numpy/bisect/heapq);
- areal.utils.logging: Python's logging; areal.infra.platforms.current_platform: unused here;
- einops.rearrange: unused by the functions exercised;
- torch.distributed inside areal/utils/data.py: `FakeDist` below, whose all_gather_object is a
  barrier exchange between threads that each play one data-parallel rank.
"""
import ast
import bisect
import copy
import dataclasses
import heapq
import itertools
import logging
import math
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import torch

SKIP_IMPORTS = ("areal", "einops", "numba", "uvloop", "hydra", "omegaconf", "datasets", "torch.distributed")


def commit_of(checkout):
    return subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()


def _base_globals(extra):
    numba = types.SimpleNamespace(njit=lambda f=None, **kw: f if f is not None else (lambda g: g))
    g = {
        "__name__": "areal_exec", "torch": torch, "np": np, "numpy": np, "bisect": bisect, "heapq": heapq,
        "itertools": itertools, "math": math, "time": time, "copy": copy, "numba": numba, "logging": logging,
        "dataclass": dataclass, "field": field, "dataclasses": dataclasses, "Any": Any, "Callable": Callable,
        "Iterator": Iterator, "Sequence": Sequence, "NamedTuple": NamedTuple,
    }
    g.update(extra or {})
    return g


def _skipped(node):
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").startswith(SKIP_IMPORTS) or node.level > 0
    if isinstance(node, ast.Import):
        return any(a.name.startswith(SKIP_IMPORTS) for a in node.names)
    if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
        return True
    return False


def exec_file(path, names=None, extra=None, cls=None):
    """Exec a checkout file's top-level nodes (all, or only the defs/classes in `names`); returns the namespace.
    With `cls`, the named methods of that class are exec'd as plain functions."""
    tree = ast.parse(open(path).read())
    body = tree.body
    if cls is not None:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
        body = [n for n in body if isinstance(n, ast.FunctionDef) and n.name in names]
        for n in body:
            n.decorator_list = []  # trace_perf / no_grad wrappers: no effect on values
    elif names is not None:
        body = [n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
        missing = set(names) - {n.name for n in body}
        if missing:
            raise SystemExit(f"{path}: no {sorted(missing)}")
    else:
        body = [n for n in body if not _skipped(n)]
    g = _base_globals(extra)
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), g)
    return g


class _Barrier:
    """A cyclic barrier whose abort only breaks threads still waiting (threading.Barrier may also break a thread that
    was already released, which made the failing rank depend on thread timing)."""

    def __init__(self, parties):
        self.parties, self.count, self.generation, self.broken = parties, 0, 0, False
        self.cond = threading.Condition()

    def wait(self):
        with self.cond:
            if self.broken:
                raise threading.BrokenBarrierError
            gen = self.generation
            self.count += 1
            if self.count == self.parties:
                self.count, self.generation = 0, gen + 1
                self.cond.notify_all()
                return
            self.cond.wait_for(lambda: self.generation != gen or self.broken)
            if self.generation == gen:
                raise threading.BrokenBarrierError

    def abort(self):
        with self.cond:
            self.broken = True
            self.cond.notify_all()


class FakeDist:
    """torch.distributed for threads that each play one rank (see module docstring)."""

    ProcessGroup = object
    ReduceOp = types.SimpleNamespace(SUM="sum")

    def __init__(self):
        self.initialized = False
        self.world = 1
        self.local = threading.local()
        self.barrier = None
        self.slots = None

    def is_initialized(self):
        return self.initialized

    def get_world_size(self, group=None):
        return self.world

    def get_rank(self, group=None):
        return getattr(self.local, "rank", 0)

    def all_gather_object(self, out, obj, group=None):
        self.slots[self.get_rank()] = obj
        self.barrier.wait()
        out[:] = list(self.slots)
        self.barrier.wait()

    def run_ranks(self, world, fn):
        """fn(rank) on `world` threads at once; returns their results by rank, or raises the error of the lowest rank
        that failed (every rank that reaches a failing allocation raises; the others then find the barrier broken)."""
        self.initialized, self.world = True, world
        self.barrier, self.slots = _Barrier(world), [None] * world
        results, errors = [None] * world, [None] * world

        def body(r):
            self.local.rank = r
            try:
                results[r] = fn(r)
            except BaseException as e:  # noqa: BLE001
                errors[r] = e
                self.barrier.abort()

        threads = [threading.Thread(target=body, args=(r,)) for r in range(world)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.initialized = False
        first = next((e for e in errors if e is not None and not isinstance(e, threading.BrokenBarrierError)), None)
        if first is not None:
            raise first
        return results


def load_areal(checkout):
    """seqpack, the two config dataclasses, areal/utils/data.py and the dispatch functions, exec'd from `checkout`."""
    sp = exec_file(f"{checkout}/areal/utils/seqpack.py")
    seqpack = types.SimpleNamespace(**{k: v for k, v in sp.items() if not k.startswith("__")})
    cfg = exec_file(f"{checkout}/areal/api/cli_args.py", names=["NormConfig", "MicroBatchSpec"],
                    extra={"PACKING_ALGORITHMS": sp["PACKING_ALGORITHMS"]})
    fake = FakeDist()
    mathmod = exec_file(f"{checkout}/areal/utils/math.py", names=["align"]) if _has(f"{checkout}/areal/utils/math.py", "align") else {}
    data = exec_file(f"{checkout}/areal/utils/data.py", extra={
        "MicroBatchSpec": cfg["MicroBatchSpec"], "NormConfig": cfg["NormConfig"], "seqpack": seqpack,
        "get_allocate_fn": sp["get_allocate_fn"], "current_platform": None, "align": mathmod.get("align"),
        "rearrange": None, "F": torch.nn.functional, "dist": fake,
        "StatefulDataLoader": __import__("torchdata.stateful_dataloader", fromlist=["StatefulDataLoader"]).StatefulDataLoader,
    })
    return types.SimpleNamespace(seqpack=sp, cfg=cfg, data=data, dist=fake)


def _has(path, name):
    try:
        return any(isinstance(n, ast.FunctionDef) and n.name == name for n in ast.parse(open(path).read()).body)
    except FileNotFoundError:
        return False


def versions():
    import torchdata
    return {"torch": torch.__version__, "torchdata": torchdata.__version__, "numpy": np.__version__,
            "python": sys.version.split()[0]}

"""Writes test/fixtures/golden-trl-async-steps.json: TRL async GRPO's optimizer steps and each token's weight, by autograd.

    /work/golden-venv/bin/python scripts/golden/trl_async_steps.py [TRL_PACKAGE_DIR] > test/fixtures/golden-trl-async-steps.json

TRL_PACKAGE_DIR defaults to the installed trl (the 1.13.0 wheel, the version `steps --framework trl-async` pins); the
version and the sha256 of the file read are recorded in the fixture. Needs torch and numpy (CPU), not transformers or
accelerate: trl/experimental/async_grpo/async_grpo_trainer.py imports them at its top, so the script does not import
it. It parses the file with ast and execs, as TRL wrote them:
- TokenBudgetBatcher and FixedCountBatcher (with _balance_by_squared_length), on a stand-in RolloutQueueDataset that
  yields the case's samples in order and logs which one each pull took: a step is gradient_accumulation_steps yielded
  micro-batches, and spans the samples pulled while they filled (dropped ones included);
- DataCollatorForRollout.torch_call on each micro-batch (pad from trl/trainer/utils.py), then row r as
  DataLoaderDispatcher hands it to rank r (every tensor sliced [r:r+1] on dim 0);
- AsyncGRPOTrainer.compute_loss, unbound, on a stand-in self (epsilon 0.2, num_processes W,
  current_gradient_accumulation_steps GA, an accelerator whose reduce/gather serve the logged metrics only) and a
  stand-in model whose log_probs are a float64 leaf equal to old_log_probs (ratio 1, inside the clip), with advantage
  −1 on every sample, so d per_token_loss / d log_probs = 1 and d loss / d log_probs is each token's weight on its rank.
Transcribed (named, because they need transformers' Trainer and torch.distributed): gradient_accumulation_steps
micro-batches per optimizer step, Trainer.training_step not dividing again (compute_loss_func is set), and DDP's mean
of the gradients over the W ranks (each weight ÷ W).
Samples are a prompt (completion_mask 0) of at least one token, then a completion (mask 1).
"""

import ast
import collections
import dataclasses
import hashlib
import importlib.metadata
import importlib.util
import json
import math
import random
import sys
import time
import types
from pathlib import Path
from typing import Any

import numpy as np
import torch

TRAINER = "experimental/async_grpo/async_grpo_trainer.py"
UTILS = "trainer/utils.py"


class RecordingLogger:
    def __init__(self):
        self.warnings = []

    def warning(self, message):
        self.warnings.append(message)

    def info(self, message):
        pass


def top_level(source: str, names: set[str]):
    tree = ast.parse(source)
    nodes = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    assert {n.name for n in nodes} == names, [n.name for n in nodes]
    return nodes


def load(package: Path):
    trainer_src = (package / TRAINER).read_text()
    utils_src = (package / UTILS).read_text()
    logger = RecordingLogger()
    iterable = types.SimpleNamespace(IterableDataset=object)
    fake_torch = types.SimpleNamespace(**{k: getattr(torch, k) for k in dir(torch) if not k.startswith("__")})
    fake_torch.utils = types.SimpleNamespace(data=iterable)
    g: dict[str, Any] = {
        "Any": Any, "math": math, "np": np, "time": time, "logger": logger, "dataclass": dataclasses.dataclass,
        "field": dataclasses.field, "defaultdict": collections.defaultdict, "DataCollatorMixin": object,
        "__name__": "trl_async_steps_exec",
    }
    ns_utils: dict[str, Any] = {"torch": torch, "np": np}
    exec(compile(ast.Module(body=top_level(utils_src, {"pad", "nanmin", "nanmax"}), type_ignores=[]), str(package / UTILS), "exec"), ns_utils)
    g.update({k: ns_utils[k] for k in ("pad", "nanmin", "nanmax")})
    wanted = {"_balance_by_squared_length", "FixedCountBatcher", "TokenBudgetBatcher", "DataCollatorForRollout"}
    # The planners subclass torch.utils.data.IterableDataset: a plain object stands in (the rest of torch is torch).
    g["torch"] = fake_torch
    exec(compile(ast.Module(body=top_level(trainer_src, wanted), type_ignores=[]), str(package / TRAINER), "exec"), g)
    (trainer_class,) = top_level(trainer_src, {"AsyncGRPOTrainer"})
    (compute_loss,) = [n for n in trainer_class.body if isinstance(n, ast.FunctionDef) and n.name == "compute_loss"]
    g["torch"] = torch
    exec(compile(ast.Module(body=[compute_loss], type_ignores=[]), str(package / TRAINER), "exec"), g)
    digest = hashlib.sha256(trainer_src.encode()).hexdigest()
    return g, logger, digest


class Accelerator:
    """Only what compute_loss asks of it: num_processes, and reduce/gather for the metrics it logs."""

    def __init__(self, num_processes):
        self.num_processes = num_processes

    def reduce(self, tensor, reduction="sum"):
        return tensor

    def gather(self, tensor):
        return tensor.reshape(1)


class Model:
    """Returns log_probs as a float64 leaf equal to old_log_probs (0): the ratio is 1."""

    def __init__(self):
        self.leaf = None

    def __call__(self, input_ids, position_ids, labels, completion_mask, use_cache):
        n = input_ids.shape[1] - 1
        self.leaf = torch.zeros((1, n), dtype=torch.float64, requires_grad=True)
        return {"log_probs": self.leaf, "entropy": torch.zeros((1, n), dtype=torch.float64)}


def trainer_self(num_processes, ga):
    return types.SimpleNamespace(
        epsilon_low=0.2, epsilon_high=0.2, accelerator=Accelerator(num_processes), current_gradient_accumulation_steps=ga,
        aux_loss_enabled=False, _metrics={"train": collections.defaultdict(list)}, _step_forward_tokens=0.0,
        _step_trained_tokens=0.0, _step_seq_len_weighted=0.0, _step_samples=0.0, _step_forward_s=0.0,
        _last_forward_time_s=0.0,
    )


def sample(i, prompt, completion):
    n = prompt + completion
    return {
        "input_ids": [100 + i] * n, "completion_mask": [0] * prompt + [1] * completion, "old_log_probs": [0.0] * n,
        "advantage": -1.0, "group_id": i, "metrics": {}, "index": i,
    }


def run_case(g, logger, case):
    W, GA = case["numProcesses"], case["gradientAccumulationSteps"]
    samples = [sample(i, p, c) for i, (p, c) in enumerate(zip(case["prompts"], case["completions"]))]
    pulled = []

    def stream():
        for s in samples:
            pulled.append(s["index"])
            yield s

    logger.warnings.clear()
    budget = case["tokenBudget"]
    if budget > 0:
        batcher = g["TokenBudgetBatcher"](stream(), W, budget, collections.defaultdict(list))
    else:
        batcher = g["FixedCountBatcher"](stream(), W, case["perDeviceTrainBatchSize"] * W)
    collator = g["DataCollatorForRollout"](pad_token_id=0, num_processes=W, token_budget=max(budget, 0))
    micro, boundaries = [], []
    for rows in batcher:
        micro.append(rows)
        # TokenBudgetBatcher yields when the sample just pulled fits no row (it opens the next micro-batch);
        # FixedCountBatcher right after pulling the micro-batch's last sample.
        boundaries.append(pulled[-1] if budget > 0 else pulled[-1] + 1)
    steps = []
    start = 0
    for j in range(len(micro) // GA):
        end = boundaries[(j + 1) * GA - 1]
        out_mbs = []
        for rows in micro[j * GA:(j + 1) * GA]:
            batch = collator.torch_call([rows])
            width = batch["input_ids"].shape[1]
            out_rows = []
            for r in range(W):
                inputs = {k: v[r:r + 1] for k, v in batch.items()}
                model = Model()
                loss = g["compute_loss"](trainer_self(W, GA), model, inputs)
                loss.backward()
                grad = model.leaf.grad[0].tolist()  # grad[t]: token t + 1 of the stripped row
                weights, at = [], 0
                for e in rows[r]:
                    mask = e["completion_mask"]
                    got = {grad[at + t - 1] for t, m in enumerate(mask) if m and at + t >= 1}
                    assert len(got) == 1, got  # every trained token of a sample weighs the same
                    weights.append(got.pop() / W)  # DDP's mean over the W ranks (transcribed)
                    at += len(mask)
                out_rows.append({"samples": [e["index"] for e in rows[r]], "weights": weights})
            out_mbs.append({"width": width, "globalNTokens": float(batch["global_n_tokens"][0]), "rows": out_rows})
        steps.append({"from": start, "to": end, "microBatches": out_mbs})
        start = end
    dropped = [i for i in range(len(samples)) if i not in {e["index"] for rows in micro for row in rows for e in row}]
    dropped = [i for i in dropped if i < start]
    warned = len([w for w in logger.warnings if "exceeds token_budget" in w])
    return {"steps": steps, "dropped": dropped, "warnings": warned}


def cases():
    rng = random.Random(6092)
    out = []
    for c in range(40):
        W = [1, 2, 3, 4, 8][c % 5]
        GA = [1, 2, 3, 4][c % 4]
        G = [1, 2, 4, 8][(c // 4) % 4]
        groups = -(-rng.choice([48, 128, 320]) // G)
        n = groups * G
        shape = c % 3
        prompts = [rng.randint(1, 300) for _ in range(n)]
        if shape == 0:
            completions = [rng.randint(1, 512) for _ in range(n)]
        elif shape == 1:
            completions = [rng.choice([64, 128, 512, 1500]) for _ in range(n)]
        else:
            completions = [rng.randint(1, 2048) for _ in range(n)]
        budget = [1024, 2048, 4096, 1800, 0, -1, 8192, 1500][c % 8]
        out.append({
            "numProcesses": W, "gradientAccumulationSteps": GA, "numGenerations": G,
            "perDeviceTrainBatchSize": rng.choice([1, 2, 3]), "tokenBudget": budget,
            "prompts": prompts, "completions": completions,
        })
    return out


def main():
    if len(sys.argv) > 1:
        package = Path(sys.argv[1])
        version = "from " + str(package)
    else:
        package = Path(importlib.util.find_spec("trl").origin).parent
        version = "trl " + importlib.metadata.version("trl")
    g, logger, digest = load(package)
    results = []
    for case in cases():
        got = run_case(g, logger, case)
        assert got["warnings"] >= len(got["dropped"]), got
        results.append({**case, "steps": got["steps"], "dropped": got["dropped"]})
    json.dump(
        {
            "source": f"{version} {TRAINER} (sha256 {digest}): TokenBudgetBatcher, FixedCountBatcher, "
            "DataCollatorForRollout.torch_call and AsyncGRPOTrainer.compute_loss exec'd, d loss / d log_probs by torch "
            f"{torch.__version__} autograd; GA micro-batches a step and DDP's mean (÷ W) transcribed",
            "version": version,
            "sha256": digest,
            "cases": results,
        },
        sys.stdout,
        indent=None,
        separators=(",", ":"),
    )
    sys.stdout.write("\n")


main()

"""Writes test/fixtures/golden-skyrl-layout.json by running SkyRL's own data-path code from a checkout.

    /work/golden-venv/bin/python scripts/golden/skyrl_layout.py /path/to/SkyRL-checkout [out.json]

Made with NovaSky-AI/SkyRL a9564572eb8e91076be43c1bd5e4615e3de17265 (the checkout's commit is recorded
in the fixture), torch 2.13 CPU and torchdata 0.11 (StatefulDataLoader). CI never runs this: the JSON
is committed and the TypeScript tests read it.

What runs as SkyRL's code (source read from the checkout and exec'd; the skyrl package is not
imported, since it pulls ray, vllm and jaxtyping):
- skyrl/train/utils/trainer_utils.py build_dataloader (the real StatefulDataLoader construction:
  shuffle=True, drop_last=True, generator seeded with trainer.seed, num_workers, persistent_workers,
  spawn context) over a stand-in dataset whose items are (index, None, {}, str(index)), as
  PromptDataset.__getitem__ returns (uid = str(index)); PromptDataset.collate_fn (skyrl/train/dataset/
  dataset.py) is applied to each batch in this process (the loader's own collate returns the list);
- skyrl/train/trainer.py RayPPOTrainer._build_train_dataloader_and_compute_training_steps and
  _remove_tail_data (stand-in `self`: cfg, train_dataset, dispatch.get_lcm_dp_size());
- skyrl/train/generators/utils.py prepare_generator_input (TrajectoryID / BatchMetadata stand-ins);
- skyrl/train/dataset/preprocess.py compute_prompt_mini_batch_boundaries;
- skyrl/backends/skyrl_train/training_batch.py (the whole module: TensorBatch, TrainingInputBatch,
  pad_training_input_batch) and skyrl/backends/skyrl_train/distributed/dispatch.py (the whole module,
  MeshDispatch.stage_chunks) with ray.put = identity;
- the convert_to_training_input padding statement of trainer.py (pad to a multiple of lcm dp size);
- skyrl/train/utils/utils.py validate_batch_sizes, the max_training_steps check of validate_cfg,
  DataLoaderConfig.__post_init__ and the persistent_workers check of SkyRLTrainConfig.__post_init__
  (skyrl/train/config/config.py), for the error cases.
Transcribed: the epoch loop (for epoch in range(epochs): for batch in train_dataloader) and its stop
once global_step > max_training_steps (RayPPOTrainer.train, async and GPU-bound); policy dp size =
policy_num_nodes * policy_num_gpus_per_node // policy.sequence_parallel_size and ref likewise
(validate_batch_sizes, fsdp strategy), lcm over policy and ref when use_kl_loss or use_kl_in_reward
(WorkerDispatch.get_lcm_dp_size; no critic, since GRPO).
"""
import ast
import copy
import json
import math
import os
import subprocess
import sys
import traceback
from collections import defaultdict
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Dict, Generic, List, Optional, Tuple, Type, TypedDict, TypeVar

import numpy as np
import torch
from torchdata.stateful_dataloader import StatefulDataLoader


class StandInDataset(torch.utils.data.Dataset):
    """PromptDataset's shape: item i is (messages, env_class, extra, uid=str(i)); messages = i here."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, item):
        return item, None, {}, str(item)

    def collate_fn(self, item_list):
        return list(item_list)


def tree_of(path):
    return ast.parse(open(path).read()), path


def exec_nodes(nodes, path, g):
    exec(compile(ast.Module(body=nodes, type_ignores=[]), path, "exec"), g)
    return g


def pick(tree, names, cls=None):
    body = tree.body
    if cls is not None:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    found = [n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name in names]
    missing = set(names) - {n.name for n in found}
    if missing:
        raise SystemExit(f"no {sorted(missing)}")
    return found


def statements_mentioning(func_node, text, src):
    """Top-level statements of a function whose source contains `text` (exec'd as they are)."""
    return [s for s in func_node.body if text in ast.get_source_segment(src, s)]


class Logger:
    def info(self, *a, **k):
        pass

    warning = info


def load(checkout):
    p = lambda rel: os.path.join(checkout, rel)  # noqa: E731
    base = {"torch": torch, "np": np, "math": math, "copy": copy, "logger": Logger(), "Any": Any, "List": List,
            "Dict": Dict, "Optional": Optional, "Tuple": Tuple, "Type": Type, "TypedDict": TypedDict,
            "Generic": Generic, "TypeVar": TypeVar, "defaultdict": defaultdict, "dataclass": dataclass,
            "__name__": "skyrl_exec"}

    # training_batch.py: whole module minus its imports (jaxtyping annotations become Any).
    class _J:
        def __class_getitem__(cls, k):
            return Any

    tree, path = tree_of(p("skyrl/backends/skyrl_train/training_batch.py"))
    nodes = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))]
    import io, pickle  # noqa: E401
    tb = exec_nodes(nodes, path, dict(base, io=io, pickle=pickle, Float=_J, Integer=_J, Bool=_J,
                                        make_replay_padding_indices=None))

    # dispatch.py: whole module, ray stood in (put = identity).
    tree, path = tree_of(p("skyrl/backends/skyrl_train/distributed/dispatch.py"))
    nodes = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))]
    ray = SimpleNamespace(put=lambda x: x)
    from abc import ABC, abstractmethod
    from dataclasses import field
    dp = exec_nodes(nodes, path, dict(base, ray=ray, ObjectRef=Any, ActorHandle=Any, ABC=ABC,
                                        abstractmethod=abstractmethod, field=field,
                                        TrainingInputBatch=tb["TrainingInputBatch"],
                                        TrainingOutputBatch=tb["TrainingOutputBatch"],
                                        pad_training_input_batch=tb["pad_training_input_batch"]))

    tree, path = tree_of(p("skyrl/train/utils/trainer_utils.py"))
    tu = exec_nodes(pick(tree, ["build_dataloader"]), path,
                    dict(base, StatefulDataLoader=StatefulDataLoader, SkyRLTrainConfig=Any, PromptDataset=Any))

    src = open(p("skyrl/train/trainer.py")).read()
    tree = ast.parse(src)
    methods = exec_nodes(pick(tree, ["_remove_tail_data", "_build_train_dataloader_and_compute_training_steps"],
                              cls="RayPPOTrainer"), p("skyrl/train/trainer.py"),
                         dict(base, build_dataloader=tu["build_dataloader"]))
    conv = next(n for n in next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RayPPOTrainer").body
                if isinstance(n, ast.FunctionDef) and n.name == "convert_to_training_input")
    pad_stmts = statements_mentioning(conv, "dp_size", src)

    tree, path = tree_of(p("skyrl/train/generators/utils.py"))
    gu = exec_nodes(pick(tree, ["prepare_generator_input"]), path,
                    dict(base, TrajectoryID=lambda **k: SimpleNamespace(**k), BatchMetadata=lambda **k: dict(k),
                         GeneratorInput=Any, TrainingPhase=Any))

    tree, path = tree_of(p("skyrl/train/dataset/preprocess.py"))
    pp = exec_nodes(pick(tree, ["compute_prompt_mini_batch_boundaries"]), path, dict(base))

    tree, path = tree_of(p("skyrl/train/dataset/dataset.py"))
    ds = exec_nodes(pick(tree, ["collate_fn"], cls="PromptDataset"), path, dict(base))

    usrc = open(p("skyrl/train/utils/utils.py")).read()
    tree = ast.parse(usrc)
    ut = exec_nodes(pick(tree, ["validate_batch_sizes"]), p("skyrl/train/utils/utils.py"), dict(base, SkyRLTrainConfig=Any))
    vcfg = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "validate_cfg")
    max_steps_check = statements_mentioning(vcfg, "max_training_steps must be", usrc)
    max_steps_check += statements_mentioning(vcfg, "mutually exclusive", usrc)

    csrc = open(p("skyrl/train/config/config.py")).read()
    ctree = ast.parse(csrc)
    dl_post = pick(ctree, ["__post_init__"], cls="DataLoaderConfig")
    root_post = pick(ctree, ["__post_init__"], cls="SkyRLTrainConfig")[0]
    workers_checks = statements_mentioning(root_post, "num_workers", csrc)
    return dict(tb=tb, MeshDispatch=dp["MeshDispatch"], build_dataloader=tu["build_dataloader"], methods=methods,
                pad_stmts=pad_stmts, prepare_generator_input=gu["prepare_generator_input"],
                boundaries=pp["compute_prompt_mini_batch_boundaries"], collate=ds["collate_fn"],
                validate_batch_sizes=ut["validate_batch_sizes"], max_steps_check=max_steps_check,
                dl_post=dl_post, workers_checks=workers_checks, paths=dict(utils=p("skyrl/train/utils/utils.py"),
                                                                           config=p("skyrl/train/config/config.py"),
                                                                           trainer=p("skyrl/train/trainer.py"),
                                                                           preprocess=p("skyrl/train/dataset/preprocess.py")))


def make_cfg(s):
    ns = SimpleNamespace
    return ns(
        trainer=ns(train_batch_size=s["train_batch_size"], eval_batch_size=1, seed=s["seed"], epochs=s["epochs"],
                   max_training_steps=s.get("max_training_steps"), policy_mini_batch_size=s["policy_mini_batch_size"],
                   critic_mini_batch_size=256, micro_train_batch_size_per_gpu=s.get("micro_train_batch_size_per_gpu", 1),
                   micro_forward_batch_size_per_gpu=1, strategy="fsdp",
                   placement=ns(policy_num_nodes=s.get("policy_num_nodes", 1),
                                policy_num_gpus_per_node=s["policy_num_gpus_per_node"],
                                ref_num_nodes=s.get("ref_num_nodes", 1),
                                ref_num_gpus_per_node=s.get("ref_num_gpus_per_node", 1),
                                critic_num_nodes=1, critic_num_gpus_per_node=1),
                   policy=ns(sequence_parallel_size=s.get("policy_sequence_parallel_size", 1)),
                   ref=ns(sequence_parallel_size=s.get("ref_sequence_parallel_size", 1)),
                   critic=ns(model=ns(path=None), sequence_parallel_size=1),
                   algorithm=ns(use_kl_loss=s.get("use_kl_loss", True), use_kl_in_reward=s.get("use_kl_in_reward", False))),
        generator=ns(n_samples_per_prompt=s["n_samples_per_prompt"]),
        data=ns(dataloader=ns(num_workers=s["num_workers"], persistent_workers=s.get("persistent_workers", False))),
    )


def dp_sizes(cfg):
    t = cfg.trainer
    policy = t.placement.policy_num_nodes * t.placement.policy_num_gpus_per_node // t.policy.sequence_parallel_size
    lcm = policy
    if t.algorithm.use_kl_loss or t.algorithm.use_kl_in_reward:
        ref = t.placement.ref_num_nodes * t.placement.ref_num_gpus_per_node // t.ref.sequence_parallel_size
        lcm = math.lcm(lcm, ref)
    return policy, lcm


def failing_assert(exc, path):
    """The source of the statement that raised (for asserts without a message)."""
    src = open(path).read()
    tb = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    line = tb[-1].lineno if tb else None
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Assert, ast.Raise)) and node.lineno <= line <= node.end_lineno:
            return ast.get_source_segment(src, node)
    return None


def validate(L, cfg):
    """SkyRL's config checks for these settings (completing cfg as __post_init__ does): None, or the exception."""
    path = None
    try:
        path = L["paths"]["config"]
        self = SimpleNamespace(num_workers=cfg.data.dataloader.num_workers)
        g = {"self": self}
        exec(compile(ast.Module(body=L["dl_post"][0].body, type_ignores=[]), path, "exec"), g)
        g = {"self": cfg}
        exec(compile(ast.Module(body=L["workers_checks"], type_ignores=[]), path, "exec"), g)
        path = L["paths"]["utils"]
        exec(compile(ast.Module(body=L["max_steps_check"], type_ignores=[]), path, "exec"), {"cfg": cfg})
        L["validate_batch_sizes"](cfg)
    except (AssertionError, ValueError, ZeroDivisionError) as e:
        return {"type": type(e).__name__, "message": str(e), "statement": failing_assert(e, path)}
    return None


def run_case(L, s):
    cfg = make_cfg(s)
    err = validate(L, cfg)
    out = {"settings": s, "error": err}
    if err is not None:
        return out
    policy_dp, lcm_dp = dp_sizes(cfg)
    dispatch = SimpleNamespace(get_lcm_dp_size=lambda: lcm_dp)
    trainer = SimpleNamespace(cfg=cfg, train_dataset=StandInDataset(s["dataset_size"]), dispatch=dispatch)
    L["methods"]["_build_train_dataloader_and_compute_training_steps"](trainer)
    loader = trainer.train_dataloader
    out["len_dataloader"] = len(loader)
    out["total_training_steps"] = trainer.total_training_steps
    n = cfg.generator.n_samples_per_prompt
    steps = []
    global_step = 1
    TIB = L["tb"]["TrainingInputBatch"]
    for epoch in range(cfg.trainer.epochs):
        stop = False
        for i, raw in enumerate(loader):
            batch = L["collate"](None, raw)
            rand_prompts = L["methods"]["_remove_tail_data"](trainer, batch)
            _, uids = L["prepare_generator_input"](rand_prompts, n, {}, "env", "train", global_step)
            step = {"epoch": epoch, "step": i, "drawn": [b["prompt"] for b in batch],
                    "prompts": [b["prompt"] for b in rand_prompts]}
            try:
                bounds = L["boundaries"](uids, cfg.trainer.policy_mini_batch_size, cfg.trainer.train_batch_size, False, n)
            except AssertionError as e:
                step["error"] = {"type": "AssertionError", "message": str(e),
                                 "statement": failing_assert(e, L["paths"]["preprocess"])}
                steps.append(step)
                stop = True
                break
            data = TIB({"sample": torch.arange(len(uids)), "loss_mask": torch.ones(len(uids), 1, dtype=torch.long)})
            g = {"training_input": data, "self": SimpleNamespace(dispatch=dispatch), "math": math,
                 "pad_training_input_batch": L["tb"]["pad_training_input_batch"], "logger": Logger()}
            exec(compile(ast.Module(body=L["pad_stmts"], type_ignores=[]), "trainer.py", "exec"), g)
            data = g["training_input"]
            staged = L["MeshDispatch"].stage_chunks(policy_dp, data, bounds)
            ranks = [[] for _ in range(policy_dp)]
            pads = [[] for _ in range(policy_dp)]
            for mb in staged:
                assert len(mb) == policy_dp
                for r, chunk in enumerate(mb):
                    mask = chunk["loss_mask"][:, 0].tolist()
                    samples = chunk["sample"].tolist()
                    ranks[r].append([x for x, m in zip(samples, mask) if m == 1])
                    pads[r].append(sum(1 for m in mask if m == 0))
            step.update({"boundaries": bounds, "sources": ranks, "padding": pads, "batch_padded": len(data)})
            steps.append(step)
            global_step += 1
            if cfg.trainer.max_training_steps is not None and global_step > cfg.trainer.max_training_steps:
                stop = True
                break
        if stop:
            break
    out["steps"] = steps
    return out


def cases():
    out = []
    # Prompt order: many seeds, sizes, workers, epochs (small batches to keep the fixture small).
    for seed in [42, 0, 1, 7, 123456789, 2**40 + 3]:
        for nw in [0, 1, 2]:
            for (size, tbs, epochs) in [(10, 3, 3), (37, 5, 2), (64, 8, 2)]:
                out.append(dict(seed=seed, num_workers=nw, dataset_size=size, train_batch_size=tbs, epochs=epochs,
                                policy_mini_batch_size=1, n_samples_per_prompt=1, policy_num_gpus_per_node=1))
    out.append(dict(seed=42, num_workers=None, dataset_size=20, train_batch_size=4, epochs=2,
                    policy_mini_batch_size=2, n_samples_per_prompt=5, policy_num_gpus_per_node=2))
    out.append(dict(seed=5, num_workers=2, persistent_workers=True, dataset_size=23, train_batch_size=4, epochs=3,
                    policy_mini_batch_size=2, n_samples_per_prompt=2, policy_num_gpus_per_node=2))
    for (seed, nw, size, tbs) in [(3, 1, 17, 3), (42, 2, 40, 8), (77, 1, 9, 2)]:
        out.append(dict(seed=seed, num_workers=nw, persistent_workers=True, dataset_size=size, train_batch_size=tbs,
                        epochs=3, policy_mini_batch_size=1, n_samples_per_prompt=1, policy_num_gpus_per_node=1))
    out.append(dict(seed=9, num_workers=0, dataset_size=3000, train_batch_size=1024, epochs=1,
                    policy_mini_batch_size=256, n_samples_per_prompt=1, policy_num_gpus_per_node=4))
    # Dispatch: ranks, mini-batches, k, sequence parallel, ref dp, max_training_steps.
    for (w, tbs, mini, k, extra) in [
        (2, 4, 2, 5, {}), (4, 8, 4, 2, {}), (3, 6, 3, 3, {}), (4, 4, 1, 4, {}), (8, 16, 8, 4, {}),
        (2, 6, 3, 1, {}), (4, 8, 8, 2, {"policy_sequence_parallel_size": 2, "policy_num_gpus_per_node": 8}),
        (2, 8, 4, 3, {"policy_num_nodes": 2}), (3, 6, 2, 2, {"ref_num_gpus_per_node": 2}),
        (2, 4, 2, 3, {"max_training_steps": 3}), (4, 8, 2, 8, {"use_kl_loss": False, "ref_num_gpus_per_node": 3}),
        (2, 3, 3, 1, {"use_kl_loss": False}),
    ]:
        s = dict(seed=11, num_workers=0, dataset_size=30, train_batch_size=tbs, epochs=2,
                 policy_mini_batch_size=mini, n_samples_per_prompt=k, policy_num_gpus_per_node=w)
        s.update(extra)
        out.append(s)
    # Errors.
    base = dict(seed=1, num_workers=0, dataset_size=30, epochs=1, policy_num_gpus_per_node=2)
    for extra in [
        dict(train_batch_size=4, policy_mini_batch_size=8, n_samples_per_prompt=2),
        dict(train_batch_size=6, policy_mini_batch_size=4, n_samples_per_prompt=2),
        dict(train_batch_size=4, policy_mini_batch_size=0, n_samples_per_prompt=2),
        dict(train_batch_size=4, policy_mini_batch_size=2, n_samples_per_prompt=2, micro_train_batch_size_per_gpu=0),
        dict(train_batch_size=4, policy_mini_batch_size=2, n_samples_per_prompt=3, micro_train_batch_size_per_gpu=2),
        dict(train_batch_size=4, policy_mini_batch_size=1, n_samples_per_prompt=1, policy_num_gpus_per_node=4),
        dict(train_batch_size=8, policy_mini_batch_size=4, n_samples_per_prompt=5, policy_num_gpus_per_node=3),
        dict(train_batch_size=1, policy_mini_batch_size=1, n_samples_per_prompt=1, policy_num_gpus_per_node=2,
             use_kl_loss=False),
        dict(train_batch_size=1, policy_mini_batch_size=1, n_samples_per_prompt=1, policy_num_gpus_per_node=1,
             ref_num_gpus_per_node=2),
        dict(train_batch_size=3, policy_mini_batch_size=3, n_samples_per_prompt=1, use_kl_loss=False),
        dict(train_batch_size=4, policy_mini_batch_size=2, n_samples_per_prompt=2, max_training_steps=0),
        dict(train_batch_size=4, policy_mini_batch_size=2, n_samples_per_prompt=2, use_kl_in_reward=True),
        dict(train_batch_size=4, policy_mini_batch_size=2, n_samples_per_prompt=2, policy_sequence_parallel_size=4),
        dict(train_batch_size=4, policy_mini_batch_size=2, n_samples_per_prompt=2, num_workers=-1),
        dict(train_batch_size=4, policy_mini_batch_size=2, n_samples_per_prompt=2, persistent_workers=True),
        dict(train_batch_size=4, policy_mini_batch_size=2, n_samples_per_prompt=2, policy_num_gpus_per_node=3,
             policy_sequence_parallel_size=2),
    ]:
        s = dict(base)
        s.update(extra)
        out.append(s)
    return out


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else "test/fixtures/golden-skyrl-layout.json"
    commit = subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()
    L = load(checkout)
    results = [run_case(L, s) for s in cases()]
    doc = {
        "source": f"NovaSky-AI/SkyRL {commit}: build_dataloader, RayPPOTrainer._remove_tail_data and "
                  "_build_train_dataloader_and_compute_training_steps, prepare_generator_input, "
                  "compute_prompt_mini_batch_boundaries, convert_to_training_input's padding, MeshDispatch.stage_chunks, "
                  "validate_batch_sizes and config checks exec'd from the checkout (torch "
                  f"{torch.__version__}); transcribed: the epoch loop with its max_training_steps stop, the dp sizes "
                  "(nodes * gpus_per_node // sequence_parallel_size, lcm with ref when a KL term is on). "
                  "sources[r][m] = rank r's real samples (generation-order indices) in mini-batch m; "
                  "padding[r][m] = dummy loss_mask=0 entries stage_chunks added there.",
        "commit": commit,
        "cases": results,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(out_path, len(results), "cases", os.path.getsize(out_path), "bytes")


if __name__ == "__main__":
    main()

"""Writes test/fixtures/golden-roll-layout.json by running ROLL's own data-path code from a checkout.

    /work/golden-venv/bin/python scripts/golden/roll_layout.py /path/to/ROLL-checkout [out.json]

Made with alibaba/ROLL 8eb27cc2dc34c4d1310b169d9b86d339004d811a (the checkout's commit is recorded in
the fixture), torch 2.13 CPU, numpy. CI never runs this: the JSON is committed and the TypeScript
tests read it. The roll package itself is not imported (its modules pull ray, transformers, vllm);
each function's or method's source is read from the checkout with `ast` and exec'd.

What runs as ROLL's code:
- roll/distributed/scheduler/generate_scheduler.py DynamicSamplingScheduler.get_next_dataset_item
  (a stand-in `self`: pipeline_config.seed, the dataset as range(N), indices = list(range(N)),
  dataset_epoch 0, no dataloader), called rollout_batch_size times per step with Python's `random`;
- roll/utils/functionals.py get_seqlen_balanced_partitions, log_seqlen_unbalance, batch_balance
  (a stand-in DataProto holding attention_mask and a reorder() that applies the index);
- roll/utils/dynamic_batching.py dynamic_batching_shard (the same stand-in, with slice/[::W]/concat);
- roll/distributed/scheduler/protocol.py DataProto.chunk (stand-in `self`; np.array_split sizes and
  roll/utils/functionals.py divide_by_chunk_size) for the dispatch to data-parallel ranks;
- torch.argsort over the batch's prompt_id (torch.arange, as rlvr_pipeline.py sets it) after balancing;
- roll/utils/functionals.py reward_norm and compute_reinforce_return (advantages, real torch);
- roll/utils/config_utils.py calculate_megatron_dp_size / validate_megatron_batch_size and the
  asserts of the functions above (error texts).
Transcribed (named, because they need Ray/asyncio actors): the rlvr_pipeline.py step order
(generate_output -> prompt_id = arange -> reorder(argsort(prompt_id)) -> batch_balance -> optional
dynamic_batching_shard -> DP_MP_COMPUTE dispatch = DataProto.chunk(dp_size)); that a synchronous step
(async_generation_ratio 0) admits exactly rollout_batch_size prompts whose dataset items are drawn in
prompt-id order, each prompt's k responses committed together; and that the batch lists the groups in
draw order (ROLL lists them in completion order, which depends on generation timing).
The synthetic token counts are the sandbox's convention, drawn with real torch:
torch.randint(64, 1025, (rollout_batch_size * k,), generator=torch.Generator().manual_seed(seed)),
one generator for the run, one draw per step.
"""
import ast
import heapq
import json
import random
import subprocess
import sys
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import torch

SEQLEN_LOW, SEQLEN_HIGH = 64, 1025


class _Logger:
    def info(self, *a, **k):
        pass

    warning = debug = info


def load(path, names, cls=None, extra=None):
    """Exec the named top-level functions (or methods of class `cls`) of a checkout file."""
    tree = ast.parse(open(path).read())
    body = tree.body
    if cls is not None:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    found = [n for n in body if isinstance(n, ast.FunctionDef) and n.name in names]
    missing = set(names) - {n.name for n in found}
    if missing:
        raise SystemExit(f"{path}: no {sorted(missing)}")
    for n in found:
        n.decorator_list = []
    g = {"torch": torch, "np": np, "heapq": heapq, "random": random, "List": List, "Tuple": Tuple, "Union": Union, "Dict": Dict,
         "Optional": Optional, "Any": Any, "TensorDict": object,
         "logger": _Logger(), "bisect": __import__("bisect"), "__name__": "roll_exec"}
    g.update(extra or {})
    exec(compile(ast.Module(body=found, type_ignores=[]), path, "exec"), g)
    return {n: g[n] for n in names}


class Proto:
    """Stand-in DataProto: sample ids, attention_mask rows, reorder/slice/[::step]/concat/len."""

    def __init__(self, ids, seqlens, width=None):
        self.ids = list(ids)
        self.seqlens = list(seqlens)
        width = width or max(self.seqlens)
        self.width = width
        mask = torch.zeros(len(self.ids), width, dtype=torch.int64)
        for i, s in enumerate(self.seqlens):
            mask[i, width - s:] = 1  # ROLL left-pads prompts; the row sum is what counts
        self.batch = {"attention_mask": mask, "prompt_id": torch.arange(len(self.ids))}
        self.meta_info = {}

    def __len__(self):
        return len(self.ids)

    def _take(self, idx):
        p = Proto([self.ids[i] for i in idx], [self.seqlens[i] for i in idx], self.width)
        p.batch["prompt_id"] = self.batch["prompt_id"][torch.tensor(idx, dtype=torch.int64)] if idx else torch.zeros(0)
        p.meta_info = dict(self.meta_info)
        return p

    def reorder(self, indices):
        idx = indices.view(-1).tolist()
        q = self._take(idx)
        self.ids, self.seqlens, self.batch = q.ids, q.seqlens, q.batch

    def slice(self, start=None, end=None, step=None):
        return self._take(list(range(len(self)))[slice(start, end, step)])

    def __getitem__(self, item):
        assert isinstance(item, slice)
        return self.slice(item.start, item.stop, item.step)

    @staticmethod
    def concat(parts):
        ids = [i for p in parts for i in p.ids]
        lens = [s for p in parts for s in p.seqlens]
        out = Proto(ids, lens, parts[0].width)
        out.batch["prompt_id"] = torch.cat([p.batch["prompt_id"] for p in parts])
        return out


def commit(checkout):
    return subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()


def err_text(fn):
    try:
        fn()
    except (AssertionError, ValueError) as e:
        return f"{type(e).__name__}: {e}"
    return None


def _reshape_error(reward_norm):
    try:
        reward_norm(torch.zeros(6), n_sample=4, running_ctrl={}, norm_mean_type="group", norm_std_type="group")
    except RuntimeError as e:
        return str(e)
    return None


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else "test/fixtures/golden-roll-layout.json"
    gs = f"{checkout}/roll/distributed/scheduler/generate_scheduler.py"
    fx = f"{checkout}/roll/utils/functionals.py"
    db = f"{checkout}/roll/utils/dynamic_batching.py"
    pr = f"{checkout}/roll/distributed/scheduler/protocol.py"
    cu = f"{checkout}/roll/utils/config_utils.py"

    get_next = load(gs, ["get_next_dataset_item"], cls="DynamicSamplingScheduler")["get_next_dataset_item"]
    fns = load(fx, ["get_seqlen_balanced_partitions", "log_seqlen_unbalance", "batch_balance",
                    "divide_by_chunk_size", "reward_norm", "compute_reinforce_return"], extra={"DataProto": Proto})
    shard = load(db, ["dynamic_batching_shard"], extra={"DataProto": Proto})["dynamic_batching_shard"]
    proto_m = load(pr, ["chunk", "make_iterator"], cls="DataProto")
    cfg = load(cu, ["calculate_megatron_dp_size", "validate_megatron_batch_size"])

    def chunk_sizes(n, w):
        # DataProto.chunk's sizes: np.array_split over arange(len); exec'd on a stand-in self below.
        class S:
            def __len__(self):
                return n
            _batch = None
            _non_tensor_batch = {}
            _remote_batch = None
            meta_info = {}
        sizes = []
        g = proto_m["chunk"].__globals__
        g["divide_by_chunk_size"] = lambda v, chunk_sizes: sizes.extend(chunk_sizes) or [None] * len(chunk_sizes)
        g["DataProto"] = lambda **kw: None
        g.setdefault("Tuple", tuple)

        class B:
            pass
        s = S()
        s._batch = B()
        s._batch.batch_size = [n]
        proto_m["chunk"](s, w)
        return sizes

    class PipelineConfig:
        def __init__(self, seed):
            self.seed = seed

    class Scheduler:
        def __init__(self, seed, n):
            self.pipeline_config = PipelineConfig(seed)
            self.get_data_item_kwargs = {}
            self.dataset = list(range(n))
            self.indices = list(range(n))
            self.dataset_epoch = 0
            self.dataset_iter = None
            self.dataset_iter_count = 0
            self.reward_clusters = {"math_rule": None}

    # ---- 1. prompt order
    order_cases = []
    for seed in [42, 0, 1, 7, 123, 2**31 + 5, 2**40 + 3]:
        for n, b, steps in [(10, 3, 9), (16, 4, 9), (17, 5, 8), (64, 8, 12), (100, 32, 8), (7, 6, 5), (1000, 128, 10)]:
            s = Scheduler(seed, n)
            per_step = [[get_next(s) for _ in range(b)] for _ in range(steps)]
            order_cases.append({"seed": seed, "datasetSize": n, "rolloutBatchSize": b, "steps": per_step,
                                "datasetEpochAfter": s.dataset_epoch})

    # ---- 2. dispatch: argsort restore, batch_balance, chunk, dynamic_batching_shard
    dispatch_cases = []
    rng = np.random.default_rng(5)
    configs = []
    for w in [1, 2, 3, 4, 8]:
        for prompts, k in [(4, 2), (8, 4), (6, 3), (16, 8), (12, 1), (3, 8)]:
            if (prompts * k) % w:
                continue
            for dyn in [None, (4096, 4), (2048, 128), (1500, 8)]:
                configs.append((w, prompts, k, dyn))
    gen_seeds = [42, 3, 11]
    for ci, (w, prompts, k, dyn) in enumerate(configs):
        seed = gen_seeds[ci % len(gen_seeds)]
        n = prompts * k
        if ci % 4 == 3:  # measured lengths with many ties
            seqlens = rng.choice([100, 200, 300, 512], size=n).tolist()
        else:
            g = torch.Generator().manual_seed(seed)
            seqlens = torch.randint(SEQLEN_LOW, SEQLEN_HIGH, (n,), generator=g).tolist()
        batch = Proto(range(n), seqlens)
        # rlvr_pipeline: an earlier batch_balance (old log-prob recompute), then reorder(argsort(prompt_id)).
        fns["batch_balance"](batch, dp_size=w, minibatch_size=n)
        batch.reorder(torch.argsort(batch.batch["prompt_id"]))
        assert batch.ids == list(range(n))
        fns["batch_balance"](batch, dp_size=w, minibatch_size=n, logging_prefix="global_seqlen/actor_train")
        balanced = list(batch.ids)
        case = {"ranks": w, "prompts": prompts, "k": k, "seqlens": seqlens, "balanced": balanced}
        if dyn is not None:
            budget, rnd = dyn
            try:
                batch, _ = shard(batch, w, budget, rnd, 1, None, "actor_train/train_step")
                case["dynamic"] = {"maxTokens": budget, "round": rnd, "order": list(batch.ids),
                                   "microBatchIndices": batch.meta_info["global_micro_batch_indices"],
                                   "microBatchLengths": batch.meta_info["global_micro_batch_lengths"]}
            except AssertionError as e:
                case["dynamic"] = {"maxTokens": budget, "round": rnd, "error": f"AssertionError: {e}"}
                batch = None
        if batch is not None:
            sizes = chunk_sizes(len(batch), w)
            at, ranks = 0, []
            for s in sizes:
                ranks.append(batch.ids[at:at + s])
                at += s
            case["rankSources"] = ranks
        dispatch_cases.append(case)

    # ---- 3. advantages (reward_norm, then the reinforce return with gamma 1 at the last token)
    adv_cases = []
    schemes = [("group", "group"), ("batch", "batch"), ("group", None), ("batch", None), (None, None),
               ("batch", "group"), (None, "group"), ("group", "batch")]
    reward_sets = []
    for k in [1, 2, 4, 8]:
        for groups in [1, 3]:
            n = k * groups
            reward_sets.append((k, rng.integers(0, 2, size=n).astype(float).tolist()))
            reward_sets.append((k, np.round(rng.normal(size=n), 3).tolist()))
            reward_sets.append((k, [1.0] * n))
    for mean_t, std_t in schemes:
        for k, rewards in reward_sets:
            r = torch.tensor(rewards, dtype=torch.float32)
            try:
                out = fns["reward_norm"](r, n_sample=k, running_ctrl={}, norm_mean_type=mean_t, norm_std_type=std_t)
            except RuntimeError as e:
                adv_cases.append({"mean": mean_t, "std": std_t, "k": k, "rewards": rewards, "error": str(e)})
                continue
            if list(out.shape) != [len(rewards)]:
                adv_cases.append({"mean": mean_t, "std": std_t, "k": k, "rewards": rewards,
                                  "shape": list(out.shape)})
                continue
            tok = torch.zeros(len(rewards), 5)
            tok[:, -1] = out
            adv, _ = fns["compute_reinforce_return"](tok, gamma=1.0, lambd=0.95)
            vals = [None if v != v else v for v in adv[:, 0].tolist()]
            adv_cases.append({"mean": mean_t, "std": std_t, "k": k, "rewards": rewards, "advantages": vals})

    # ---- 4. errors
    errors = {
        "balanceNotMultiple": err_text(lambda: fns["get_seqlen_balanced_partitions"]([1, 2, 3], 2, equal_size=True)),
        "balanceTooFew": err_text(lambda: fns["get_seqlen_balanced_partitions"]([1], 2, equal_size=True)),
        "megatronDp": err_text(lambda: cfg["calculate_megatron_dp_size"](8, 3, 1, 1)),
        "megatronBatch": err_text(lambda: cfg["validate_megatron_batch_size"](
            batch_size=6, num_gpus=16, strategy_config={"tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 2})),
        "dynamicBudget": err_text(lambda: shard(Proto(range(4), [300, 10, 20, 30]), 2, 256, 4)),
        "rewardNormShape": _reshape_error(fns["reward_norm"]),
        "makeIterator": err_text(lambda: proto_m["make_iterator"](
            type("S", (), {"_batch": type("B", (), {"batch_size": [12]})()})(), 8, 1)),
    }
    megatron_dp = [{"gpus": g, "tp": t, "pp": p, "cp": c, "dp": cfg["calculate_megatron_dp_size"](g, t, p, c)}
                   for g, t, p, c in [(16, 1, 1, 1), (32, 4, 2, 1), (8, 2, 1, 2), (24, 2, 3, 1)]]

    fixture = {
        "source": "exec: ROLL's own functions (see scripts/golden/roll_layout.py docstring); transcribed: the "
                  "rlvr_pipeline.py step order and the synchronous scheduler's draw order (asyncio/Ray actors).",
        "commit": commit(checkout),
        "torch": torch.__version__,
        "order": order_cases,
        "dispatch": dispatch_cases,
        "advantages": adv_cases,
        "errors": errors,
        "megatronDp": megatron_dp,
    }
    with open(out_path, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
    print(out_path, len(json.dumps(fixture)) // 1024, "KB")


if __name__ == "__main__":
    main()

"""Writes test/fixtures/golden-verl-dynamic-bsz.json: verl's actor.use_dynamic_bsz micro-batches, run from a checkout.

    /work/golden-venv/bin/python scripts/golden/verl_dynamic_bsz.py /path/to/verl-checkout [out.json]

Made with verl b178a3cd56f58b2d502255daba591e92833930a7 (the checkout's commit is recorded in the fixture), torch 2.13 CPU.
Each case is one training step of the verl sampler with trainer.balance_batch false (rank r's share is the r-th
contiguous chunk of the step's samples), split into mini-batches and those into micro-batches as
workers/actor/dp_actor.py update_policy does with use_dynamic_bsz. The first 60 cases run without sequence
parallelism (actor.ulysses_sequence_parallel_size 1); the next 40 with 2, 4 or 8: `ranks` is then the data-parallel
size, the run has ranks × sp GPUs, and every GPU of a data-parallel group cuts the same chunk.

What runs as verl's code (read from the checkout and exec'd, as scripts/golden/verl_layout.py does):
- verl/utils/seqlen_balancing.py calculate_workload, karmarkar_karp, get_seqlen_balanced_partitions, ceildiv,
  roundup_divisible, rearrange_micro_batches (use_dynamic_bsz_balance at its default True), once per rank and mini-batch;
- the two expressions of update_policy, found in its AST and eval'd: max_token_len
  (self.config.ppo_max_token_len_per_gpu * self.ulysses_sequence_parallel_size, with the case's sp) and the
  use_dynamic_bsz branch's loss_scale_factor (response_mask.shape[0] / self.config.ppo_mini_batch_size, the normalised
  mini-batch);
- the normalisation of ppo_mini_batch_size in ActorRolloutRefWorker.__init__ (fsdp_workers.py:241-242, `*= rollout.n`
  then `//= self.device_mesh.size() // self.ulysses_sequence_parallel_size`), found in its AST and exec'd on a
  stand-in whose device_mesh.size() is the case's GPUs, ranks × sp.
Transcribed: DataProto.split(ppo_mini_batch_size) (contiguous, a short last one kept); the dispatch of the step to
the GPUs (make_nd_compute_dataproto_dispatch_fn("actor"): DataProto.chunk(dp size), GPU g given chunk g // sp, its
dp coordinate in init_device_mesh's (dp, sp) mesh); dist.all_reduce(MAX) of num_micro_batches over every GPU
(prepare_dynamic_batch passes no dp_group, so the world group: a stand-in `dist` whose all_reduce writes the
maximum of the GPUs' own counts, found by running the same function first with dist not initialised); the batch is
a stand-in whose attention_mask has the case's width and whose index_select (tensordict_utils) returns the
partition, so the micro-batches come back as index lists. The GPUs of a group are checked to cut the same
micro-batches, and the fixture keeps one per data-parallel rank.
"""
import ast
import json
import os
import subprocess
import sys
import types

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from verl_layout import load_functions  # noqa: E402


class Dist:
    class ReduceOp:
        MAX = "max"

    def __init__(self, initialised, value=None):
        self.initialised = initialised
        self.value = value

    def is_initialized(self):
        return self.initialised

    def all_reduce(self, t, op=None, group=None):
        t[0] = self.value


class RankBatch(dict):
    def __init__(self, seqlens, width):
        super().__init__()
        self["input_ids"] = torch.zeros(len(seqlens), width, dtype=torch.int64)
        self["attention_mask"] = (torch.arange(width).unsqueeze(0) < torch.tensor(seqlens).unsqueeze(1)).long()


def update_policy_expressions(checkout):
    """max_token_len and the use_dynamic_bsz loss_scale_factor, as written in dp_actor.update_policy."""
    path = os.path.join(checkout, "verl/workers/actor/dp_actor.py")
    tree = ast.parse(open(path).read())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "DataParallelPPOActor")
    fn = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "update_policy")

    def assigned(name):
        return [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in n.targets)]

    max_token_len = assigned("max_token_len")
    scales = assigned("loss_scale_factor")
    assert len(max_token_len) == 1 and len(scales) == 2, (len(max_token_len), len(scales))
    # The first loss_scale_factor is the `if self.config.use_dynamic_bsz:` branch's.
    texts = [ast.unparse(max_token_len[0]), ast.unparse(scales[0])]
    assert "ppo_max_token_len_per_gpu" in texts[0] and "response_mask.shape[0]" in texts[1], texts
    compiled = [compile(ast.Expression(e), path, "eval") for e in (max_token_len[0], scales[0])]
    return texts, compiled


def mini_batch_normalisation(checkout):
    """ActorRolloutRefWorker.__init__'s two statements that normalise actor.ppo_mini_batch_size, compiled to exec."""
    path = os.path.join(checkout, "verl/workers/fsdp_workers.py")
    tree = ast.parse(open(path).read())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ActorRolloutRefWorker")
    fn = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    found = [n for n in ast.walk(fn) if isinstance(n, ast.AugAssign) and ast.unparse(n.target) == "self.config.actor.ppo_mini_batch_size"]
    found.sort(key=lambda n: n.lineno)
    texts = [ast.unparse(n) for n in found]
    assert len(found) == 2 and "rollout.n" in texts[0] and "ulysses_sequence_parallel_size" in texts[1], texts
    return texts, compile(ast.Module(body=found, type_ignores=[]), path, "exec")


def normalised_mini(code, mini_prompts, k, gpus, sp):
    """ppo_mini_batch_size per data-parallel rank, as the worker's __init__ leaves it."""
    actor_cfg = types.SimpleNamespace(ppo_mini_batch_size=mini_prompts)
    worker = types.SimpleNamespace(
        config=types.SimpleNamespace(actor=actor_cfg, rollout=types.SimpleNamespace(n=k)),
        device_mesh=types.SimpleNamespace(size=lambda: gpus),
        ulysses_sequence_parallel_size=sp,
    )
    exec(code, {"self": worker})
    return actor_cfg.ppo_mini_batch_size


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(__file__), "..", "..", "test", "fixtures", "golden-verl-dynamic-bsz.json")
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    sb = os.path.join(checkout, "verl/utils/seqlen_balancing.py")
    tu = types.SimpleNamespace(index_select_tensor_dict=lambda batch, partition: list(partition))

    def loader(dist):
        g = {"dist": dist, "get_device_name": lambda: "cpu", "tu": tu}
        fns = load_functions(sb, ["calculate_workload", "karmarkar_karp", "get_seqlen_balanced_partitions"], g)
        g.update(fns)
        return load_functions(sb, ["ceildiv", "roundup_divisible", "rearrange_micro_batches"], g)["rearrange_micro_batches"]

    texts, (max_len_expr, scale_expr) = update_policy_expressions(checkout)
    norm_texts, norm_code = mini_batch_normalisation(checkout)
    local = loader(Dist(False))
    base_rng = np.random.default_rng(20261129)
    sp_rng = np.random.default_rng(20261130)
    cases = []
    while len(cases) < 100:
        t = len(cases)
        # The first 60 without sequence parallelism (their draws as before), then Ulysses groups of 2, 4 or 8 GPUs.
        sp = 1 if t < 60 else int(sp_rng.choice([2, 4, 8]))
        draw = base_rng if t < 60 else sp_rng
        ranks = int(draw.choice([1, 2, 4, 8]))
        k = int(draw.choice([1, 2, 4, 8]))
        prompts = int(draw.integers(1, 13)) * ranks
        samples = prompts * k
        if samples % ranks:
            continue
        mini_prompts = int(draw.choice([d for d in range(1, prompts + 1) if prompts % d == 0]))
        gpus = ranks * sp
        normalised = normalised_mini(norm_code, mini_prompts, k, gpus, sp)
        assert normalised == mini_prompts * k // ranks  # the data-parallel size is ranks, whatever sp
        if normalised < 1:
            continue
        width = int(draw.choice([256, 1024, 4096]))
        if t % 4 == 0:
            seqlens = [int(x) for x in draw.choice([width // 4, width // 2, width], size=samples)]  # ties
        elif t % 4 == 1:
            seqlens = [int(x) for x in draw.integers(1, width // 8 + 2, size=samples)]  # short: few micro-batches
        else:
            seqlens = [int(x) for x in draw.integers(1, width + 1, size=samples)]
        # With sp > 1 the per-GPU budget may be below the widest sample: sp GPUs' budgets make the micro-batch's.
        budget = int(width * draw.choice([1, 1, 2, 3])) // sp
        cfg = types.SimpleNamespace(ppo_max_token_len_per_gpu=budget, ppo_mini_batch_size=normalised)
        actor = types.SimpleNamespace(config=cfg, ulysses_sequence_parallel_size=sp)
        max_token_len = eval(max_len_expr, {"self": actor})
        per = samples // ranks
        chunks = [list(range(r * per, (r + 1) * per)) for r in range(ranks)]  # DataProto.chunk(dp size)
        dp_rank = [g // sp for g in range(gpus)]  # GPU g's coordinate on the (dp, sp) mesh's dp dimension
        minis = []
        for start in range(0, per, normalised):  # DataProto.split(ppo_mini_batch_size)
            idx = [chunks[dp_rank[g]][start:start + normalised] for g in range(gpus)]
            counts = [len(local(RankBatch([seqlens[i] for i in ix], width), max_token_len=max_token_len)[1]) for ix in idx]
            synced = loader(Dist(True, max(counts)))
            gpus_out, scales = [], []
            for ix in idx:
                _, parts = synced(RankBatch([seqlens[i] for i in ix], width), max_token_len=max_token_len)
                gpus_out.append([[ix[i] for i in p] for p in parts])
                scales.append([float(eval(scale_expr, {"self": actor, "response_mask": torch.zeros(len(p), 1)})) for p in parts])
            for g in range(gpus):  # a group's GPUs cut the same micro-batches
                assert gpus_out[g] == gpus_out[dp_rank[g] * sp] and scales[g] == scales[dp_rank[g] * sp]
            minis.append({"microBatches": gpus_out[::sp], "lossScale": scales[::sp]})
        cases.append({"ranks": ranks, "k": k, "prompts": prompts, "miniBatchPrompts": mini_prompts, "normalisedMini": normalised,
                      "width": width, "maxTokenLenPerGpu": budget, "ulyssesSp": sp, "gpus": gpus, "maxTokenLen": max_token_len,
                      "seqlens": seqlens, "miniBatches": minis})
    doc = {
        "source": f"verl {commit}: seqlen_balancing.py rearrange_micro_batches exec'd; dp_actor.update_policy's `max_token_len = {texts[0]}` "
        f"and `loss_scale_factor = {texts[1]}` eval'd; fsdp_workers.py `{norm_texts[0]}; {norm_texts[1]}` exec'd; "
        "transcribed: DataProto.split, the dispatch of a chunk to each GPU of a (dp, sp) mesh, dist.all_reduce(MAX) over the GPUs "
        "(scripts/golden/verl_dynamic_bsz.py)",
        "commit": commit,
        "torch": torch.__version__,
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(out_path, len(cases), "cases", os.path.getsize(out_path), "bytes")


if __name__ == "__main__":
    main()

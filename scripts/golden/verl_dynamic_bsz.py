"""Writes test/fixtures/golden-verl-dynamic-bsz.json: verl's actor.use_dynamic_bsz micro-batches, run from a checkout.

    /work/golden-venv/bin/python scripts/golden/verl_dynamic_bsz.py /path/to/verl-checkout [out.json]

Made with verl b178a3cd56f58b2d502255daba591e92833930a7 (the checkout's commit is recorded in the fixture), torch 2.13 CPU.
Each case is one training step of the verl sampler with trainer.balance_batch false (rank r's share is the r-th
contiguous chunk of the step's samples), split into mini-batches and those into micro-batches as
workers/actor/dp_actor.py update_policy does with use_dynamic_bsz.

What runs as verl's code (read from the checkout and exec'd, as scripts/golden/verl_layout.py does):
- verl/utils/seqlen_balancing.py calculate_workload, karmarkar_karp, get_seqlen_balanced_partitions, ceildiv,
  roundup_divisible, rearrange_micro_batches (use_dynamic_bsz_balance at its default True), once per rank and mini-batch;
- the two expressions of update_policy, found in its AST and eval'd: max_token_len
  (self.config.ppo_max_token_len_per_gpu * self.ulysses_sequence_parallel_size, sp 1) and the use_dynamic_bsz
  branch's loss_scale_factor (response_mask.shape[0] / self.config.ppo_mini_batch_size, the normalised mini-batch).
Transcribed: DataProto.split(ppo_mini_batch_size) (contiguous, a short last one kept); the normalisation of
ppo_mini_batch_size (× rollout.n // dp size, fsdp_workers.py); dist.all_reduce(MAX) of num_micro_batches over the
ranks (a stand-in `dist` whose all_reduce writes the maximum of the ranks' own counts, found by running the same
function first with dist not initialised); the batch is a stand-in whose attention_mask has the case's width and
whose index_select (tensordict_utils) returns the partition, so the micro-batches come back as index lists.
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
    local = loader(Dist(False))
    rng = np.random.default_rng(20261129)
    cases = []
    while len(cases) < 60:
        t = len(cases)
        ranks = int(rng.choice([1, 2, 4, 8]))
        k = int(rng.choice([1, 2, 4, 8]))
        prompts = int(rng.integers(1, 13)) * ranks
        samples = prompts * k
        if samples % ranks:
            continue
        mini_prompts = int(rng.choice([d for d in range(1, prompts + 1) if prompts % d == 0]))
        normalised = mini_prompts * k // ranks
        if normalised < 1:
            continue
        width = int(rng.choice([256, 1024, 4096]))
        if t % 4 == 0:
            seqlens = [int(x) for x in rng.choice([width // 4, width // 2, width], size=samples)]  # ties
        elif t % 4 == 1:
            seqlens = [int(x) for x in rng.integers(1, width // 8 + 2, size=samples)]  # short: few micro-batches
        else:
            seqlens = [int(x) for x in rng.integers(1, width + 1, size=samples)]
        budget = int(width * rng.choice([1, 1, 2, 3]))
        cfg = types.SimpleNamespace(ppo_max_token_len_per_gpu=budget, ppo_mini_batch_size=normalised)
        actor = types.SimpleNamespace(config=cfg, ulysses_sequence_parallel_size=1)
        max_token_len = eval(max_len_expr, {"self": actor})
        per = samples // ranks
        chunks = [list(range(r * per, (r + 1) * per)) for r in range(ranks)]
        minis = []
        for start in range(0, per, normalised):  # DataProto.split(ppo_mini_batch_size)
            idx = [c[start:start + normalised] for c in chunks]
            counts = [len(local(RankBatch([seqlens[i] for i in ix], width), max_token_len=max_token_len)[1]) for ix in idx]
            synced = loader(Dist(True, max(counts)))
            ranks_out, scales = [], []
            for ix in idx:
                _, parts = synced(RankBatch([seqlens[i] for i in ix], width), max_token_len=max_token_len)
                ranks_out.append([[ix[i] for i in p] for p in parts])
                scales.append([float(eval(scale_expr, {"self": actor, "response_mask": torch.zeros(len(p), 1)})) for p in parts])
            minis.append({"microBatches": ranks_out, "lossScale": scales})
        cases.append({"ranks": ranks, "k": k, "prompts": prompts, "miniBatchPrompts": mini_prompts, "normalisedMini": normalised,
                      "width": width, "maxTokenLenPerGpu": budget, "seqlens": seqlens, "miniBatches": minis})
    doc = {
        "source": f"verl {commit}: seqlen_balancing.py rearrange_micro_batches exec'd; dp_actor.update_policy's `max_token_len = {texts[0]}` "
        f"and `loss_scale_factor = {texts[1]}` eval'd; transcribed: DataProto.split, the mini-batch normalisation, dist.all_reduce(MAX) "
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

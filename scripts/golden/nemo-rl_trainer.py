"""Writes test/fixtures/golden-nemo-rl-trainer.json: each token's weight in NeMo RL's applied update, by autograd.

    /work/golden-venv/bin/python scripts/golden/nemo-rl_trainer.py /path/to/nemo-rl-checkout [out.json]

Made with NVIDIA-NeMo/RL 7ea279abfbeb698b092856d0dab61e7cf39bc909 (recorded in the fixture), torch 2.13 CPU.

What runs as NeMo RL's code (read from the checkout and exec'd; nemo_rl is not imported):
- nemo_rl/distributed/batched_data_dict.py (whole module, as scripts/golden/nemo-rl_layout.py loads it) and
  data/packing/algorithms.py: shard_by_batch_size, get_batch and the three micro-batch iterators;
- nemo_rl/algorithms/utils.py masked_mean (the normaliser, with its + 1e-8).
Transcribed (the surrounding code needs Ray, a GPU and a model):
- ClippedPGLossFn's aggregation (algorithms/loss/loss_functions.py): token_level_loss true:
  masked_mean(per_token, mask, global_normalization_factor=global_valid_toks); false:
  masked_mean(masked_mean(per_token, token_mask, dim=-1), sample_mask, global_normalization_factor=global_valid_seqs).
  The per-token loss here is a leaf `logp` itself (linear, coefficient 1), so d loss / d logp is each token's weight;
- DTensorPolicyWorker.train (models/policy/workers/dtensor_policy_worker.py): per global batch, local_valid_seqs =
  Σ sample_mask, local_valid_toks = Σ token_mask[:, 1:] × sample_mask, all-reduced (a sum over the ranks here);
  dummy micro-batches (sequence packing) `loss *= 0`; `loss *= self.dp_size * self.cp_size` then backward; FSDP's
  gradient average over the data-parallel ranks (the ranks' gradients summed into one leaf, ÷ dp).
Seeded inputs: token counts (prompt + completion) and completion tokens (the last ones of each sequence, never its
first token), over data-parallel sizes, global batch sizes, plain / dynamic-batching / sequence-packing micro-batches,
and both loss modes.
"""
import ast
import importlib.util
import json
import os
import random
import subprocess
import sys
import typing

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("nemo_rl_layout_golden", os.path.join(HERE, "nemo-rl_layout.py"))
layout_golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(layout_golden)


def function_from(path, name):
    tree = ast.parse(open(path).read())
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    g = {"torch": torch, "Optional": typing.Optional}
    exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), g)
    return g[name]


def micro_batches(BDD, c, seqlens):
    """Per global batch, per rank: its micro-batches (sample indices) and which are dummies, by NeMo RL's own code."""
    n, dp, gbs = len(seqlens), c["dp"], c["gbs"]
    width = -(-max(seqlens) // c["padMultiple"]) * c["padMultiple"]
    data = BDD({"idx": list(range(n)), "input_lengths": torch.tensor(seqlens), "input_ids": torch.zeros(n, width, dtype=torch.int64)})
    if c["mode"] == "dynamic":
        args = {"input_key": "input_ids", "input_lengths_key": "input_lengths", "sequence_length_round": c["seqRound"],
                "max_tokens_per_microbatch": c["trainMbTokens"]}
        shards, _ = data.shard_by_batch_size(dp, batch_size=gbs, dynamic_batching_args=args)
    elif c["mode"] == "packing":
        args = {"algorithm": c["algorithm"], "input_key": "input_ids", "input_lengths_key": "input_lengths",
                "sequence_length_pad_multiple": c["padMultiple"], "max_tokens_per_microbatch": c["trainMbTokens"],
                "microbatch_order": "packer"}
        shards, _ = data.shard_by_batch_size(dp, batch_size=gbs, sequence_packing_args=args)
    else:
        shards = data.shard_by_batch_size(dp, batch_size=gbs)
    local_gbs = gbs // dp
    out = []
    for gb in range(n // gbs):
        per_rank = []
        for s in shards:
            b = s.get_batch(batch_idx=gb, batch_size=local_gbs)
            if c["mode"] == "dynamic":
                mbs = [list(mb["idx"]) for mb in b.make_microbatch_iterator_with_dynamic_shapes()]
            elif c["mode"] == "packing":
                mbs = [list(mb["idx"]) for mb in b.make_microbatch_iterator_for_packable_sequences()]
            else:
                mbs = [list(mb["idx"]) for mb in b.make_microbatch_iterator(c["mbs"])]
            per_rank.append(mbs)
        most = max(len(x) for x in per_rank)
        gb_out = []
        for x in per_rank:
            real = [(mb, False) for mb in x]
            if c["mode"] == "packing":
                real += [(x[i % len(x)], True) for i in range(most - len(x))]
            gb_out.append(real)
        out.append(gb_out)
    return out


def weights(masked_mean, c, seqlens, completion, plan):
    n, dp, cp = len(seqlens), c["dp"], 1
    width = max(seqlens)
    token_mask = torch.zeros(n, width, dtype=torch.float64)
    for i, (s, t) in enumerate(zip(seqlens, completion)):
        token_mask[i, s - t : s] = 1.0
    sample_mask = torch.ones(n, dtype=torch.float64)
    steps = []
    for gb in plan:
        logp = torch.zeros(n, width, dtype=torch.float64, requires_grad=True)
        gb_samples = sorted(i for rank in gb for mb, dummy in rank if not dummy for i in mb)
        # the worker: local counts per rank, all-reduced
        global_valid_seqs = torch.tensor(0.0, dtype=torch.float64)
        global_valid_toks = torch.tensor(0.0, dtype=torch.float64)
        for rank in gb:
            idx = sorted(i for mb, dummy in rank if not dummy for i in mb)
            global_valid_seqs = global_valid_seqs + torch.sum(sample_mask[idx])
            global_valid_toks = global_valid_toks + torch.sum(token_mask[idx][:, 1:] * sample_mask[idx].unsqueeze(-1))
        grad = torch.zeros(n, width, dtype=torch.float64)
        for rank in gb:
            for mb, dummy in rank:
                tm, sm, lp = token_mask[mb], sample_mask[mb], logp[mb]
                if c["loss"] == "true":
                    loss = masked_mean(lp, tm * sm.unsqueeze(-1), global_normalization_factor=global_valid_toks)
                else:
                    loss = masked_mean(masked_mean(lp, tm, dim=-1), sm, global_normalization_factor=global_valid_seqs)
                if dummy:
                    loss = loss * 0
                loss = loss * (dp * cp)
                (g,) = torch.autograd.grad(loss, logp)
                grad += g
        grad = grad / dp  # FSDP averages over the data-parallel ranks
        micro = []
        for r, rank in enumerate(gb):
            for mb, dummy in rank:
                ws = []
                for i in mb:
                    g = grad[i][token_mask[i] > 0]
                    assert torch.allclose(g, g[0].expand_as(g), rtol=1e-12, atol=0), "a sample's tokens weigh alike"
                    ws.append(float(g[0]))
                micro.append({"rank": r, "samples": [int(i) for i in mb], "dummy": dummy, "weights": ws})
        steps.append({"samples": gb_samples, "microBatches": micro, "globalValidToks": float(global_valid_toks)})
    return steps


def cases():
    rng = random.Random(7_24)
    out = []
    grid = [
        dict(mode="plain", dp=1, gbs=8, mbs=2), dict(mode="plain", dp=2, gbs=8, mbs=2), dict(mode="plain", dp=2, gbs=16, mbs=4),
        dict(mode="plain", dp=4, gbs=8, mbs=1), dict(mode="plain", dp=3, gbs=12, mbs=2),
        dict(mode="dynamic", dp=2, gbs=16, trainMbTokens=2048, seqRound=64), dict(mode="dynamic", dp=4, gbs=16, trainMbTokens=1500, seqRound=32),
        dict(mode="packing", dp=2, gbs=16, trainMbTokens=2048, algorithm="modified_first_fit_decreasing"),
        dict(mode="packing", dp=4, gbs=32, trainMbTokens=1600, algorithm="first_fit_decreasing", padMultiple=8),
        dict(mode="packing", dp=3, gbs=12, trainMbTokens=1200, algorithm="concatenative"),
        dict(mode="packing", dp=8, gbs=16, trainMbTokens=2048, algorithm="modified_first_fit_decreasing"),
    ]
    for g in grid:
        for loss in ("true", "false"):
            for _ in range(2):
                c = dict(mbs=2, trainMbTokens=2048, seqRound=64, padMultiple=1, algorithm="modified_first_fit_decreasing")
                c.update(g)
                c["loss"] = loss
                c["steps"] = rng.choice([1, 2, 3])
                n = c["gbs"] * c["steps"]
                c["seqlens"] = [rng.randint(32, 1000) for _ in range(n)]
                c["completionTokens"] = [rng.randint(1, s - 1) for s in c["seqlens"]]
                out.append(c)
    return out


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "../../test/fixtures/golden-nemo-rl-trainer.json")
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    BDD, _ = layout_golden.batched_data_dict_module(checkout)
    masked_mean = function_from(os.path.join(checkout, "nemo_rl/algorithms/utils.py"), "masked_mean")
    results = []
    for c in cases():
        plan = micro_batches(BDD, c, c["seqlens"])
        results.append({"config": {k: v for k, v in c.items() if k not in ("seqlens", "completionTokens")},
                        "seqlens": c["seqlens"], "completionTokens": c["completionTokens"],
                        "steps": weights(masked_mean, c, c["seqlens"], c["completionTokens"], plan)})
    doc = {
        "source": {
            "nemo-rl": commit,
            "run": "batched_data_dict.py (shard_by_batch_size, get_batch, micro-batch iterators), data/packing/algorithms.py, "
            "algorithms/utils.py masked_mean; weights by torch autograd (float64)",
            "transcribed": "ClippedPGLossFn's actor_loss aggregation (both token_level_loss branches) on a linear per-token loss; "
            "DTensorPolicyWorker.train's global_valid_seqs/toks all-reduce, dummy micro-batches (loss *= 0), "
            "loss *= dp_size * cp_size, and FSDP's gradient mean over dp (need Ray and a GPU)",
        },
        "cases": results,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(results)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

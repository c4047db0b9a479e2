"""Writes test/fixtures/golden-slime-trainer.json: each token's weight in slime's applied update, by autograd.

    /work/golden-venv/bin/python scripts/golden/slime_trainer.py /path/to/slime-checkout [out.json]

Made with THUDM/slime 624b824a898ab0ec1fcb4d373004c7f3852bf515 (recorded in the fixture), torch 2.13 CPU.

What runs as slime's code:
- slime/utils/dp_schedule.py build_dp_schedule, imported as it is (pure Python), for the micro-batches per rank and step;
- slime/backends/megatron_utils/cp_utils.py get_sum_of_sample_mean (AST-extracted; `mpu` a stand-in whose
  context-parallel size is 1), both --calculate-per-token-loss values.
Transcribed (need Megatron, NCCL and a GPU):
- loss_function (megatron_utils/loss.py): off → loss × num_microbatches / step_global_batch_size × DP×CP, num_tokens 1;
  on → loss × CP, num_tokens = Σ clamp_min(loss_mask.sum(), 1);
- Megatron-LM forward_step: off → output / clamp(num_tokens, 1) / num_microbatches; on → unchanged; its DDP: off → the
  gradient mean over DP×CP; on → the sum, and finalize_model_grads ÷ the step's num_tokens summed over the ranks.
The per-token loss is a leaf `logp` itself (linear), so its gradient is each token's weight.
"""
import ast
import json
import os
import random
import subprocess
import sys
import types
import typing

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def sum_of_sample_mean_from(checkout):
    path = os.path.join(checkout, "slime/backends/megatron_utils/cp_utils.py")
    src = open(path).read()
    tree = ast.parse(src)
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "get_sum_of_sample_mean")
    mpu = types.SimpleNamespace(get_context_parallel_world_size=lambda: 1)
    g = {"torch": torch, "mpu": mpu, "Callable": typing.Callable}
    exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), g)
    return g["get_sum_of_sample_mean"]


def run_case(build_dp_schedule, get_sum, c):
    seqlens, tokens = c["seqlens"], c["completionTokens"]
    args = types.SimpleNamespace(micro_batch_size=c["micro"], use_dynamic_batch_size=c["dynamic"], max_tokens_per_gpu=c["maxTokens"],
                                 balance_data=False, balance_by_flops=False)
    tpc = {"dp_size": c["dp"], "cp_size": 1, "vpp_size": 1, "microbatch_group_size_per_vp_stage": 1}
    parts, mbs, num_mbs, gbs = build_dp_schedule(args, tpc, seqlens, global_batch_size=c["gbs"], rollout_indices=list(range(len(seqlens))))
    dp = c["dp"]
    response = [t + 3 for t in tokens]  # response_lengths: a few loss-masked-out tokens after each completion
    masks = [torch.cat([torch.ones(t, dtype=torch.float64), torch.zeros(3, dtype=torch.float64)]) for t in tokens]
    steps = []
    before = 0
    for p, count in enumerate(num_mbs):
        logp = [torch.zeros(r, dtype=torch.float64, requires_grad=True) for r in response]
        per_rank = [[[parts[r][i] for i in mb] for mb in mbs[r][before : before + count]] for r in range(dp)]
        before += count
        total_tokens = 0
        losses = []
        for r in range(dp):
            for mb in per_rank[r]:
                f = get_sum([seqlens[i] for i in mb], [response[i] for i in mb], [masks[i] for i in mb],
                            calculate_per_token_loss=c["perToken"])
                loss = f(torch.cat([logp[i] for i in mb]))
                if c["perToken"]:
                    loss = loss * 1  # × CP
                    num_tokens = sum([torch.clamp_min(masks[i].sum(), 1) for i in mb])
                    total_tokens = total_tokens + num_tokens
                    losses.append(loss)  # Megatron: unchanged; DDP sums
                else:
                    loss = loss * count / gbs[p] * dp
                    loss = loss / 1 / count  # Megatron forward_step: / clamp(num_tokens=1, 1) / num_microbatches
                    losses.append(loss / dp)  # DDP's mean over DP
        total = sum(losses)
        if c["perToken"]:
            total = total / total_tokens  # finalize_model_grads
        grads = torch.autograd.grad(total, logp, allow_unused=True)
        micro = []
        for r in range(dp):
            for mb in per_rank[r]:
                ws = []
                for i in mb:
                    g = grads[i][masks[i] > 0] if grads[i] is not None else torch.zeros(0)
                    assert g.numel() == 0 or torch.allclose(g, g[0].expand_as(g), rtol=1e-12, atol=0)
                    ws.append(float(g[0]) if g.numel() else None)
                micro.append({"rank": r, "samples": mb, "weights": ws})
        steps.append({"globalBatchSize": gbs[p], "microBatches": micro})
    return steps


def cases():
    rng = random.Random(624824)
    out = []
    for t in range(40):
        dp = rng.choice([1, 2, 4])
        micro = rng.choice([1, 2])
        gbs = dp * micro * rng.choice([1, 2, 3])
        n = gbs * rng.choice([1, 2, 3])
        dynamic = t % 2 == 1
        seqlens = [rng.randint(16, 900) for _ in range(n)]
        out.append(dict(dp=dp, micro=micro, gbs=gbs, dynamic=dynamic, maxTokens=1200 if dynamic else None, perToken=t % 4 >= 2,
                        seqlens=seqlens, completionTokens=[rng.choice([0, rng.randint(1, s - 1)]) if t % 5 == 0 else rng.randint(1, s - 1) for s in seqlens]))
    return out


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "../../test/fixtures/golden-slime-trainer.json")
    sys.path.insert(0, checkout)
    from slime.utils.dp_schedule import build_dp_schedule  # pure Python, imported as it is

    commit = subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()
    get_sum = sum_of_sample_mean_from(checkout)
    results = [{"config": c, "steps": run_case(build_dp_schedule, get_sum, c)} for c in cases()]
    doc = {
        "source": {
            "slime": commit,
            "run": "slime/utils/dp_schedule.py build_dp_schedule (imported); megatron_utils/cp_utils.py get_sum_of_sample_mean "
            "(AST-extracted, CP 1); weights by torch autograd (float64)",
            "transcribed": "loss_function's scaling (× num_microbatches / step_global_batch_size × DP, or × CP with num_tokens); "
            "Megatron-LM's forward_step division, DDP mean (or sum) over DP and finalize_model_grads' ÷ num_tokens (need Megatron and a GPU)",
        },
        "cases": results,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(results)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

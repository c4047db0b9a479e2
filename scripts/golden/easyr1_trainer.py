"""Writes test/fixtures/golden-easyr1-trainer.json: each token's weight in EasyR1's applied update, by autograd.

    /work/golden-venv/bin/python scripts/golden/easyr1_trainer.py /path/to/EasyR1-checkout [out.json]

Made with hiyouga/EasyR1 b44b311b669bf1fd1aa2fc36f2251482ba33cb16 (recorded in the fixture), torch 2.13 CPU.

What runs as EasyR1's code (exec'd from the checkout with easyr1_exec.py, the verl package not imported):
- verl/trainer/core_algos.py average_loss (both loss_avg_mode values) with verl/utils/torch_functional.py masked_mean;
- verl/utils/seqlen_balancing.py rearrange_micro_batches per rank (dynamic_batching), as easyr1_packing.py runs it.
Transcribed (DataParallelPPOActor.update_policy needs FSDP, NCCL and a model):
- total_response_tokens = Σ response_mask of the mini-batch, summed over the ranks (its dist.all_reduce);
- rearrange_micro_batches' dist.all_reduce(MAX) of the micro-batch count (easyr1_packing.py's stand-in);
  without dynamic_batching, mini_batch.split(micro_batch_size_per_device_for_update);
- `loss = loss * torch.sum(response_mask) * self.world_size / total_response_tokens`, backward, and FSDP's gradient
  mean over the ranks (÷ world_size). The per-token loss is a leaf `logp` itself (linear), so its gradient is the weight.
Seeded inputs: ranks, samples per rank, padded width, micro sizes, token counts (prompt + response) and response tokens.
"""
import json
import os
import sys
import types

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from easyr1_exec import EasyR1, exec_nodes, named  # noqa: E402
from easyr1_packing import Dist, RankBatch, loader  # noqa: E402


def average_loss_from(e):
    vf = exec_nodes(e.path("verl/utils/torch_functional.py"), named("masked_mean"), {"torch": torch}, lazy_annotations=True)
    ns = exec_nodes(e.path("verl/trainer/core_algos.py"), named("average_loss"),
                    {"torch": torch, "VF": types.SimpleNamespace(masked_mean=vf["masked_mean"]), "Literal": None},
                    lazy_annotations=True)
    return ns["average_loss"]


def main():
    e = EasyR1(sys.argv[1])
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-easyr1-trainer.json")
    average_loss = average_loss_from(e)
    local = loader(e, Dist(False))
    rng = np.random.default_rng(31102026)
    cases = []
    for t in range(48):
        world = int(rng.choice([1, 2, 3, 4]))
        per = int(rng.integers(1, 13))
        width = int(rng.choice([256, 1024]))
        mbs = int(rng.choice([1, 2, 3, 4]))
        dynamic = bool(t % 3 != 0)
        mode = ["token", "seq"][t % 2]
        seqlens = [int(x) for x in rng.integers(2, width + 1, size=world * per)]
        response = [int(rng.integers(1, s)) for s in seqlens]
        chunks = [list(range(r * per, (r + 1) * per)) for r in range(world)]
        if dynamic:
            budget = mbs * width
            counts = [len(local(RankBatch([seqlens[i] for i in c], width), max_token_len=budget)[1]) for c in chunks]
            synced = loader(e, Dist(True, max(counts)))
            parts = [[[c[i] for i in p] for p in synced(RankBatch([seqlens[i] for i in c], width), max_token_len=budget)[1]] for c in chunks]
        else:
            parts = [[c[i : i + mbs] for i in range(0, len(c), mbs)] for c in chunks]
        n = world * per
        mask = torch.zeros(n, width, dtype=torch.float64)
        for i, r in enumerate(response):
            mask[i, :r] = 1.0
        total = mask.sum()  # Σ over the ranks of each rank's Σ response_mask (the all_reduce)
        logp = torch.zeros(n, width, dtype=torch.float64, requires_grad=True)
        grad = torch.zeros(n, width, dtype=torch.float64)
        for rank in parts:
            for mb in rank:
                m = mask[mb]
                loss = average_loss(logp[mb], m, mode=mode)
                loss = loss * torch.sum(m) * world / total
                (g,) = torch.autograd.grad(loss, logp)
                grad += g
        grad = grad / world  # FSDP's mean over the ranks
        weights = []
        for i in range(n):
            g = grad[i][mask[i] > 0]
            assert torch.allclose(g, g[0].expand_as(g), rtol=1e-12, atol=0)
            weights.append(float(g[0]))
        cases.append({"ranks": world, "perRank": per, "width": width, "microBatchSize": mbs, "dynamicBatching": dynamic,
                      "lossAvgMode": mode, "seqlens": seqlens, "responseTokens": response, "microBatches": parts, "weights": weights})
    doc = {
        "source": "exec'd from the EasyR1 checkout: core_algos.py average_loss with torch_functional.py masked_mean, "
        "seqlen_balancing.py rearrange_micro_batches; transcribed: update_policy's total_response_tokens all_reduce, "
        "its loss * Σ response_mask * world_size / total_response_tokens line, FSDP's mean over ranks, the micro-batch count's all_reduce(MAX)",
        "commit": e.commit,
        "torch": torch.__version__,
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(cases)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

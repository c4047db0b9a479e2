"""Writes test/fixtures/golden-open-instruct-trainer.json: each token's weight in open-instruct's applied update, by autograd.

    /work/golden-venv/bin/python scripts/golden/open-instruct_trainer.py /path/to/open-instruct-checkout [out.json]

Made with allenai/open-instruct e6c3044aa6201c8bfa4573c1b03142af599e730d (the checkout's commit is recorded in the
fixture), torch 2.13 CPU, numpy. The open_instruct package is not imported (it pulls ray, vllm, deepspeed); the pieces
below are read from the checkout by their syntax tree and exec'd (helpers of scripts/golden/open-instruct_layout.py).

What runs as open-instruct's code:
- rl_utils.py pack_sequences and data_loader.py prepare_collated_data_for_workers / collate_fn (np.random.seed(seed)
  first, in place of the unseeded actor): each rank's packed micro-batches with their response masks (made bool
  first, as DataPreparationActor._data_preparation_loop does);
- grpo_utils.py calculate_token_counts (a stand-in dist.all_reduce that adds the other ranks' per-micro-batch counts,
  as the SUM collective does) for loss_denominator "token";
- rl_utils.py masked_mean(per_token_loss, response_mask[:, 1:], None, loss_denominator) on a per-token loss that is a
  float64 leaf `logp` (requires_grad), so d loss / d logp is each token's weight.
Transcribed (named, because PolicyTrainerRayProcess.step needs DeepSpeed and a model): its lines
accumulation_steps = max(ceil(num_samples / num_mini_batches - 0.5), 1), the leftover micro-batches dropped,
batch_start = (i // accumulation_steps) * accumulation_steps, the numeric loss_denominator's table,
loss *= world_size // sequence_parallel_size, one optimizer step per accumulation_steps micro-batches, num_epochs
passes; DeepSpeed's gradient mean over the data-parallel ranks (÷ world size; its gradient_accumulation_steps is 1).
A sample's tokens: query = min(8, L - 1), response = L - query (the layout fixture's convention).
"""
import importlib.util
import json
import math
import os
import random
import subprocess
import sys
import types

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("oi_layout", os.path.join(HERE, "open-instruct_layout.py"))
L = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(L)


class Dist:
    """torch.distributed stand-in: pass 1 records each rank's tensor, pass 2 adds the other ranks' (SUM)."""

    ReduceOp = types.SimpleNamespace(SUM="sum")
    ProcessGroup = object
    seen = None
    add = None

    @staticmethod
    def all_reduce(t, op=None, group=None):
        if Dist.seen is not None:
            Dist.seen.append(t.clone())
        if Dist.add is not None:
            t += Dist.add


def main():
    L.CHECKOUT = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "test", "fixtures", "golden-open-instruct-trainer.json")
    o = L.build()
    g = {"torch": torch, "dist": Dist, "data_types": types.SimpleNamespace(CollatedBatchData=object), "__name__": "oi_exec"}
    L.pick("open_instruct/grpo_utils.py", ["calculate_token_counts"], g)
    count_tokens = g["calculate_token_counts"]
    mm = {"torch": torch, "__name__": "oi_exec"}
    L.pick("open_instruct/rl_utils.py", ["masked_mean"], mm)
    masked_mean = mm["masked_mean"]
    rng = random.Random(20261129)
    cases = []
    for ci in range(40):
        world = [1, 2, 4, 3][ci % 4]
        n = rng.choice([8, 16, 24, 32])
        seqlens = [rng.randint(12, 200) for _ in range(n)]
        pack_length = rng.choice([256, 400, 600])
        per_device = rng.choice([1, 2])
        nmb = rng.choice([1, 2, 3])
        epochs = 1 + ci % 2
        denominator = "token" if ci % 3 else str(rng.choice([512, 1000, 4096]))
        seed = [42, 7, 123][ci % 3]
        queries = [min(8, s - 1) for s in seqlens]
        tokens = [s - q for s, q in zip(seqlens, queries)]
        packed = o["rl"]["pack_sequences"](queries=[[1] * q for q in queries], responses=[[2] * t for t in tokens],
                                           masks=[[1] * t for t in tokens], pack_length=pack_length, pad_token_id=0,
                                           vllm_logprobs=[[0.0] * t for t in tokens], mask_tool_use=True, min_num_batches=world)
        packs = [sorted({int(v) - 1 for v in d.tolist() if v > 0}) for d in packed.dones]
        packed.advantages = [torch.full((len(q),), float(j)) for j, q in enumerate(packed.query_responses)]
        packed.response_masks = [m.bool() for m in packed.response_masks]  # as _data_preparation_loop does before collating
        np.random.seed(seed)
        collated = o["dl"]["prepare_collated_data_for_workers"](packed, world, per_device, 0, pin_memory=False)
        if not collated or not collated[0].response_masks:
            continue
        rank_packs = [[[int(row[0].item()) for row in mb] for mb in rank.advantages] for rank in collated]
        # PolicyTrainerRayProcess.step (transcribed lines): accumulation steps, leftover dropped
        num = len(collated[0].response_masks)
        acc = max(math.ceil(num / nmb - 0.5), 1)
        keep = num - num % acc
        masks = [list(rank.response_masks[:keep]) for rank in collated]
        out = [[] for _ in range(world)]
        for _ in range(epochs):
            if denominator == "token":
                local = []
                for r in range(world):
                    Dist.seen = []
                    count_tokens(acc, types.SimpleNamespace(response_masks=masks[r]), "cpu")
                    local.append(Dist.seen[0])
                    Dist.seen = None
                total = sum(local)
                tables = []
                for r in range(world):
                    Dist.add = total - local[r]
                    tables.append(count_tokens(acc, types.SimpleNamespace(response_masks=masks[r]), "cpu"))
                    Dist.add = None
            else:
                tables = [{int(gi * acc): float(denominator) for gi in range(keep // acc + 1)} for _ in range(world)]
            for r in range(world):
                for i in range(keep):
                    mask = masks[r][i][:, 1:]
                    denom = tables[r][(i // acc) * acc]
                    logp = torch.zeros(mask.shape, dtype=torch.float64, requires_grad=True)
                    loss = masked_mean(logp, mask, None, denom)
                    loss = loss * (world // 1)  # loss *= world_size // sequence_parallel_size
                    loss = loss / world  # DeepSpeed's gradient mean over the data-parallel ranks
                    loss.backward()
                    grad = logp.grad
                    samples, weights = [], []
                    for row, p in enumerate(rank_packs[r][i]):
                        off = 0
                        for s in packs[p]:
                            # the response of s sits at [off + q, off + L) of the row; [:, 1:] shifts it by one
                            seg = grad[row, off + queries[s] - 1:off + seqlens[s] - 1]
                            assert float(seg.max() - seg.min()) <= 1e-15 * abs(float(seg.max()))
                            assert float(mask[row, off + queries[s] - 1:off + seqlens[s] - 1].sum()) == tokens[s]
                            samples.append(s)
                            weights.append(float(seg[0]))
                            off += seqlens[s]
                    out[r].append({"samples": samples, "weights": weights, "optimizerStep": int((i + 1) % acc == 0)})
        cases.append({"ranks": world, "seqlens": seqlens, "tokens": tokens, "packLength": pack_length, "perDevice": per_device,
                      "numMiniBatches": nmb, "numEpochs": epochs, "lossDenominator": denominator, "seed": seed,
                      "sources": [[s for mb in r for p in mb for s in packs[p]] for r in rank_packs], "microBatches": out})
    commit = subprocess.check_output(["git", "-C", L.CHECKOUT, "rev-parse", "HEAD"], text=True).strip()
    out = {
        "source": "open-instruct pack_sequences, prepare_collated_data_for_workers, calculate_token_counts and masked_mean exec'd from "
                  "the checkout, torch autograd on a float64 leaf; transcribed: PolicyTrainerRayProcess.step's accumulation_steps, "
                  "leftover, batch_start and world-size lines, and DeepSpeed's gradient mean over ranks, because they need DeepSpeed",
        "commit": commit,
        "torch": torch.__version__,
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"{len(cases)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

"""Writes test/fixtures/golden-areal-trainer.json: each token's weight in AReaL's applied update, by autograd.

    /work/golden-venv/bin/python scripts/golden/areal_trainer.py /path/to/AReaL-checkout [out.json]

Made with inclusionAI/AReaL 4aef98d8d818af55b43621aaadba047ae10f4e77 (recorded in the fixture), torch 2.13 CPU.

What runs as AReaL's code (AST-extracted and exec'd; the areal package is not imported):
- areal/utils/functional/functional.py ppo_actor_loss_fn (token-level importance sampling, no rejection sampling), called
  with logprobs a leaf at 0, proximal = old log-probs 0 (ratio 1) and advantages −1, so d loss / d logprobs is the weight;
- areal/engine/core/train_engine.py compute_total_loss_weight (with a stand-in `dist` whose all_reduce writes the sum over
  the ranks) and loss_weight_fn = loss_mask.count_nonzero() as PPOActor._ppo_update passes it.
Transcribed (FSDPEngine needs a GPU and a model): its `loss_scale = local_weight / total_loss_weight * loss_multiplier`
with loss_multiplier = dp_size, and FSDP's gradient mean over dp (÷ dp). Each case splits each rank's minibatch into
seeded random micro-batches: the weight does not depend on the split (checked here over many splits); the split AReaL
makes (split_padded_tensor_dict_into_mb_list) is checked by golden-areal-packing.json.
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


def functions(path, names, extra):
    tree = ast.parse(open(path).read())
    nodes = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    g = {"torch": torch, **extra}
    exec(compile(ast.Module(body=nodes, type_ignores=[]), path, "exec"), g)
    return [g[n] for n in names]


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "../../test/fixtures/golden-areal-trainer.json")
    commit = subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()
    (loss_fn,) = functions(os.path.join(checkout, "areal/utils/functional/functional.py"), ["ppo_actor_loss_fn"],
                           {"RejectionSamplingConfig": type("RejectionSamplingConfig", (), {}), "Any": typing.Any})
    rng = random.Random(4_2026)
    cases = []
    for t in range(40):
        dp = rng.choice([1, 2, 3, 4])
        per = rng.randint(1, 10)
        n = dp * per
        tokens = [rng.choice([0, rng.randint(1, 600)]) if t % 4 == 0 else rng.randint(1, 600) for _ in range(n)]
        width = max(max(tokens), 1)
        mask = torch.zeros(n, width, dtype=torch.bool)
        for i, k in enumerate(tokens):
            mask[i, :k] = True
        ranks = [list(range(r * per, (r + 1) * per)) for r in range(dp)]
        splits = []
        for rank in ranks:
            rows = rank[:]
            rng.shuffle(rows)
            cuts = sorted(rng.sample(range(1, len(rows)), rng.randint(0, len(rows) - 1))) if len(rows) > 1 else []
            splits.append([rows[a:b] for a, b in zip([0] + cuts, cuts + [len(rows)])])
        global_total = float(sum(int(mask[i].count_nonzero()) for i in range(n)))

        class Dist:
            ProcessGroup = None

            @staticmethod
            def all_reduce(t, group=None):
                t.fill_(global_total)

        (total_weight_fn,) = functions(os.path.join(checkout, "areal/engine/core/train_engine.py"), ["compute_total_loss_weight"],
                                       {"dist": Dist, "MicroBatchList": None, "Callable": typing.Callable, "Any": typing.Any})
        logp = torch.zeros(n, width, dtype=torch.float64, requires_grad=True)
        grad = torch.zeros(n, width, dtype=torch.float64)
        for mbs in splits:
            mb_list = types.SimpleNamespace(mbs=[{"loss_mask": mask[mb]} for mb in mbs])
            weight_fn = lambda x: x["loss_mask"].count_nonzero()  # noqa: E731 (PPOActor._ppo_update's)
            if all(int(mask[mb].count_nonzero()) == 0 for mb in mbs) and global_total == 0:
                continue
            total = total_weight_fn(mb_list, weight_fn, None)
            for mb in mbs:
                zeros = torch.zeros(len(mb), width, dtype=torch.float64)
                loss, _ = loss_fn(logprobs=logp[mb], proximal_logprobs=zeros, old_logprobs=zeros,
                                  advantages=-torch.ones(len(mb), width, dtype=torch.float64), eps_clip=0.2, loss_mask=mask[mb])
                local = weight_fn({"loss_mask": mask[mb]})
                loss = loss * (local / total * dp)  # FSDPEngine: loss_scale = local_weight / total_loss_weight * dp_size
                (g,) = torch.autograd.grad(loss, logp)
                grad += g
        grad = grad / dp  # FSDP's mean over dp
        weights = []
        for i in range(n):
            g = grad[i][mask[i]]
            assert g.numel() == 0 or torch.allclose(g, g[0].expand_as(g), rtol=1e-6, atol=0)
            weights.append(float(g[0]) if g.numel() else None)
        cases.append({"ranks": dp, "perRank": per, "completionTokens": tokens, "microBatches": splits, "weights": weights})
    doc = {
        "source": {
            "areal": commit,
            "run": "functional.py ppo_actor_loss_fn and train_engine.py compute_total_loss_weight (AST-extracted); weights by torch autograd",
            "transcribed": "FSDPEngine's loss_scale = local_weight / total_loss_weight * dp_size and FSDP's mean over dp; the micro-batch "
            "split is seeded here (golden-areal-packing.json checks AReaL's own)",
        },
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(cases)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

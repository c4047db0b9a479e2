"""Writes test/fixtures/golden-skyrl-trainer.json: each token's weight in SkyRL's applied update, by autograd.

    /work/golden-venv/bin/python scripts/golden/skyrl_trainer.py /path/to/skyrl-checkout [out.json]

Made with NovaSky-AI/SkyRL a9564572eb8e91076be43c1bd5e4615e3de17265 (recorded in the fixture), torch 2.13 CPU.

What runs as SkyRL's code (AST-extracted from skyrl/backends/skyrl_train/utils/ppo_utils.py and exec'd; the module
imports ray): apply_loss_reduction_to_advantages_minibatch (every loss_reduction) and reduce_loss.
Transcribed (need Ray and a GPU):
- RayPPOTrainer._normalize_advantages (skyrl/train/trainer.py): the loop over mini-batch boundaries (policy_mini_batch_size
  prompts × k samples, contiguous) and the prompt boundaries falling in each mini-batch, rebased;
- the worker's policy loss on a linear per-token loss: elementwise loss = advantages × logp (ratio 1), reduce_loss
  (masked sum), × grad_sum_correction_factor = dp_size, and FSDP's gradient mean over dp (÷ dp). Which rank and micro-batch
  a sample lands in does not change its weight (the workers only sum), so the per-rank micro-batches are checked by
  golden-skyrl-packing.json, not here.
Seeded inputs: completion tokens (loss-mask tokens; some 0), k, prompts, mini-batch sizes, micro sizes, dp, max_seq_len.
"""
import ast
import json
import os
import random
import subprocess
import sys
import typing

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def functions_from(path, names):
    tree = ast.parse(open(path).read())
    nodes = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    g = {"torch": torch, "Optional": typing.Optional, "List": typing.List, "Tuple": typing.Tuple}
    exec(compile(ast.Module(body=nodes, type_ignores=[]), path, "exec"), g)
    return [g[n] for n in names]


def run_case(c, apply, reduce_loss):
    k, n = c["k"], c["prompts"] * c["k"]
    tokens = c["completionTokens"]
    width = max(max(tokens), 1)
    loss_mask = torch.zeros(n, width, dtype=torch.float64)
    for i, t in enumerate(tokens):
        loss_mask[i, width - t :] = 1.0
    advantages = torch.ones(n, width, dtype=torch.float64)
    mini = c["miniBatchPrompts"] * k
    boundaries = [(s, min(s + mini, n)) for s in range(0, n, mini)]
    prompt_boundaries = [(p * k, p * k + k) for p in range(c["prompts"])]
    out = []
    for start, end in boundaries:
        mb_prompts = [(a - start, b - start) for a, b in prompt_boundaries if start <= a < end]
        norm = apply(advantages=advantages[start:end], loss_mask=loss_mask[start:end], loss_reduction=c["loss"],
                      micro_batch_size=c["micro"], max_seq_len=c["maxSeqLen"], prompt_boundaries=mb_prompts)
        logp = torch.zeros(end - start, width, dtype=torch.float64, requires_grad=True)
        loss = reduce_loss(norm * logp, loss_mask[start:end]) * c["dp"]
        (grad,) = torch.autograd.grad(loss, logp)
        grad = grad / c["dp"]
        weights = []
        for j in range(end - start):
            g = grad[j][loss_mask[start + j] > 0]
            assert g.numel() == 0 or torch.allclose(g, g[0].expand_as(g), rtol=1e-12, atol=0)
            weights.append(float(g[0]) if g.numel() else None)
        out.append({"start": start, "weights": weights})
    return out


def cases():
    rng = random.Random(956457)
    out = []
    for loss in ["token_mean", "token_mean_legacy", "sequence_mean", "seq_mean_token_sum_norm", "prompt_mean"]:
        for _ in range(8):
            k = rng.choice([1, 2, 3, 4])
            prompts = rng.choice([2, 4, 6, 8])
            mini = rng.choice([p for p in range(1, prompts + 1) if prompts % p == 0] + [3])
            c = dict(loss=loss, k=k, prompts=prompts, miniBatchPrompts=min(mini, prompts), dp=rng.choice([1, 2, 4]),
                     micro=rng.choice([1, 2, 3]), maxSeqLen=rng.choice([512, 1024, 4096]))
            c["completionTokens"] = [rng.choice([0, rng.randint(1, 40), rng.randint(1, 900)]) for _ in range(prompts * k)]
            out.append(c)
    return out


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "../../test/fixtures/golden-skyrl-trainer.json")
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    apply, reduce_loss = functions_from(os.path.join(checkout, "skyrl/backends/skyrl_train/utils/ppo_utils.py"),
                                        ["apply_loss_reduction_to_advantages_minibatch", "reduce_loss"])
    results = [{"config": c, "miniBatches": run_case(c, apply, reduce_loss)} for c in cases()]
    doc = {
        "source": {
            "skyrl": commit,
            "run": "ppo_utils.py apply_loss_reduction_to_advantages_minibatch and reduce_loss (AST-extracted); weights by torch autograd (float64)",
            "transcribed": "RayPPOTrainer._normalize_advantages' mini-batch and prompt boundaries; the worker's advantages × logp "
            "(ratio 1) loss, × dp_size, and FSDP's mean over dp (need Ray and a GPU)",
        },
        "cases": results,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(results)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

"""Writes test/fixtures/golden-prime-rl-trainer.json: each token's weight in prime-rl's applied update, by autograd.

    /work/golden-venv/bin/python scripts/golden/prime_rl_trainer.py CHECKOUT [out.json]

(needs msgspec in the venv, as prime_rl_layout.py). Made with PrimeIntellect-ai/prime-rl
559b44772e471d1538537b8805cc77f3824a5e64 (the commit is recorded in the fixture), torch 2.13 CPU.

Runs as prime-rl's own code (helpers of scripts/golden/prime_rl_layout.py, which loads trainer/batch.py as a module):
- trainer/batch.py prepare_batch with build_bin_cost(None): each rank's packed micro-batches, truncation to seq_len
  included; samples are a prompt (mask False) then a completion (mask True), token ids 100 + sample id;
- trainer/rl/loss.py compute_loss (with LossInputs / LossOutputs), per micro-batch, on the sequences of the packed row,
  with an rl loss fn whose per-token loss is the trainer logprob on the loss mask (the sandbox's loss, linear in a
  float64 leaf `logp`, requires_grad), so d loss / d logp is each token's weight.
Transcribed (named, because trainer/rl/train.py needs CUDA, FSDP and a model): its lines
local_rl_scale += int(mask.sum()) over the rank's micro-batches, dist.all_reduce(SUM) over the dp_cp group, and
rl_scale = max(scale, 1); FSDP's gradient mean over the ranks (÷ dp size) and scale_gradients_ by
fsdp_gradient_divide_factor (× dp size, CP 1); one optimizer step per training step.
"""
import ast
import importlib.util
import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("prime_rl_layout_helpers", os.path.join(HERE, "prime_rl_layout.py"))
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)


class _Typed:
    """jaxtyping's Float / Bool / Int stand-in: subscriptable, annotation only."""

    def __class_getitem__(cls, _):
        return cls


def load_loss():
    g = {"dataclass": dataclass, "field": field, "Any": Any, "Callable": Callable, "torch": torch,
         "Tensor": torch.Tensor, "Float": _Typed, "Bool": _Typed, "Int": _Typed,
         "LossFn": Callable}
    path = P.SRC / "trainer/rl/loss.py"
    tree = ast.parse(path.read_text())
    tree.body = [n for n in tree.body if getattr(n, "name", None) in {"LossInputs", "LossOutputs", "compute_loss"}]
    for n in tree.body:
        n.decorator_list = [d for d in n.decorator_list if ast.unparse(d) == "dataclass"]
    exec(compile(tree, str(path), "exec"), g)
    return g


def main():
    g = load_loss()
    compute_loss, LossOutputs = g["compute_loss"], g["LossOutputs"]

    def rl_fn(inputs):
        return LossOutputs(loss=(inputs.trainer_logprobs * inputs.loss_mask).sum(), metrics={})

    rng = random.Random(20261129)
    cases = []
    for ci in range(40):
        world = [1, 2, 4, 3][ci % 4]
        n = rng.choice([4, 8, 12, 20])
        seq_len = rng.choice([256, 512, 1024])
        prompts = [rng.randint(4, 60) for _ in range(n)]
        completions = [rng.randint(0 if ci % 9 == 4 else 1, 500) for _ in range(n)]
        samples = [P.TrainingSample(token_ids=[100 + i] * (p + c), mask=[False] * p + [True] * c, logprobs=[0.0] * (p + c),
                                    temperatures=[1.0] * (p + c), env_name="env", advantages=[0.5] * (p + c))
                   for i, (p, c) in enumerate(zip(prompts, completions))]
        per_rank = P.batch.prepare_batch(samples, seq_len, world, P.BIN_COST, 1)
        # train.py: local_rl_scale over the rank's micro-batches, all-reduced, max(., 1)
        local = [sum(int(sum(mb.loss_mask)) for mb in rank) for rank in per_rank]
        rl_scale = max(sum(local), 1)
        out = []
        for r, rank in enumerate(per_rank):
            mbs = []
            for mb in rank:
                logp = torch.zeros(len(mb.input_ids), dtype=torch.float64, requires_grad=True)
                mask = torch.tensor(mb.loss_mask, dtype=torch.bool)
                lens = list(mb.sequence_lengths)
                t_logps = list(torch.split(logp, lens))
                masks = list(torch.split(mask, lens))
                zeros = [torch.zeros(k, dtype=torch.float64) for k in lens]
                loss, _ = compute_loss(trainer_logprobs=t_logps, inference_logprobs=zeros, ref_logprobs=None, advantages=zeros,
                                       loss_mask=masks, rl_weights=None, ce_weights=None, ref_kl_weights=None, rl_loss_fn=rl_fn,
                                       rl_scale=rl_scale, ce_scale=1, ref_kl_scale=1)
                loss = loss / world  # FSDP's gradient mean over the data-parallel ranks
                loss = loss * world  # scale_gradients_(…, fsdp_gradient_divide_factor)
                loss.backward()
                ids, weights, start = [], [], 0
                dummy = P.decode(mb) is None  # a zero-loss copy of the first bin, added to fill the ranks
                for k in lens:
                    seg_mask = mask[start:start + k]
                    seg = logp.grad[start:start + k]
                    assert float(seg[~seg_mask].abs().sum()) == 0.0
                    if not dummy:
                        w = seg[seg_mask]
                        assert len(w) == 0 or float(w.max() - w.min()) <= 1e-15 * abs(float(w.max()))
                        ids.append(mb.input_ids[start] - 100)
                        weights.append(float(w[0]) if len(w) else 0.0)
                    start += k
                mbs.append({"samples": ids, "weights": weights})
            out.append(mbs)
        cases.append({"ranks": world, "seqLen": seq_len, "prompts": prompts, "completions": completions, "microBatches": out,
                      "rlScale": rl_scale})
    commit = subprocess.check_output(["git", "-C", str(P.CHECKOUT), "rev-parse", "HEAD"], text=True).strip()
    data = {
        "source": "prime-rl trainer/batch.py prepare_batch and trainer/rl/loss.py compute_loss exec'd from the checkout, torch autograd "
                  "on a float64 leaf; transcribed: train.py's rl_scale (loss-mask tokens of every micro-batch on all ranks, max 1) and "
                  "FSDP's gradient mean undone by fsdp_gradient_divide_factor, because they need CUDA and FSDP",
        "commit": commit,
        "torch": torch.__version__,
        "cases": cases,
    }
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "test", "fixtures", "golden-prime-rl-trainer.json")
    with open(out_path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"{len(cases)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

"""Writes test/fixtures/golden-steps-dance-grpo.json: each sample's weight in DanceGRPO's applied updates, by autograd.

    /work/golden-venv/bin/python scripts/golden/dance_grpo_steps.py [out.json]

TRANSCRIBED, not exec'd: no DanceGRPO checkout is mirrored here, and its train_one_step needs a Flux transformer, a VAE,
a reward model and CUDA. The loop below restates XueZeyue/DanceGRPO 22b85efe5312089f07c027d5ba94db168656c9dc,
fastvideo/train_grpo_flux.py train_one_step (read from the stored public file), with torch doing the arithmetic:
- optimizer.zero_grad() at the start of each training step (so a short last window of the previous step is dropped);
- use_group: the rank's train_batch_size prompts repeat_interleave'd num_generations times; advantages per group of
  num_generations: (r - mean) / (std (unbiased) + 1e-8), clamped to ±adv_clip_max;
- samples_batched_list: one sample per micro-batch, in the rank's order; for each of train_timesteps timesteps:
  ratio = exp(new_log_probs - old log_probs), loss = mean(max(-A·ratio, -A·clamp(ratio, 1 - clip_range, 1 + clip_range)))
  / (gradient_accumulation_steps × train_timesteps), loss.backward();
- if (i + 1) % gradient_accumulation_steps == 0: optimizer.step() (here: the gradients are recorded, then zeroed);
- FSDP averages the gradients over the ranks (÷ W).
new_log_probs = old + θ[i] with a float64 leaf θ (one per sample) at 0, so ratio = 1 (the first window) and
d loss / d θ[i] = -A[i] × the sample's weight; the weight recorded is grad / -A.
"""
import json
import os
import random
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def rank_windows(rewards, k, ga, timesteps, ranks, clip_range=1e-4, adv_clip_max=5.0):
    """One rank's training step: the applied windows (positions and weights) and the dropped positions."""
    r = torch.tensor(rewards, dtype=torch.float64)
    adv = torch.zeros_like(r)
    for g in range(len(rewards) // k):
        grp = r[g * k:(g + 1) * k]
        adv[g * k:(g + 1) * k] = (grp - grp.mean()) / (grp.std() + 1e-8)
    theta = torch.zeros(len(rewards), dtype=torch.float64, requires_grad=True)
    old = torch.zeros(len(rewards), dtype=torch.float64)
    windows, current = [], []
    for i in range(len(rewards)):
        for _ in range(timesteps):
            a = torch.clamp(adv[i:i + 1], -adv_clip_max, adv_clip_max)
            ratio = torch.exp((old[i] + theta[i]) - old[i]).reshape(1)
            unclipped = -a * ratio
            clipped = -a * torch.clamp(ratio, 1.0 - clip_range, 1.0 + clip_range)
            loss = torch.mean(torch.maximum(unclipped, clipped)) / (ga * timesteps)
            loss.backward()
        current.append(i)
        if (i + 1) % ga == 0:
            grad = theta.grad / ranks  # FSDP's mean over the ranks
            a = torch.clamp(adv, -adv_clip_max, adv_clip_max)
            windows.append({"positions": list(current), "weights": [float(grad[j] / -a[j]) for j in current]})
            theta.grad = None
            current = []
    return windows, current


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "test", "fixtures", "golden-steps-dance-grpo.json")
    rng = random.Random(20261129)
    cases = []
    for ci in range(24):
        ranks = [1, 2, 4][ci % 3]
        k = rng.choice([2, 3, 4])
        prompts = rng.choice([1, 2, 3])
        ga = rng.choice([1, 2, 3, 4, 5])
        timesteps = rng.choice([1, 3, 8])
        n = prompts * k
        per_rank = []
        for _ in range(ranks):
            rewards = [round(rng.uniform(0, 1), 4) for _ in range(n)]
            windows, dropped = rank_windows(rewards, k, ga, timesteps, ranks)
            per_rank.append({"windows": windows, "dropped": dropped})
        cases.append({"ranks": ranks, "k": k, "batch": n, "gradientAccumulationSteps": ga, "trainTimesteps": timesteps,
                      "perRank": per_rank})
    data = {
        "source": "transcribed: XueZeyue/DanceGRPO 22b85ef fastvideo/train_grpo_flux.py train_one_step's loop (zero_grad per step, "
                  "one sample per micro-batch, loss / (GA × train_timesteps) per timestep, optimizer.step every GA samples), "
                  "restated with torch autograd because the file was read from the stored public copy (no checkout) and needs a "
                  "diffusion model; FSDP's mean over ranks transcribed too",
        "commit": "22b85efe5312089f07c027d5ba94db168656c9dc",
        "torch": torch.__version__,
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"{len(cases)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

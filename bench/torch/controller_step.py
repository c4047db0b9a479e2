"""The seed-003 controller's GRPO training step in PyTorch eager on the CPU: what a researcher
would write instead of the sandbox's step (src/train/step.ts + policy.ts), at the same shapes.

Two Linear+tanh trunks, four heads (tier | insertion from stage 1, top-K | knob 3 from stage 2),
a masked softmax on knob 3, sampling, the one-hot insertion fed to stage 2, the simulated reward,
group advantages (TRL's scale_rewards="group"), the DAPO loss with clipping (on-policy: old
log-probs = detached current ones), backward, clip_grad_norm_(1.0) and Adam(lr=3e-3).

Prints one JSON object: {"msPerStep" (the mean of the timed steps), "medianMsPerStep", "stepsPerSecond", "threads", "torch", ...}.
Run: python3 bench/torch/controller_step.py --prompts 256 --k 8 --d-model 32 --hidden 32
"""

import argparse
import json
import time

import torch
import torch.nn.functional as F

TIER_CROPS = torch.tensor([3.0, 6.0, 12.0])
KNOB3_WIDTH = 16


def knob3_mask(insertion):
    """Valid knob-3 options n per row, given insertion index (p = index + 1): 12 <= p + n <= 16."""
    p = (insertion + 1).unsqueeze(1)
    n = torch.arange(KNOB3_WIDTH).unsqueeze(0)
    total = p + n
    return (total >= 12) & (total <= 16)


def reward(tier, insertion, top_k, knob3, difficulty, budget_ms):
    """The simulated accuracy minus the over-budget penalty (src/core/env/controller.ts configReward)."""
    crops = TIER_CROPS[tier]
    p = (insertion + 1).float()
    k = (top_k + 4).float()
    blocks = p + knob3.float()
    quality = 0.12 * crops + 0.15 * (k - 4) + 0.2 * (blocks - 12) + 0.05 * (p - 1)
    accuracy = 1 - difficulty * torch.exp(-quality)
    latency = p + 1.5 * crops + (blocks - p) * (1 + 0.15 * k)
    return accuracy - 0.05 * torch.clamp(latency - budget_ms, min=0)


class Controller(torch.nn.Module):
    def __init__(self, d_model, hidden):
        super().__init__()
        self.trunk1 = torch.nn.Linear(2 * d_model, hidden)
        self.heads1 = torch.nn.Linear(hidden, 3 + 5)
        self.trunk2 = torch.nn.Linear(d_model + 5, hidden)
        self.heads2 = torch.nn.Linear(hidden, 5 + KNOB3_WIDTH)


def sample(logits):
    logp_all = F.log_softmax(logits, dim=-1)
    action = torch.multinomial(logp_all.exp(), 1).squeeze(1)
    return action, logp_all.gather(1, action.unsqueeze(1)).squeeze(1)


def trunk(linear, x, ids, distinct):
    """tanh(linear(x)) per row; with `distinct`, once per distinct input id (rows with the same id
    have the same input) and indexed back to the rows, as the sandbox's step does
    (src/train/distinct-rows.ts); autograd sums each input's rows in the weight gradient."""
    if not distinct:
        return torch.tanh(linear(x))
    unique, inverse = torch.unique(ids, return_inverse=True)
    first = torch.empty_like(unique).scatter_(0, inverse, torch.arange(len(ids)))
    return torch.tanh(linear(x[first]))[inverse]


def train_step(model, opt, x1, latency_token, difficulty, budget_ms, k, eps=0.2, distinct=False):
    # Rollout and scoring in one pass (on-policy: the log-probs are both new and old).
    prompt = torch.arange(len(x1)) // k
    heads1 = model.heads1(trunk(model.trunk1, x1, prompt, distinct))
    tier, lp_tier = sample(heads1[:, :3])
    insertion, lp_ins = sample(heads1[:, 3:])
    x2 = torch.cat([latency_token, F.one_hot(insertion, 5).float()], dim=1)
    heads2 = model.heads2(trunk(model.trunk2, x2, prompt * 5 + insertion, distinct))
    top_k, lp_topk = sample(heads2[:, :5])
    knob3_logits = heads2[:, 5:].masked_fill(~knob3_mask(insertion), float("-inf"))
    knob3, lp_knob3 = sample(knob3_logits)
    logp = torch.stack([lp_tier, lp_ins, lp_topk, lp_knob3], dim=1)  # rows × 4 tokens
    with torch.no_grad():
        r = reward(tier, insertion, top_k, knob3, difficulty.repeat_interleave(k), budget_ms.repeat_interleave(k))
        groups = r.view(-1, k)
        adv = ((groups - groups.mean(1, keepdim=True)) / (groups.std(1, keepdim=True) + 1e-4)).view(-1, 1)
    # DAPO: clipped surrogate, token-level mean over the batch.
    ratio = torch.exp(logp - logp.detach())
    per_token = -torch.min(ratio * adv, torch.clamp(ratio, 1 - eps, 1 + eps) * adv)
    loss = per_token.sum() / per_token.numel()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    return loss, r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prompts", type=int, default=256)
    ap.add_argument("--k", type=int, default=8)
    ap.add_argument("--d-model", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: PyTorch's default)")
    ap.add_argument(
        "--distinct-inputs",
        action="store_true",
        help="run each trunk once per distinct input row (the k copies of a prompt share stage 1's), as the sandbox does",
    )
    a = ap.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    d = a.d_model
    model = Controller(d, a.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    difficulty = torch.rand(a.prompts)
    budget_ms = 20 + 30 * torch.rand(a.prompts)
    x1 = torch.randn(a.prompts, 2 * d).repeat_interleave(a.k, dim=0)
    latency_token = torch.randn(a.prompts, d).repeat_interleave(a.k, dim=0)
    for _ in range(a.warmup):
        train_step(model, opt, x1, latency_token, difficulty, budget_ms, a.k, distinct=a.distinct_inputs)
    times = []
    for _ in range(a.steps):
        t0 = time.perf_counter()
        loss, r = train_step(model, opt, x1, latency_token, difficulty, budget_ms, a.k, distinct=a.distinct_inputs)
        loss.item()  # the step is synchronous on the CPU; read the loss like a training loop logs it
        times.append(time.perf_counter() - t0)
    # The mean, as the sandbox's bench takes train()'s steps (steps per second over the timed steps).
    ms = 1000 * sum(times) / len(times)
    median_ms = 1000 * sorted(times)[len(times) // 2]
    print(json.dumps({
        "msPerStep": ms,
        "medianMsPerStep": median_ms,
        "stepsPerSecond": 1000 / ms,
        "threads": torch.get_num_threads(),
        "torch": torch.__version__,
        "prompts": a.prompts, "k": a.k, "dModel": d, "hidden": a.hidden, "distinctInputs": a.distinct_inputs,
        "meanReward": float(r.mean()),
    }))


if __name__ == "__main__":
    main()

"""Writes test/fixtures/golden-areal-advantages.json: AReaL's advantages for GRPO rewards, by its own code.

    /work/golden-venv/bin/python scripts/golden/areal_advantages.py /work/checkouts/areal [out.json]

Made with inclusionAI/AReaL 4aef98d8d818af55b43621aaadba047ae10f4e77 (recorded in the fixture), torch 2.13 CPU.
What runs as AReaL's code (exec'd from the checkout, see scripts/golden/areal_exec.py): areal/trainer/ppo/actor.py
PPOActor._compute_advantages (reward bias/scaling/clip, reward_norm, KL-shaped token rewards, GAE, adv_norm) with
areal/utils/data.py Normalization and KLEstimator, NormConfig from areal/api/cli_args.py, on a stand-in `self`
holding the PPOActor.__init__ attributes for the config (kl_ctl 0, discount 1, gae_lambda 1: the GRPO example).
Each sample is one prompt token and `responseLength` response tokens (equal for every sample); the advantage of
the first response token is recorded (all of a sample's response tokens carry the same value). One process, so
batch-level normalisation is over the whole batch (AReaL all-reduces it over the data-parallel group).
Transcribed: nothing.
"""
import json
import os
import sys
import types

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import areal_exec  # noqa: E402

SCHEMES = {
    # examples/math/gsm8k_grpo.yaml: reward_norm group mean/std (group_size = n_samples), adv_norm batch mean/std.
    "areal": {"reward_norm": {"mean_level": "group", "std_level": "group"}, "adv_norm": {"mean_level": "batch", "std_level": "batch"}},
    # examples/math/gsm8k_drgrpo.yaml: group mean only, then batch adv_norm.
    "areal-drgrpo": {"reward_norm": {"mean_level": "group", "std_level": None}, "adv_norm": {"mean_level": "batch", "std_level": "batch"}},
    # examples/math/gsm8k_rloo.yaml: leave-one-out group mean, no std, then batch adv_norm.
    "areal-rloo": {"reward_norm": {"mean_level": "group", "mean_leave1out": True, "std_level": None},
                   "adv_norm": {"mean_level": "batch", "std_level": "batch"}},
    # examples/math/gsm8k_liteppo.yaml: group mean, batch std, then batch adv_norm.
    "areal-liteppo": {"reward_norm": {"mean_level": "group", "std_level": "batch"}, "adv_norm": {"mean_level": "batch", "std_level": "batch"}},
}


def advantages(m, actor_fn, rewards, k, scheme, bias, scaling, clip, length, unbiased=True, eps=1e-5):
    norm = lambda c, g: m.data["Normalization"](m.cfg["NormConfig"](**c, group_size=g, std_unbiased=unbiased, eps=eps)) if c else None
    s = SCHEMES[scheme]
    self = types.SimpleNamespace(
        config=types.SimpleNamespace(overlong_reward_penalty=False, use_decoupled_loss=True, recompute_logprob=True),
        reward_bias=bias, reward_scaling=scaling, reward_clip=clip,
        reward_norm=norm(s["reward_norm"], k), adv_norm=norm(s["adv_norm"], 1),
        kl_ctl=0.0, kl_estimator=m.data["KLEstimator"]("k1"), discount=1.0, gae_lambda=1.0, mask_no_eos_with_zero=False)
    n = len(rewards)
    seqlen = 1 + length
    data = {
        "input_ids": torch.zeros(n, seqlen, dtype=torch.int32),
        "attention_mask": torch.ones(n, seqlen, dtype=torch.bool),
        "loss_mask": torch.tensor([[0] + [1] * length] * n, dtype=torch.int32),
        "logprobs": torch.zeros(n, seqlen, dtype=torch.float32),
        "rewards": torch.tensor(rewards, dtype=torch.float32),
    }
    out = actor_fn(self, data)
    adv = out["advantages"]
    assert all(torch.equal(adv[:, 0], adv[:, t]) for t in range(length))
    return [None if not np.isfinite(v) else float(v) for v in adv[:, 0].tolist()]


def main():
    checkout = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-areal-advantages.json")
    m = areal_exec.load_areal(checkout)
    actor = areal_exec.exec_file(f"{checkout}/areal/trainer/ppo/actor.py", names=["_compute_advantages"], cls="PPOActor",
                                 extra={"reward_overlong_penalty": None})
    actor_fn = actor["_compute_advantages"]
    cases = []
    for seed in range(40):
        rs = np.random.RandomState(seed)
        k = int(rs.choice([1, 2, 4, 8]))
        groups = int(rs.randint(1, 7))
        n = k * groups + (1 if seed == 7 else 0)  # seed 7: a batch that is not a whole number of groups
        kind = seed % 4
        if kind == 0:
            rewards = [float(v) for v in rs.randint(0, 2, size=n)]
        elif kind == 1:
            rewards = [float(np.float32(v)) for v in rs.randn(n)]
        elif kind == 2:
            rewards = [float(v) for v in rs.choice([0.0, 1.0, 5.0], size=n)]
        else:
            rewards = [1.0] * n
        bias, scaling, clip = (-0.5, 10.0, 20.0) if seed % 3 == 0 else ((0.0, 1.0, 20.0) if seed % 3 == 1 else (0.25, 30.0, 5.0))
        length = 1 if seed % 5 else int(rs.randint(2, 6))
        for scheme in SCHEMES:
            cases.append({"scheme": scheme, "k": k, "rewards": rewards, "rewardBias": bias, "rewardScaling": scaling,
                          "rewardClip": clip, "responseLength": length, "stdUnbiased": True, "eps": 1e-5,
                          "advantages": advantages(m, actor_fn, rewards, k, scheme, bias, scaling, clip, length)})
    for unbiased, eps in [(False, 1e-5), (True, 1e-6)]:
        rewards = [0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0]
        cases.append({"scheme": "areal", "k": 4, "rewards": rewards, "rewardBias": -0.5, "rewardScaling": 10.0, "rewardClip": 20.0,
                      "responseLength": 1, "stdUnbiased": unbiased, "eps": eps,
                      "advantages": advantages(m, actor_fn, rewards, 4, "areal", -0.5, 10.0, 20.0, 1, unbiased, eps)})
    fixture = {
        "source": "AReaL's PPOActor._compute_advantages with Normalization/KLEstimator/NormConfig exec'd from the checkout "
                  "(scripts/golden/areal_advantages.py); transcribed: nothing",
        "commit": areal_exec.commit_of(checkout), **areal_exec.versions(), "cases": cases,
    }
    with open(out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
    print(out, len(cases), "cases", os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()

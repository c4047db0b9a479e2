"""Writes test/fixtures/golden-easyr1-advantages.json by running EasyR1's own advantage estimators.

    /work/golden-venv/bin/python scripts/golden/easyr1_advantages.py /path/to/EasyR1-checkout [out.json]

Made with hiyouga/EasyR1 b44b311b669bf1fd1aa2fc36f2251482ba33cb16 (recorded in the fixture), torch 2.13 CPU.
What runs as EasyR1's code: verl/trainer/core_algos.py's ADV_ESTIMATOR_MAP entries `grpo`
(compute_grpo_outcome_advantage), `rloo` and `grpo_passk`, exec'd from the checkout (easyr1_exec.py), called
as ray_trainer.compute_advantage calls them: token_level_rewards (bs, 4) float32 with the reward on the last
token, response_mask of ones, index = the uid strings (one uid per prompt draw), rows in a shuffled order (as
after _balance_batch). Nothing is transcribed. `exact` cases have rewards that are small multiples of 1/4
(float32 sums exact in any order); the others have continuous rewards, whose float32 mean depends on torch's
vectorised summation order on the CPU it ran on.
"""
import json
import os
import sys
import uuid

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from easyr1_exec import EasyR1  # noqa: E402

SCHEMES = ["grpo", "rloo", "grpo_passk"]


def run(fn, rewards, prompt_ids):
    uids = {p: str(uuid.uuid4()) for p in set(prompt_ids)}
    index = np.array([uids[p] for p in prompt_ids], dtype=object)
    bs = len(rewards)
    tlr = torch.zeros(bs, 4, dtype=torch.float32)
    tlr[:, -1] = torch.tensor(rewards, dtype=torch.float32)
    mask = torch.ones(bs, 4, dtype=torch.float32)
    try:
        adv, _ = fn(token_level_rewards=tlr, response_mask=mask, index=index, gamma=1.0, lam=1.0)
    except AssertionError as err:
        return {"error": str(err)}
    a = adv[:, -1].tolist()
    return {"advantages": [None if x != x else x for x in a]}


def main():
    e = EasyR1(sys.argv[1])
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-easyr1-advantages.json")
    algos = e.core_algos()
    rng = np.random.default_rng(730)
    cases = []
    for t in range(90):
        k = int(rng.integers(2, 9))
        prompts = int(rng.integers(1, 7))
        kind = ["binary", "quarters", "continuous"][t % 3]
        ids = [p * 3 + 1 for p in range(prompts) for _ in range(k)]
        if kind == "binary":
            r = rng.integers(0, 2, size=len(ids)).astype(float)
            if t % 6 == 0:
                r[:k] = 1.0  # an all-correct group
        elif kind == "quarters":
            r = rng.integers(-8, 9, size=len(ids)) / 4.0
        else:
            r = rng.normal(size=len(ids)) * float(rng.choice([1.0, 0.1, 5.0]))
        r = [float(np.float32(x)) for x in r]
        order = rng.permutation(len(ids))
        rewards = [r[i] for i in order]
        pids = [ids[i] for i in order]
        cases.append({"k": k, "exact": kind != "continuous", "rewards": rewards, "promptIds": pids})
    # a group of one (a prompt whose other copies were filtered or cut off)
    cases.append({"k": 2, "exact": True, "rewards": [1.0, 0.0, 1.0], "promptIds": [5, 5, 9]})
    cases.append({"k": 1, "exact": True, "rewards": [1.0, 0.0], "promptIds": [5, 9]})
    for c in cases:
        c["out"] = {s: run(algos["ADV_ESTIMATOR_MAP"][s], c["rewards"], c["promptIds"]) for s in SCHEMES}
    doc = {
        "source": "exec'd from the EasyR1 checkout: verl/trainer/core_algos.py ADV_ESTIMATOR_MAP grpo, rloo, grpo_passk (torch float32)",
        "commit": e.commit,
        "torch": torch.__version__,
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(out_path, len(cases), "cases", os.path.getsize(out_path), "bytes")


if __name__ == "__main__":
    main()

"""Writes test/fixtures/golden-nemo-rl-advantages.json by running NeMo RL's GRPO advantage code from a checkout.

    /work/golden-venv/bin/python scripts/golden/nemo-rl_advantages.py /path/to/nemo-rl-checkout [out.json]

Made with NVIDIA-NeMo/RL 7ea279abfbeb698b092856d0dab61e7cf39bc909 (recorded in the fixture) and torch 2.13 CPU.

What runs as NeMo RL's code: nemo_rl/algorithms/utils.py calculate_baseline_and_std_per_prompt and
nemo_rl/algorithms/advantage_estimator.py GRPOAdvantageEstimator (class source exec'd; the module's imports of
pydantic configs and the loss are replaced by a plain config object), called as grpo_train calls it:
compute_advantage(prompt_ids=<prompt token ids>, rewards, mask=<ones>), taking column 0 of the result.
Settings: use_leave_one_out_baseline True (scheme nemo-rl, NeMo's default) and False (nemo-rl-no-loo);
normalize_rewards True (the default) in both.
Prompt identity is content: each prompt id becomes a row of token ids [id, id + 1000, 7]; the same id in two
places is the same prompt (torch.unique(dim=0) groups them), as NeMo does with repeated prompt text.
Precision: NeMo runs this in float32 (rewards and its `1 - torch.eye(n)` mask share the default dtype); the
script sets torch.set_default_dtype(torch.float64) and passes float64 rewards, so the same code runs in doubles,
which is what the sandbox computes.
Nothing is transcribed.
"""
import ast
import json
import os
import random
import subprocess
import sys
from types import SimpleNamespace

import torch


def load(path, names, g):
    tree = ast.parse(open(path).read())
    nodes = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    assert {n.name for n in nodes} == set(names), names
    exec(compile(ast.Module(body=nodes, type_ignores=[]), path, "exec"), g)
    return g


def reward_sets():
    rng = random.Random(7)
    out = []

    def add(rewards, prompt_ids, k):
        out.append({"rewards": [float(r) for r in rewards], "promptIds": prompt_ids, "k": k})

    # hand-made: ties, all-equal, binary, a group of 1, a group of 2, a prompt drawn twice, uneven groups
    add([1, 0, 1, 1], [0, 0, 0, 0], 4)
    add([0.5, 0.5, 0.5, 0.5, 1, 0, 0, 0], [0, 0, 0, 0, 1, 1, 1, 1], 4)
    add([0.3, 0.7], [3, 3], 2)
    add([0.3, 0.7, 0.9], [3, 3, 4], 2)
    add([1, 1, 0, 0, 1, 0], [0, 0, 1, 1, 0, 1], 2)  # prompt 0 and 1 each drawn twice: one group of 4 each
    add([0.1, 0.1, 0.1], [5, 5, 5], 3)
    add([0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2], [9] * 8, 8)
    add([2.5], [0], 1)
    add([1, 0, 0, 0, 0, 0, 0, 0], [1] * 8, 8)
    add([1e-3, 2e-3, 1e-3, 1e-3], [0, 0, 0, 0], 4)
    add([0, 1, 0, 1, 1, 1, 0, 0, 1], [0, 0, 0, 1, 1, 1, 2, 2, 2], 3)
    add([-1, 2, 3.5, -0.25, 7, 7], [4, 2, 4, 2, 4, 2], 3)
    # random: k in 2..16, continuous, binary and tied rewards, shuffled positions, repeated prompts
    for i in range(60):
        k = rng.choice([2, 3, 4, 5, 8, 16])
        prompts = rng.randint(1, 6)
        ids = [p for p in range(prompts) for _ in range(k)]
        kind = i % 4
        if kind == 0:
            rewards = [rng.random() for _ in ids]
        elif kind == 1:
            rewards = [float(rng.random() < 0.4) for _ in ids]
        elif kind == 2:
            rewards = [rng.choice([0.0, 0.25, 0.5, 1.0]) for _ in ids]
        else:
            rewards = [round(rng.gauss(0, 3), 3) for _ in ids]
        if i % 5 == 0:
            ids = [rng.randrange(prompts) for _ in ids]  # some prompts drawn more often, some groups of 1
        if i % 7 == 0:
            order = list(range(len(ids)))
            rng.shuffle(order)
            ids = [ids[j] for j in order]
            rewards = [rewards[j] for j in order]
        add(rewards, ids, k)
    return out


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-nemo-rl-advantages.json")
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    torch.set_default_dtype(torch.float64)  # NeMo's float32 path, in doubles (see the docstring)
    g = {"torch": torch}
    load(os.path.join(checkout, "nemo_rl/algorithms/utils.py"), ["calculate_baseline_and_std_per_prompt"], g)
    g.update({"AdvEstimatorConfig": object, "ClippedPGLossConfig": object})
    load(os.path.join(checkout, "nemo_rl/algorithms/advantage_estimator.py"), ["GRPOAdvantageEstimator"], g)
    cases = []
    for c in reward_sets():
        rewards = torch.tensor(c["rewards"], dtype=torch.float64)
        prompts = torch.tensor([[p, p + 1000, 7] for p in c["promptIds"]], dtype=torch.int64)
        mask = torch.ones(len(c["rewards"]), 3, dtype=torch.float64)
        rec = dict(c)
        for scheme, loo in (("nemo-rl", True), ("nemo-rl-no-loo", False)):
            est = g["GRPOAdvantageEstimator"](SimpleNamespace(use_leave_one_out_baseline=loo, normalize_rewards=True), None)
            adv = est.compute_advantage(prompt_ids=prompts, rewards=rewards, mask=mask)[:, 0]
            rec[scheme] = [None if v != v else v for v in adv.tolist()]
        cases.append(rec)
    doc = {
        "source": {
            "nemo-rl": commit,
            "run": "nemo_rl/algorithms/utils.py calculate_baseline_and_std_per_prompt; nemo_rl/algorithms/advantage_estimator.py "
            "GRPOAdvantageEstimator.compute_advantage, under torch.set_default_dtype(float64) (NeMo runs it in float32)",
            "transcribed": "nothing",
        },
        "versions": {"torch": torch.__version__, "python": sys.version.split()[0]},
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(cases)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

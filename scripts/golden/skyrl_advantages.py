"""Writes test/fixtures/golden-skyrl-advantages.json by running SkyRL's advantage estimators from a checkout.

    /work/golden-venv/bin/python scripts/golden/skyrl_advantages.py /path/to/SkyRL-checkout [out.json]

Made with NovaSky-AI/SkyRL a9564572eb8e91076be43c1bd5e4615e3de17265 (recorded in the fixture), torch 2.13 CPU.

What runs as SkyRL's code: skyrl/backends/skyrl_train/utils/ppo_utils.py compute_grpo_outcome_advantage
(epsilon 1e-6, grpo_norm_by_std True and False) and compute_rloo_outcome_advantage, exec'd from the checkout
(the module itself imports ray and jaxtyping; its `from loguru import logger` inside the RLOO function gets a
stand-in module that records the warnings). Inputs are built as the trainer builds them: float32 token-level
rewards with the response-level reward on the last token (preprocess.py convert_prompts_responses_to_batch_tensors),
response_mask of ones, index = np.array(uids) with uid = str(dataset index) (PromptDataset.__getitem__).
Each sample's advantage is read at its last token. Nothing is transcribed.
"""
import ast
import json
import os
import random
import subprocess
import sys
import types
from collections import defaultdict

import numpy as np
import torch

WARNINGS = []


class _Logger:
    def warning(self, msg):
        WARNINGS.append(msg)


def load(checkout):
    path = os.path.join(checkout, "skyrl/backends/skyrl_train/utils/ppo_utils.py")
    tree = ast.parse(open(path).read())
    names = {"compute_grpo_outcome_advantage", "compute_rloo_outcome_advantage"}
    nodes = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    for n in nodes:
        n.decorator_list = []  # the registry decorator needs ray; the function is what the registry calls
    assert {n.name for n in nodes} == names
    sys.modules["loguru"] = types.SimpleNamespace(logger=_Logger())
    g = {"torch": torch, "np": np, "defaultdict": defaultdict, "__name__": "skyrl_exec"}
    exec(compile(ast.Module(body=nodes, type_ignores=[]), path, "exec"), g)
    return g


def f32(x):
    return float(np.float32(x))


def run(g, rewards, prompt_ids, k):
    length = 3
    tok = torch.zeros(len(rewards), length, dtype=torch.float32)
    tok[:, -1] = torch.tensor(rewards, dtype=torch.float32)
    mask = torch.ones(len(rewards), length, dtype=torch.float32)
    index = np.array([str(p) for p in prompt_ids])
    out = {}
    for scheme, fn, kw in [("skyrl", "compute_grpo_outcome_advantage", {"grpo_norm_by_std": True}),
                           ("skyrl-no-std", "compute_grpo_outcome_advantage", {"grpo_norm_by_std": False}),
                           ("skyrl-rloo", "compute_rloo_outcome_advantage", {})]:
        WARNINGS.clear()
        adv, _ = g[fn](token_level_rewards=tok.clone(), response_mask=mask, index=index, **kw)
        vals = adv[:, -1].tolist()
        out[scheme] = {"advantages": [None if v != v else v for v in vals], "warnings": list(WARNINGS)}
    return out


def cases():
    rng = random.Random(20260829)
    out = []
    for k in [1, 2, 3, 4, 5, 8, 16]:
        for groups in [1, 3, 7]:
            for kind in ["binary", "uniform", "equal", "mixed"]:
                ids = rng.sample(range(1000), groups)
                prompt_ids = [p for p in ids for _ in range(k)]
                if kind == "binary":
                    rewards = [float(rng.random() < 0.4) for _ in prompt_ids]
                elif kind == "uniform":
                    rewards = [f32(rng.uniform(-2, 3)) for _ in prompt_ids]
                elif kind == "equal":
                    rewards = [f32(v) for p in ids for v in [rng.choice([0.7, 1.0, 0.0, 0.1, -0.3])] * k]
                else:
                    rewards = [f32(rng.choice([0.0, 0.5, 1.0, 0.1])) for _ in prompt_ids]
                out.append({"rewards": rewards, "promptIds": prompt_ids, "k": k})
    # Uid groups in any order and of any size (a group is its uid, wherever its members are).
    for _ in range(12):
        ids = rng.sample(range(50), rng.randint(2, 6))
        prompt_ids = [rng.choice(ids) for _ in range(rng.randint(4, 30))]
        rewards = [f32(rng.choice([0.0, 1.0, rng.uniform(0, 1)])) for _ in prompt_ids]
        out.append({"rewards": rewards, "promptIds": prompt_ids, "k": 0})
    return out


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else "test/fixtures/golden-skyrl-advantages.json"
    commit = subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()
    g = load(checkout)
    results = []
    for c in cases():
        c["schemes"] = run(g, c["rewards"], c["promptIds"], c["k"])
        results.append(c)
    doc = {
        "source": f"NovaSky-AI/SkyRL {commit}: ppo_utils.py compute_grpo_outcome_advantage (grpo_norm_by_std True/False, "
                  f"epsilon 1e-6) and compute_rloo_outcome_advantage exec'd with torch {torch.__version__} on float32 "
                  "rewards; index = str(prompt id). k is informational (0: groups of any size and order).",
        "commit": commit,
        "cases": results,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(out_path, len(results), "cases", os.path.getsize(out_path), "bytes")


if __name__ == "__main__":
    main()

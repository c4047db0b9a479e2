"""Writes test/fixtures/golden-slime-advantages.json by running slime's own reward post-processing.

    /work/golden-venv/bin/python scripts/golden/slime_advantages.py /path/to/slime-checkout [out.json]

Made with THUDM/slime 624b824a898ab0ec1fcb4d373004c7f3852bf515 (recorded in the fixture), torch 2.13 CPU.

What runs as slime's code: slime/ray/rollout.py RolloutManager._post_process_rewards, exec'd from the
file's AST (the module imports ray) with a stand-in `self` (args, custom_reward_post_process_func=None)
and stand-in samples whose get_reward_value(args) returns the reward, in float32 torch as slime does.
Transcribed (one line, slime/utils/arguments.py slime_validate_args): n_samples_per_prompt == 1 sets
grpo_std_normalization = False, because validate_args needs the whole Megatron/sglang namespace.
Rewards are dyadic (multiples of 1/4) so group sums are exact in float32 and a flat group's
advantage is exactly 0 when it is normalised on its own.
"""
import ast
import json
import os
import random
import subprocess
import sys
import types

import torch


def load_post_process(checkout):
    path = os.path.join(checkout, "slime/ray/rollout.py")
    tree = ast.parse(open(path).read())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RolloutManager")
    fn = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "_post_process_rewards")
    g = {"torch": torch, "Sample": object, "__name__": "slime_rollout_exec"}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), path, "exec"), g)
    return g["_post_process_rewards"]


class Reward:
    def __init__(self, r):
        self.r = r

    def get_reward_value(self, args):
        return self.r


def run(fn, rewards, n, rbs, estimator="grpo", rewards_normalization=True, grpo_std_normalization=True):
    args = types.SimpleNamespace(n_samples_per_prompt=n, rollout_batch_size=rbs, advantage_estimator=estimator,
                                 rewards_normalization=rewards_normalization,
                                 grpo_std_normalization=grpo_std_normalization and n != 1)
    self = types.SimpleNamespace(args=args, custom_reward_post_process_func=None)
    raw, out = fn(self, [Reward(r) for r in rewards])
    return [None if v != v else v for v in out]


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else "test/fixtures/golden-slime-advantages.json"
    commit = subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()
    fn = load_post_process(checkout)
    rng = random.Random(2230)
    cases = []

    def add(rewards, prompt_ids, n, rbs, note=""):
        c = {"rewards": rewards, "promptIds": prompt_ids, "k": n, "rolloutBatchSize": rbs, "note": note}
        for est in ("grpo", "gspo", "cispo", "reinforce_plus_plus_baseline", "reinforce_plus_plus", "ppo"):
            c[est] = run(fn, rewards, n, rbs, est)
        c["grpo_no_std"] = run(fn, rewards, n, rbs, "grpo", grpo_std_normalization=False)
        c["grpo_no_norm"] = run(fn, rewards, n, rbs, "grpo", rewards_normalization=False)
        cases.append(c)

    # The uneven case of issue #2230: prompt 1 lost one sample, its rewards are all 5.0.
    add([0.0, 1.0, 0.0, 1.0, 5.0, 5.0, 5.0], [0, 0, 0, 0, 1, 1, 1], 4, 2, "uneven: one group for the whole batch")
    add([0.0, 1.0, 0.0, 1.0, 5.0, 5.0, 5.0, 5.0], [0, 0, 0, 0, 1, 1, 1, 1], 4, 2, "even: a flat group gets 0")
    add([1.0, 0.0, 0.5, 0.25], [0, 1, 2, 3], 1, 4, "n = 1: mean only")
    add([1.0], [0], 2, 1, "one sample, n = 2: uneven, std of one value is nan")
    for _ in range(40):
        n = rng.choice([1, 2, 3, 4, 8])
        rbs = rng.choice([1, 2, 3, 5])
        prompt_ids = [p for p in range(rbs) for _ in range(n)]
        if rng.random() < 0.3 and len(prompt_ids) > 2:
            drop = rng.randrange(len(prompt_ids))
            del prompt_ids[drop]
        rewards = [rng.choice([0.0, 1.0, 0.5, 0.25, 5.0, -1.0, 2.75]) for _ in prompt_ids]
        add(rewards, prompt_ids, n, rbs)
    doc = {
        "commit": commit,
        "source": ("exec: slime/ray/rollout.py RolloutManager._post_process_rewards (AST-exec'd, real torch). "
                   "transcribed: slime_validate_args' n_samples_per_prompt == 1 -> grpo_std_normalization = False, "
                   "because validate_args needs the full Megatron/sglang namespace."),
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"wrote {out_path}: {len(cases)} cases")


if __name__ == "__main__":
    main()

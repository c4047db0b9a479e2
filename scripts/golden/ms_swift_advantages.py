"""Writes test/fixtures/golden-ms-swift-advantages.json by running ms-swift's own advantage function.

    /work/golden-venv/bin/python scripts/golden/ms_swift_advantages.py /path/to/ms-swift [out.json]

The path may be a checkout or a bare git directory: the source is read with `git show HEAD:<file>`.
Made with modelscope/ms-swift 3602360a562313afbf2ef6065fdf61f271a2c5b9 (recorded in the fixture), torch 2.13 CPU.

What runs as ms-swift's code: swift/rl_core/advantage.py compute_advantages (the function the HF trainer's
_compute_advantages calls when dynamic_num_samples is off), exec'd from the file's AST with torch and
swift/utils/torch_utils.py's nanstd (the module's only other import), on one reward function of weight 1,
in float64 (the function is dtype-agnostic; the sandbox's statistics are float64). The defaults it runs
are the ones swift/arguments/rlhf_args.py resolves for plain GRPO: advantage_estimator 'grpo',
scale_rewards None → 'group', kl_in_reward False. The variants 'batch' and 'none' are recorded too.
Transcribed, not run (rlhf_args.py needs the whole argument namespace): num_generations == 1 is refused for
GRPO without a teacher ('num_generations must be greater than 1 for GRPO'), so every case has k ≥ 2.
"""
import ast
import json
import random
import subprocess
import sys

import torch


def source(repo, path):
    return subprocess.check_output(["git", "-C", repo, "show", f"HEAD:{path}"], text=True)


def function(repo, path, name, g):
    tree = ast.parse(source(repo, path))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    exec(compile(ast.Module(body=[fn], type_ignores=[]), path, "exec"), g)
    return g[name]


def main():
    repo = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else "test/fixtures/golden-ms-swift-advantages.json"
    commit = subprocess.check_output(["git", "-C", repo, "rev-parse", "HEAD"], text=True).strip()
    from typing import Dict, List, Optional, Tuple, Union

    g = {"torch": torch, "Optional": Optional, "Union": Union, "List": List, "Tuple": Tuple, "Dict": Dict}
    function(repo, "swift/utils/torch_utils.py", "nanstd", g)
    compute = function(repo, "swift/rl_core/advantage.py", "compute_advantages", g)

    def run(rewards, k, scale):
        per_func = torch.tensor(rewards, dtype=torch.float64).unsqueeze(1)
        adv, _ = compute(per_func, torch.ones(1, dtype=torch.float64), k, advantage_estimator="grpo", scale_rewards=scale)
        return [None if v != v else v for v in adv.tolist()]

    rng = random.Random(3602360)
    cases = []

    def add(rewards, prompt_ids, k, note=""):
        c = {"rewards": rewards, "promptIds": prompt_ids, "k": k, "note": note}
        for scale in ("group", "batch", "none"):
            c[scale] = run(rewards, k, scale)
        cases.append(c)

    add([0.0, 1.0, 0.0, 1.0, 5.0, 5.0, 5.0, 5.0], [0, 0, 0, 0, 1, 1, 1, 1], 4, "a flat group gets 0")
    add([0.3, 0.3], [7, 7], 2, "one flat group of two")
    add([0.9, 0.1, 0.5, 0.3, 0.7, 0.7, 0.8, 0.4], [3, 7, 3, 7, 5, 5, 3, 9], 2, "mixed prompts: ms-swift groups by position")
    for _ in range(40):
        k = rng.choice([2, 3, 4, 8])
        prompts = rng.choice([1, 2, 3, 5])
        prompt_ids = [p for p in range(prompts) for _ in range(k)]
        rewards = [rng.choice([0.0, 0.25, 0.5, 1.0, rng.uniform(-2, 2)]) for _ in prompt_ids]
        add(rewards, prompt_ids, k)

    out = {
        "about": "ms-swift compute_advantages (swift/rl_core/advantage.py), advantage_estimator grpo, one reward function, float64; "
        "made by scripts/golden/ms_swift_advantages.py",
        "source": f"modelscope/ms-swift {commit} swift/rl_core/advantage.py compute_advantages (run)",
        "versions": {"torch": torch.__version__},
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()

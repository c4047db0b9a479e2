"""Writes test/fixtures/golden-advantages-frameworks.json by running the frameworks' own advantage code.

    python scripts/golden/advantages_frameworks.py FLOW_GRPO_CHECKOUT VERL_CHECKOUT

Each checkout is a work tree or a bare git directory (read at HEAD), e.g.
/work/.mirror/yifan123+flow_grpo/repo (ac4c86e) and /work/.mirror/volcengine+verl/repo (b178a3c);
the commit read is recorded in the fixture. Nothing of either framework is copied into this repository.

What comes from where:
- flow_grpo: flow_grpo/stat_tracking.py is exec'd whole (it imports only numpy and torch) and its
  PerPromptStatTracker(global_std).update(prompts, rewards) is called, as scripts/train_sd3.py does,
  with global_std True (config/base.py's sample.global_std, the shipped configs) and False (the class default).
- verl: compute_grpo_outcome_advantage is taken from verl/trainer/ppo/core_algos.py by its syntax tree
  (the module imports verl's config and worker packages, which need omegaconf and more) and exec'd with
  torch, numpy and collections.defaultdict, without its registry decorator; called with
  norm_adv_by_std_in_grpo True (the default) and False, float64 scores, one uid per draw of a prompt.
- DanceGRPO has no checkout here: its two branches of train_one_step (fastvideo/train_grpo_flux.py at
  22b85ef, `if args.use_group:` … `else:` …) are TRANSCRIBED below with torch, in float64 (the real run
  holds rewards in float32), and the fixture says so.
"""
import ast
import json
import os
import subprocess
import sys
from collections import defaultdict
from typing import Optional

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'fixtures', 'golden-advantages-frameworks.json')


def source(checkout, rel):
    """(text of rel, commit) from a work tree or a bare git directory."""
    if os.path.isfile(os.path.join(checkout, rel)):
        git = ['git', '-C', checkout]
        with open(os.path.join(checkout, rel)) as f:
            text = f.read()
    else:
        git = ['git', f'--git-dir={checkout}']
        text = subprocess.check_output(git + ['show', f'HEAD:{rel}'], text=True)
    commit = subprocess.check_output(git + ['rev-parse', 'HEAD'], text=True).strip()
    return text, commit


def flow_grpo_tracker(checkout):
    text, commit = source(checkout, 'flow_grpo/stat_tracking.py')
    ns = {'__name__': 'flow_grpo_stat_tracking'}
    exec(compile(text, 'flow_grpo/stat_tracking.py', 'exec'), ns)
    return ns['PerPromptStatTracker'], commit


def verl_grpo(checkout):
    rel = 'verl/trainer/ppo/core_algos.py'
    text, commit = source(checkout, rel)
    tree = ast.parse(text)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == 'compute_grpo_outcome_advantage')
    fn.decorator_list = []  # @register_adv_est(...) only files it in verl's registry
    module = ast.Module(body=[fn], type_ignores=[])
    ns = {'torch': torch, 'np': np, 'defaultdict': defaultdict, 'Optional': Optional, 'AlgoConfig': object}
    exec(compile(module, rel, 'exec'), ns)
    return ns['compute_grpo_outcome_advantage'], commit


def dance_grpo_transcribed(gathered, ranks, k, use_group):
    """train_one_step (DanceGRPO 22b85ef) on each rank's slice of the rank-major gathered rewards."""
    per = len(gathered) // ranks
    out = []
    for r in range(ranks):
        rewards = gathered[r * per:(r + 1) * per]
        if use_group:
            n = len(rewards) // k
            advantages = torch.zeros_like(rewards)
            for i in range(n):
                group_rewards = rewards[i * k:(i + 1) * k]
                advantages[i * k:(i + 1) * k] = (group_rewards - group_rewards.mean()) / (group_rewards.std() + 1e-8)
        else:
            advantages = (rewards - gathered.mean()) / (gathered.std() + 1e-8)
        out.extend(advantages.tolist())
    return out


def main(flow_checkout, verl_checkout):
    Tracker, flow_commit = flow_grpo_tracker(flow_checkout)
    grpo, verl_commit = verl_grpo(verl_checkout)
    g = torch.Generator().manual_seed(20)
    cases = []
    # (ranks, samples per rank, k): groups on one rank (dance) and scattered copies (flow_grpo, verl).
    for ranks, per, k in [(2, 4, 2), (3, 4, 4), (4, 6, 3), (1, 8, 8), (2, 6, 2)]:
        n = ranks * per
        rewards = torch.rand(n, generator=g, dtype=torch.float64)
        rewards[:k] = rewards[0]  # one zero-std run
        if n >= 2 * k:
            rewards[k:2 * k] = (rewards[k:2 * k] > 0.5).to(torch.float64)  # binary rewards in another
        # Prompt ids scattered as flow_grpo's sampler scatters them: m prompts × k copies, shuffled.
        m = n // k
        perm = torch.randperm(n, generator=g).tolist()
        prompt_ids = [perm[i] % m for i in range(n)]
        if n >= 4:
            prompt_ids[-1] = prompt_ids[0]  # a prompt drawn k + 1 times (flow_grpo: one group of k + 1)
        # verl: one uid per draw; a lone uid for the last sample (mean 0, std 1)
        uids = prompt_ids[:-1] + [1000]
        flow = {}
        for global_std in (True, False):
            tracker = Tracker(global_std)
            flow['globalStd' if global_std else 'promptStd'] = tracker.update([f'prompt {p}' for p in prompt_ids], rewards.numpy()).tolist()
            tracker.clear()
        verl = {}
        for norm in (True, False):
            scores, _ = grpo(
                token_level_rewards=torch.cat([rewards[:, None], torch.zeros(n, 2, dtype=torch.float64)], dim=1),
                response_mask=torch.ones(n, 3, dtype=torch.float64),
                index=np.array([f'uid-{u}' for u in uids], dtype=object),
                norm_adv_by_std_in_grpo=norm,
            )
            verl['normByStd' if norm else 'noStd'] = scores[:, 0].tolist()
        dance = {'useGroup': dance_grpo_transcribed(rewards, ranks, k, True), 'noGroup': dance_grpo_transcribed(rewards, ranks, k, False)}
        cases.append({'ranks': ranks, 'k': k, 'rewards': rewards.tolist(), 'promptIds': prompt_ids, 'uids': uids,
                      'flowGrpo': flow, 'verl': verl, 'danceGrpo': dance})
    fixture = {
        'about': "Group advantages from the frameworks' own code: flow_grpo's PerPromptStatTracker (exec'd from "
                 "flow_grpo/stat_tracking.py) and verl's compute_grpo_outcome_advantage (exec'd from "
                 "verl/trainer/ppo/core_algos.py); DanceGRPO's train_one_step branches are a transcription (no checkout). "
                 "Made by scripts/golden/advantages_frameworks.py.",
        'sources': {
            'flowGrpo': f'yifan123/flow_grpo {flow_commit} flow_grpo/stat_tracking.py (run)',
            'verl': f'volcengine/verl {verl_commit} verl/trainer/ppo/core_algos.py compute_grpo_outcome_advantage (run)',
            'danceGrpo': 'XueZeyue/DanceGRPO 22b85ef fastvideo/train_grpo_flux.py train_one_step (transcribed, float64)',
        },
        'versions': {'torch': torch.__version__, 'numpy': np.__version__, 'python': sys.version.split()[0]},
        'cases': cases,
    }
    with open(OUT, 'w') as f:
        json.dump(fixture, f, indent=1)
        f.write('\n')
    print(f'wrote {os.path.normpath(OUT)}: {len(cases)} cases (flow_grpo {flow_commit[:7]}, verl {verl_commit[:7]})')


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

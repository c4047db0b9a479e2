"""Writes test/fixtures/golden-steps-verl.json: the per-token weight verl's loss aggregation gives
each completion of a mini-batch, with verl's own agg_loss (and masked_sum) exec'd from a checkout.

    python scripts/golden/verl_steps.py /work/.mirror/volcengine+verl/repo [COMMIT]

The functions are read from the git directory at COMMIT (default b178a3cd56f58b2d502255daba591e92833930a7):
verl/trainer/ppo/core_algos.py `agg_loss` and verl/utils/torch_functional.py `masked_sum`, exec'd
as written (nothing else of verl is imported). For each case, W ranks each hold GA micro-batches of
completions with given lengths, padded to a response length; the script calls agg_loss per
micro-batch as the two worker paths do and takes d(loss)/d(loss_mat) with autograd:
- legacy (use_legacy_worker_impl: auto, dp_actor.update_policy): agg_loss(loss_mat, mask, mode)
  × 1 / gradient_accumulation;
- engine (use_legacy_worker_impl: disable, workers/utils/losses.py ppo_loss): agg_loss with
  dp_size, batch_num_tokens (the mini-batch's tokens over every rank) and global_batch_size (its
  sequences over every rank), no further scaling.
The scaling by 1/GA (legacy), the sum over micro-steps and FSDP's mean over ranks (÷ W) are the
workers' and torch's code, transcribed here, not run.
"""
import ast
import json
import os
import random
import subprocess
import sys

import torch

COMMIT = 'b178a3cd56f58b2d502255daba591e92833930a7'
MODES = ['token-mean', 'seq-mean-token-sum', 'seq-mean-token-mean', 'seq-mean-token-sum-norm']


def function_source(git_dir, commit, path, name):
    text = subprocess.run(['git', '--git-dir', git_dir, 'show', f'{commit}:{path}'], check=True, capture_output=True, text=True).stdout
    tree = ast.parse(text)
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return ast.get_source_segment(text, node)


def load(git_dir, commit):
    from typing import Optional
    import types
    ns = {'torch': torch, 'Optional': Optional}
    exec(function_source(git_dir, commit, 'verl/utils/torch_functional.py', 'masked_sum'), ns)
    ns['verl_F'] = types.SimpleNamespace(masked_sum=ns['masked_sum'])
    exec(function_source(git_dir, commit, 'verl/trainer/ppo/core_algos.py', 'agg_loss'), ns)
    return ns['agg_loss']


def run_case(agg_loss, case):
    W, ga, mb, L = case['ranks'], case['ga'], case['microBatch'], case['responseLength']
    lengths = case['lengths']  # [rank][micro][row]
    batch_num_tokens = sum(sum(sum(m) for m in r) for r in lengths)
    global_batch_size = sum(sum(len(m) for m in r) for r in lengths)
    out = {}
    for mode in MODES:
        for path in ['legacy', 'engine']:
            weights = []
            for r in range(W):
                per_rank = []
                for m in range(ga):
                    lens = lengths[r][m]
                    mask = torch.zeros(len(lens), L, dtype=torch.float64)
                    for i, n in enumerate(lens):
                        mask[i, :n] = 1
                    loss_mat = torch.zeros(len(lens), L, dtype=torch.float64, requires_grad=True)
                    if path == 'legacy':
                        loss = agg_loss(loss_mat=loss_mat, loss_mask=mask, loss_agg_mode=mode) * (1 / ga)
                    else:
                        loss = agg_loss(loss_mat=loss_mat, loss_mask=mask, loss_agg_mode=mode, dp_size=W,
                                        batch_num_tokens=batch_num_tokens, global_batch_size=global_batch_size, loss_scale_factor=None)
                    loss.backward()
                    g = loss_mat.grad
                    rows = []
                    for i, n in enumerate(lens):
                        first = float(g[i, 0]) if n else 0.0
                        assert all(abs(float(g[i, t]) - first) < 1e-15 for t in range(n)), 'weight varies within a row'
                        assert all(float(g[i, t]) == 0 for t in range(n, L)), 'a padded token has a weight'
                        # FSDP averages the gradient over the ranks.
                        rows.append(first / W)
                    per_rank.append(rows)
                weights.append(per_rank)
            out[f'{path}:{mode}'] = weights
    return out


def main():
    git_dir = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else COMMIT
    agg_loss = load(git_dir, commit)
    rnd = random.Random(11)
    cases = []
    for (W, ga, mb, L) in [(2, 2, 2, 16), (1, 3, 2, 16), (4, 1, 3, 32)]:
        lengths = [[[rnd.randint(1, L) for _ in range(mb)] for _ in range(ga)] for _ in range(W)]
        case = {'ranks': W, 'ga': ga, 'microBatch': mb, 'responseLength': L, 'lengths': lengths}
        case['weights'] = run_case(agg_loss, case)
        cases.append(case)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    path = os.path.join(root, 'test', 'fixtures', 'golden-steps-verl.json')
    with open(path, 'w') as f:
        json.dump({'source': f'verl {commit}: core_algos.agg_loss and torch_functional.masked_sum exec\'d by scripts/golden/verl_steps.py',
                   'commit': commit, 'torch': torch.__version__, 'cases': cases}, f, separators=(',', ':'))
    print('wrote', path)


if __name__ == '__main__':
    main()

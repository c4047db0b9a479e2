"""Which index batch each step of flow_grpo's published training loop receives, made by running
flow_grpo's own DistributedKRepeatSampler under a real torch DataLoader and real accelerate.

    .venv/bin/python scripts/golden/flow_grpo_loader.py CHECKOUT [CHECKOUT ...]

Each CHECKOUT is a flow_grpo work tree (or a directory holding the file below at its path):
- scripts/train_sd3.py (the scatter sampler, defined in the script up to commit 74db691), or
- flow_grpo/sampler.py (the newer lcm sampler, imported by scripts/train_sd3.py from 74db691 on).
The class is cut out of the file with ast and exec'd (the modules import diffusers, wandb, ...);
nothing of flow_grpo is copied here. The commit is read with `git rev-parse HEAD` in the checkout,
or from a file COMMIT beside it. Writes test/fixtures/golden-flow-grpo-loader.json.

The loops, as the published scripts write them:
- 'once' (scripts/train_sd3.py at ac4c86e): DataLoader(batch_sampler=train_sampler, num_workers=1),
  accelerator.prepare(...) (the train dataloader included), train_iter = iter(train_dataloader)
  before the loop, then set_epoch(epoch * num_batches_per_epoch + i); next(train_iter).
- 'epoch' (scripts/train_sd3.py at 74db691): the train dataloader is not prepared; every epoch
  set_epoch(epoch); train_iter = iter(train_dataloader); num_batches_per_epoch x next(train_iter).
accelerate: with one process, Accelerator().prepare(dataloader). With W processes, each rank's
DataLoader goes through accelerate.data_loader.prepare_data_loader(num_processes=W, process_index=r)
with Accelerator's defaults (split_batches=False, dispatch_batches=None, even_batches=True), the
function Accelerator.prepare calls; the ranks' data paths do not communicate, so they run one after
another in this process. test/bridge/flow_grpo_run.py checks the same under torchrun with
Accelerator().prepare on two gloo ranks.
"""
import ast
import json
import math
import os
import subprocess
import sys

import torch
from torch.utils.data import DataLoader, Dataset, Sampler

import accelerate
from accelerate import Accelerator
from accelerate.data_loader import prepare_data_loader

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'fixtures', 'golden-flow-grpo-loader.json')


def load_class(path):
    """flow_grpo's DistributedKRepeatSampler from `path`, exec'd alone (with torch, math, Sampler)."""
    with open(path) as f:
        source = f.read()
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == 'DistributedKRepeatSampler')
    namespace = {'torch': torch, 'math': math, 'Sampler': Sampler, 'Dataset': Dataset}
    exec(compile(ast.Module([node], []), path, 'exec'), namespace)
    return namespace['DistributedKRepeatSampler']


def commit_of(checkout):
    try:
        return subprocess.run(['git', '-C', checkout, 'rev-parse', 'HEAD'], capture_output=True, text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        with open(os.path.join(checkout, 'COMMIT')) as f:
            return f.read().strip()


class Prompts(Dataset):
    """Stands for TextPromptDataset: what the loader fetches does not matter, the indices do."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        return idx

    @staticmethod
    def collate_fn(examples):
        return list(examples)


def run_rank(cls, variant, c, rank, accelerator):
    """One rank's loop; returns the index batch of every step (epoch-major)."""
    dataset = Prompts(c['datasetSize'])
    kwargs = dict(dataset=dataset, batch_size=c['batch'], k=c['k'], num_replicas=c['ranks'], rank=rank, seed=c['seed'])
    if variant == 'lcm':
        kwargs['m'] = c['m']
    sampler = cls(**kwargs)
    nb = sampler.num_batches_per_epoch if variant == 'lcm' else c['batchesPerEpoch']
    loader_kwargs = dict(batch_sampler=sampler, num_workers=c['numWorkers'], collate_fn=Prompts.collate_fn)
    if c['numWorkers'] > 0:
        loader_kwargs['prefetch_factor'] = c['prefetchFactor']
    loader = DataLoader(dataset, **loader_kwargs)
    if c['acceleratePrepare']:
        if c['ranks'] == 1:
            loader = accelerator.prepare(loader)
        else:
            loader = prepare_data_loader(loader, num_processes=c['ranks'], process_index=rank, put_on_device=False)
    steps = []
    if c['loop'] == 'once':
        it = iter(loader)
        for epoch in range(c['epochs']):
            for i in range(nb):
                sampler.set_epoch(epoch * nb + i)
                steps.append([int(x) for x in next(it)])
    else:
        for epoch in range(c['epochs']):
            sampler.set_epoch(epoch)
            it = iter(loader)
            for _ in range(nb):
                steps.append([int(x) for x in next(it)])
            del it
    return steps, nb


def run_case(cls, variant, c, accelerator):
    per_rank = []
    nb = None
    for r in range(c['ranks']):
        steps, nb = run_rank(cls, variant, c, r, accelerator)
        per_rank.append(steps)
    # steps[s][r] = ids rank r received at step s
    return [[per_rank[r][s] for r in range(c['ranks'])] for s in range(len(per_rank[0]))], nb


def shipped(base, **over):
    return {**base, 'numWorkers': 1, 'prefetchFactor': 2, **over}


SCATTER = {'sampler': 'flow-grpo', 'seed': 42, 'loop': 'once'}
SEED000 = {**SCATTER, 'ranks': 8, 'batch': 2, 'k': 4, 'batchesPerEpoch': 2, 'datasetSize': 32, 'epochs': 3}
SMALL1 = {**SCATTER, 'ranks': 1, 'batch': 4, 'k': 2, 'batchesPerEpoch': 3, 'datasetSize': 20, 'epochs': 3}
SMALL2 = {**SCATTER, 'ranks': 2, 'batch': 3, 'k': 2, 'batchesPerEpoch': 3, 'datasetSize': 20, 'epochs': 2}
SMALL4 = {**SCATTER, 'ranks': 4, 'batch': 2, 'k': 4, 'batchesPerEpoch': 1, 'datasetSize': 50, 'epochs': 6, 'seed': 7}

SCATTER_CASES = [
    ('seed-000, as scripts/train_sd3.py builds it', shipped(SEED000, acceleratePrepare=True)),
    ('seed-000, idealised (num_workers=0, not prepared)', {**SEED000, 'numWorkers': 0, 'prefetchFactor': 2, 'acceleratePrepare': False}),
    ('seed-000, one worker, not prepared', shipped(SEED000, acceleratePrepare=False)),
    ('1 rank, shipped loader', shipped(SMALL1, acceleratePrepare=True)),
    ('1 rank, one worker, not prepared', shipped(SMALL1, acceleratePrepare=False)),
    ('1 rank, num_workers=0, prepared', {**SMALL1, 'numWorkers': 0, 'prefetchFactor': 2, 'acceleratePrepare': True}),
    ('1 rank, 2 workers x prefetch 3, prepared', {**SMALL1, 'numWorkers': 2, 'prefetchFactor': 3, 'acceleratePrepare': True}),
    ('2 ranks, shipped loader', shipped(SMALL2, acceleratePrepare=True)),
    ('4 ranks, 1 batch per epoch, shipped loader', shipped(SMALL4, acceleratePrepare=True)),
    ('4 ranks, 1 batch per epoch, idealised', {**SMALL4, 'numWorkers': 0, 'prefetchFactor': 2, 'acceleratePrepare': False}),
]

LCM = {'sampler': 'flow-grpo-lcm', 'seed': 42, 'loop': 'epoch'}
LCM2 = {**LCM, 'ranks': 2, 'batch': 3, 'k': 4, 'm': 3, 'datasetSize': 20, 'epochs': 3}
LCM1 = {**LCM, 'ranks': 1, 'batch': 4, 'k': 3, 'm': 4, 'datasetSize': 20, 'epochs': 3}
LCM_CASES = [
    ('lcm, 2 ranks, as scripts/train_sd3.py (74db691) builds it', shipped(LCM2, acceleratePrepare=False)),
    ('lcm, 2 ranks, num_workers=0', {**LCM2, 'numWorkers': 0, 'prefetchFactor': 2, 'acceleratePrepare': False}),
    ('lcm, 2 ranks, prepared (not what the script does)', shipped(LCM2, acceleratePrepare=True)),
    ('lcm, 1 rank, shipped loader', shipped(LCM1, acceleratePrepare=False)),
    ('lcm, 1 rank, prepared (not what the script does)', shipped(LCM1, acceleratePrepare=True)),
]


def main(checkouts):
    accelerator = Accelerator()
    assert accelerator.num_processes == 1, 'run in one process (the ranks are simulated with prepare_data_loader)'
    sources, cases = [], []
    for checkout in checkouts:
        commit = commit_of(checkout)
        for rel, variant, todo in (('scripts/train_sd3.py', 'scatter', SCATTER_CASES), ('flow_grpo/sampler.py', 'lcm', LCM_CASES)):
            path = os.path.join(checkout, rel)
            if not os.path.exists(path):
                continue
            try:
                cls = load_class(path)
            except StopIteration:
                continue  # this version of the file has no such class (train_sd3.py from 74db691 imports it)
            if variant == 'scatter' and 'm' in cls.__init__.__code__.co_varnames:
                continue
            sources.append({'file': rel, 'commit': commit, 'variant': variant})
            for name, c in todo:
                steps, nb = run_case(cls, variant, c, accelerator)
                config = {k: v for k, v in c.items() if k not in ('loop', 'm')}
                config['batchesPerEpoch'] = nb
                config['acceleratePrepare'] = 1 if c['acceleratePrepare'] else 0
                cases.append({'name': name, 'source': f'{rel}@{commit[:7]}', 'loop': c['loop'], 'config': config, 'steps': steps})
                print(f'{name}: {len(steps)} steps', file=sys.stderr)
    data = {
        'about': (
            "flow_grpo's own DistributedKRepeatSampler (cut from the named file and commit, exec'd) under torch's DataLoader "
            "(num_workers, prefetch_factor) and accelerate's prepare (Accelerator().prepare for one rank, prepare_data_loader with "
            "num_processes=W for W ranks), driven by the published loop: 'once' = iter before the loop, set_epoch(epoch*N+i) before "
            "each next (train_sd3.py at ac4c86e); 'epoch' = set_epoch(epoch), a new iter each epoch (train_sd3.py at 74db691). "
            "steps[s][r] = the ids rank r's next() returned at step s. Made by scripts/golden/flow_grpo_loader.py."
        ),
        'versions': {'torch': torch.__version__, 'accelerate': accelerate.__version__},
        'sources': sources,
        'cases': cases,
    }
    with open(OUT, 'w') as f:
        json.dump(data, f, separators=(',', ':'))
        f.write('\n')
    print(f'{OUT}: {os.path.getsize(OUT)} bytes', file=sys.stderr)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

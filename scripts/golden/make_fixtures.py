"""Writes the golden fixtures in test/fixtures/golden-*.json by running the real libraries.

Run from the repository root with a Python that has requirements.txt installed:
    python scripts/golden/make_fixtures.py
CI never runs this: the JSON it writes is committed and the TypeScript tests read it.

What comes from where:
- torch (2.13 CPU): randperm, rand, DistributedSampler, DataLoader (batching, drop_last).
- trl (1.13.0): RepeatSampler, GRPOConfig.__post_init__ (steps_per_generation, its ValueErrors).
- accelerate (1.15.0): BatchSamplerShard (how each process takes its batches).
- transformers (5.18.0): Trainer.set_initial_training_values (optimizer steps per epoch, max_steps).
- accelerate's Accelerator.accumulate: flow_grpo's optimizer steps, by running its loop skeleton.
- flow_grpo and DanceGRPO are not packages: their samplers/loops are written below exactly as their
  source does (files and commits named at each), over the real torch classes.
- Flow-Factory's GroupDistributedSampler is transcribed from the sandbox's description
  (docs/frameworks.md: every rank the same prompts, k/W copies each, one permutation per epoch),
  not from Flow-Factory's source.
- Advantages and the TRL loss types are transcriptions with torch (float64, autograd for the
  gradients): TRL computes them inline in GRPOTrainer methods that need a model and a generation
  engine, so they cannot be called on their own.
"""
import json
import math
import os
import sys
import types

import torch
from torch.utils.data import BatchSampler, DataLoader, DistributedSampler

import accelerate
import transformers
import trl
from accelerate.data_loader import BatchSamplerShard
from transformers import Trainer
from trl import GRPOConfig
from trl.trainer.grpo_trainer import RepeatSampler

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'fixtures')
VERSIONS = {
    'torch': torch.__version__,
    'trl': trl.__version__,
    'accelerate': accelerate.__version__,
    'transformers': transformers.__version__,
}


def write(name, data):
    data = {'about': data.pop('about'), 'versions': VERSIONS, **data}
    path = os.path.join(OUT, name)
    with open(path, 'w') as f:
        json.dump(data, f, separators=(',', ':'))
        f.write('\n')
    print(f'{path}: {os.path.getsize(path)} bytes', file=sys.stderr)


# ---------------------------------------------------------------- layouts

def trl_layout(c):
    """TRL GRPOTrainer's data path, one process at a time: RepeatSampler (each process builds its
    own with the same seed) → BatchSampler(per_device × steps_per_generation, drop_last=False, as
    Trainer's DataLoader) → accelerate's BatchSamplerShard (split_batches=False, even_batches=True).
    Only batches TRL generates from become layout steps (every (num_iterations × spg)-th)."""
    W, B, k, spg, mu = c['ranks'], c['batch'], c['k'], c['stepsPerGeneration'], c['numIterations']
    gen_batch = B * W * spg
    per_rank = []
    for p in range(W):
        sampler = RepeatSampler(list(range(c['datasetSize'])), mini_repeat_count=k, batch_size=gen_batch // k,
                                repeat_count=mu * spg, shuffle=True, seed=c['seed'])
        shard = BatchSamplerShard(BatchSampler(sampler, B * spg, drop_last=False), num_processes=W, process_index=p,
                                  split_batches=False, even_batches=True)
        epochs = []
        for _ in range(c['epochs']):
            epochs.append([b for i, b in enumerate(shard) if i % (mu * spg) == 0])
        per_rank.append(epochs)
    steps = []
    for e in range(c['epochs']):
        for s in range(len(per_rank[0][e])):
            steps.append([per_rank[p][e][s] for p in range(W)])
    return steps


def distributed_loader(c, rank):
    """torch DistributedSampler(shuffle=True, seed) under DataLoader(batch_size=prompts per rank, drop_last=True)."""
    dataset = list(range(c['datasetSize']))
    sampler = DistributedSampler(dataset, num_replicas=c['ranks'], rank=rank, shuffle=True, seed=c['seed'])
    loader = DataLoader(dataset, sampler=sampler, batch_size=c['batch'] // c['k'], drop_last=True)
    return sampler, loader


def repeat_k(batch, k):
    return torch.repeat_interleave(torch.as_tensor(batch), k).tolist()


def contiguous_layout(c):
    """The corrected loop: set_epoch(e), the first batchesPerEpoch batches, then the next epoch."""
    per_rank = []
    for r in range(c['ranks']):
        sampler, loader = distributed_loader(c, r)
        mine = []
        for e in range(c['epochs']):
            sampler.set_epoch(e)
            it = iter(loader)
            mine.append([repeat_k(next(it), c['k']) for _ in range(c['batchesPerEpoch'])])
        per_rank.append(mine)
    return [[per_rank[r][e][s] for r in range(c['ranks'])] for e in range(c['epochs']) for s in range(c['batchesPerEpoch'])]


def dance_grpo_layout(c):
    """DanceGRPO fastvideo/train_grpo_flux.py (XueZeyue/DanceGRPO 22b85ef): `for epoch in range(1):
    sampler.set_epoch(epoch)` then next() on sp_parallel_dataloader_wrapper, which is
    `while True: for data_item in dataloader: yield ...`; train_one_step repeat_interleaves
    num_generations. Returns epochs × len(loader) steps (an epoch here = one pass)."""
    per_rank = []
    for r in range(c['ranks']):
        sampler, loader = distributed_loader(c, r)

        def wrapper():
            while True:
                for data_item in loader:
                    yield data_item

        for epoch in range(1):
            sampler.set_epoch(epoch)
        it = wrapper()
        per_rank.append([repeat_k(next(it), c['k']) for _ in range(c['epochs'] * len(loader))])
    n = len(per_rank[0])
    return [[per_rank[r][i] for r in range(c['ranks'])] for i in range(n)]


class FlowGrpoScatterSampler:
    """flow_grpo's DistributedKRepeatSampler before the lcm rewrite (scripts/train_sd3.py of flow_grpo
    before commit 74db691; the same class appears verbatim in many forks), line for line."""

    def __init__(self, dataset, batch_size, k, num_replicas, rank, seed=0):
        self.dataset = dataset
        self.batch_size = batch_size
        self.k = k
        self.num_replicas = num_replicas
        self.rank = rank
        self.seed = seed
        self.total_samples = self.num_replicas * self.batch_size
        assert self.total_samples % self.k == 0, f"k can not divide n*b, k{k}-num_replicas{num_replicas}-batch_size{batch_size}"
        self.m = self.total_samples // self.k
        self.epoch = 0

    def __iter__(self):
        while True:
            g = torch.Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = torch.randperm(len(self.dataset), generator=g)[:self.m].tolist()
            repeated_indices = [idx for idx in indices for _ in range(self.k)]
            shuffled_indices = torch.randperm(len(repeated_indices), generator=g).tolist()
            shuffled_samples = [repeated_indices[i] for i in shuffled_indices]
            start = self.rank * self.batch_size
            end = start + self.batch_size
            yield shuffled_samples[start:end]

    def set_epoch(self, epoch):
        self.epoch = epoch


def flow_grpo_layout(c):
    """The loop calls set_epoch(epoch × num_batches_per_epoch + i) before taking batch i."""
    dataset = list(range(c['datasetSize']))
    per_rank = []
    for r in range(c['ranks']):
        s = FlowGrpoScatterSampler(dataset, c['batch'], c['k'], c['ranks'], r, c['seed'])
        it = iter(s)
        mine = []
        for e in range(c['epochs']):
            for i in range(c['batchesPerEpoch']):
                s.set_epoch(e * c['batchesPerEpoch'] + i)
                mine.append(next(it))
        per_rank.append(mine)
    return [[per_rank[r][i] for r in range(c['ranks'])] for i in range(len(per_rank[0]))]


class FlowGrpoLcmSampler:
    """flow_grpo/sampler.py DistributedKRepeatSampler at commit 74db691 (the lcm sampler), line for line."""

    def __init__(self, dataset, batch_size, k, m, num_replicas, rank, seed=0):
        self.dataset = dataset
        self.batch_size = batch_size
        self.k = k
        self.m = m
        self.num_replicas = num_replicas
        self.rank = rank
        self.seed = seed
        self.sample_num_per_iteration = self.num_replicas * self.batch_size
        self.sample_num_per_epoch = math.lcm(self.k * self.m, self.sample_num_per_iteration)
        self.num_batches_per_epoch = int(self.sample_num_per_epoch // self.sample_num_per_iteration)
        self.m = self.sample_num_per_epoch // self.k
        self.epoch = 0

    def __iter__(self):
        while True:
            g = torch.Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = torch.randperm(len(self.dataset), generator=g)[:self.m].tolist()
            repeated_indices = [idx for idx in indices for _ in range(self.k)]
            shuffled_indices = torch.randperm(len(repeated_indices), generator=g).tolist()
            shuffled_samples = [repeated_indices[i] for i in shuffled_indices]
            for i in range(self.num_batches_per_epoch):
                offset = i * self.sample_num_per_iteration
                start = offset + self.rank * self.batch_size
                end = start + self.batch_size
                yield shuffled_samples[start:end]

    def set_epoch(self, epoch):
        self.epoch = epoch


def flow_grpo_lcm_layout(c):
    """train_sd3.py (74db691): set_epoch(epoch), iter(train_dataloader), num_batches_per_epoch batches.
    The sandbox parametrises the sampler's m by a least batches-per-epoch; m is computed as the
    sandbox does (lcmPromptsPerEpoch) and handed to flow_grpo's class, which does the rest."""
    W, B, k = c['ranks'], c['batch'], c['k']
    total = W * B
    step = total // math.gcd(k, total)
    m = -(-(-(-c['batchesPerEpoch'] * total // k)) // step) * step
    dataset = list(range(c['datasetSize']))
    per_rank = []
    for r in range(W):
        s = FlowGrpoLcmSampler(dataset, B, k, m, W, r, c['seed'])
        mine = []
        for e in range(c['epochs']):
            s.set_epoch(e)
            it = iter(s)
            mine.extend(next(it) for _ in range(s.num_batches_per_epoch))
        per_rank.append(mine)
    return [[per_rank[r][i] for r in range(W)] for i in range(len(per_rank[0]))]


def group_distributed_layout(c):
    """Flow-Factory GroupDistributedSampler as the sandbox describes it (not read from its source):
    generator seed + epoch; randperm(D)[:m] chosen, randperm(m) order, each k/W times in a row on every rank."""
    W, B, k = c['ranks'], c['batch'], c['k']
    m = c['batchesPerEpoch'] * W * B // k
    steps = []
    for e in range(c['epochs']):
        g = torch.Generator()
        g.manual_seed(c['seed'] + e)
        chosen = torch.randperm(c['datasetSize'], generator=g)[:m]
        order = torch.randperm(m, generator=g)
        mine = [int(chosen[o]) for o in order for _ in range(k // W)]
        for s in range(c['batchesPerEpoch']):
            steps.append([mine[s * B:(s + 1) * B] for _ in range(W)])
    return steps


def base(**kw):
    c = dict(ranks=2, batch=4, k=2, batchesPerEpoch=2, epochs=2, datasetSize=20, seed=42,
             stepsPerGeneration=1, numIterations=1, gradientAccumulationSteps=1)
    c.update(kw)
    return c


LAYOUT_CASES = {
    'trl': [
        base(), base(ranks=1, k=2, batch=2), base(ranks=3, batch=2, k=3, datasetSize=17),
        base(ranks=2, batch=3, k=2, datasetSize=13, epochs=3),  # blocks of 3: a group straddles two processes
        base(ranks=4, batch=2, k=4, stepsPerGeneration=2, datasetSize=30),
        base(ranks=2, batch=2, k=2, numIterations=3, datasetSize=11),
        base(ranks=2, batch=5, k=5, stepsPerGeneration=3, numIterations=2, datasetSize=40, seed=-7),
        base(ranks=8, batch=1, k=8, datasetSize=9, seed=2**32 + 5),
        base(ranks=1, batch=6, k=3, datasetSize=100, epochs=3, seed=0),
    ],
    'contiguous': [
        base(), base(ranks=1, batch=1, k=1, datasetSize=5, batchesPerEpoch=5),
        base(ranks=3, batch=4, k=2, datasetSize=10, batchesPerEpoch=1),  # padding 10 → 12
        base(ranks=4, batch=6, k=3, datasetSize=31, batchesPerEpoch=3, epochs=3),
        base(ranks=2, batch=2, k=2, datasetSize=7, batchesPerEpoch=4),  # padded, full epoch
        base(ranks=8, batch=5, k=5, datasetSize=9, batchesPerEpoch=1, seed=7),
        base(ranks=1, batch=5, k=5, datasetSize=8, batchesPerEpoch=8),
        base(ranks=2, batch=8, k=4, datasetSize=1000, batchesPerEpoch=3, seed=123456789),
    ],
    'dance-grpo': [
        base(), base(ranks=1, batch=1, k=1, datasetSize=4, epochs=3),
        base(ranks=3, batch=4, k=2, datasetSize=10),  # padding 10 → 12, drop_last leaves 0
        base(ranks=4, batch=6, k=3, datasetSize=31, epochs=3),  # padding and a dropped incomplete batch
        base(ranks=2, batch=2, k=2, datasetSize=7, epochs=2),
        base(ranks=8, batch=5, k=5, datasetSize=9, seed=7),
        base(ranks=1, batch=5, k=5, datasetSize=8, epochs=2),
        base(ranks=2, batch=8, k=4, datasetSize=50, seed=-1),
    ],
    'flow-grpo': [
        base(), base(ranks=8, batch=2, k=4, datasetSize=32),  # seed-000
        base(ranks=1, batch=3, k=1, datasetSize=5, batchesPerEpoch=3),
        base(ranks=1, batch=4, k=4, datasetSize=3, batchesPerEpoch=4),  # prompts drawn twice in an epoch
        base(ranks=3, batch=2, k=3, datasetSize=6, batchesPerEpoch=3, epochs=2),
        base(ranks=4, batch=3, k=6, datasetSize=100, seed=99),
        base(ranks=2, batch=1, k=2, datasetSize=2, batchesPerEpoch=5),
    ],
    'flow-grpo-lcm': [
        base(k=3), base(ranks=3, batch=2, k=4, datasetSize=30, batchesPerEpoch=1),
        base(ranks=1, batch=5, k=2, datasetSize=20, batchesPerEpoch=3),
        base(ranks=4, batch=1, k=16, datasetSize=60, batchesPerEpoch=1, epochs=2),
        base(ranks=2, batch=3, k=5, datasetSize=40, batchesPerEpoch=2, seed=-3),
        base(ranks=1, batch=1, k=1, datasetSize=5, batchesPerEpoch=3),
    ],
    'group-distributed': [
        base(), base(ranks=1, batch=2, k=1, datasetSize=6),
        base(ranks=2, batch=2, k=4, datasetSize=8, batchesPerEpoch=4),
        base(ranks=4, batch=3, k=4, datasetSize=50, batchesPerEpoch=3, epochs=3),
        base(ranks=2, batch=6, k=6, datasetSize=12, seed=5),
    ],
}
# A seeded batch drawn by a randomized differential checker (random.Random(20261123), layouts of at most
# 24 steps and 500 slots so the JSON stays small): W = 1 to 16, k = 1 and k = W·B, dataset sizes that do not
# divide, prompts drawn twice, many epochs, seeds negative and beyond ±2^32. In that check 650 random
# configurations per sampler (and 650 generator sequences) matched the sandbox's `layout --json`; these keep
# a sample of such held-out-like configurations in the committed fixtures, with 20 TRL count cases and 12 loop
# count cases drawn the same way. Kept as literals so the script stays deterministic.
RANDOM_LAYOUT_CASES = {
    'trl': [
        base(ranks=16, batch=2, batchesPerEpoch=1, epochs=4, datasetSize=19, seed=6, numIterations=3),
        base(ranks=8, batch=6, batchesPerEpoch=1, datasetSize=75, seed=-4370790871, stepsPerGeneration=3,
             gradientAccumulationSteps=2),
        base(ranks=8, batch=12, k=32, batchesPerEpoch=1, epochs=1, datasetSize=9, seed=-1735377349157589),
        base(ranks=5, batch=6, batchesPerEpoch=1, datasetSize=15, seed=-1890644241503879, numIterations=4),
        base(batch=2, k=4, batchesPerEpoch=1, epochs=5, datasetSize=4, seed=4382079954019881, numIterations=4),
        base(ranks=4, batch=2, batchesPerEpoch=1, datasetSize=103, seed=82, stepsPerGeneration=5, numIterations=2,
             gradientAccumulationSteps=5),
        base(ranks=12, batch=3, k=18, batchesPerEpoch=1, epochs=4, datasetSize=6, seed=7919497730100051,
             stepsPerGeneration=3, numIterations=4, gradientAccumulationSteps=3),
        base(ranks=1, batch=8, k=3, batchesPerEpoch=1, epochs=1, seed=-303735989672389, stepsPerGeneration=3,
             numIterations=3),
        base(ranks=6, batch=6, k=4, batchesPerEpoch=1, epochs=3, datasetSize=11, seed=-353934250309145),
        base(batch=2, k=4, batchesPerEpoch=1, epochs=3, datasetSize=6, stepsPerGeneration=5, numIterations=3,
             gradientAccumulationSteps=5),
    ],
    'contiguous': [
        base(ranks=8, k=4, batchesPerEpoch=1, epochs=1, datasetSize=9, seed=-104057250, gradientAccumulationSteps=4),
        base(ranks=12, batch=25, k=5, batchesPerEpoch=1, epochs=1, datasetSize=270, seed=-5097918911822212,
             gradientAccumulationSteps=2),
        base(ranks=8, batch=8, batchesPerEpoch=1, epochs=7, datasetSize=27, seed=80),
        base(ranks=1, batch=2, batchesPerEpoch=1, epochs=4, datasetSize=2382, seed=1392903712528440,
             gradientAccumulationSteps=4),
        base(batch=3, k=3, batchesPerEpoch=1, epochs=4, datasetSize=1, seed=-8363624912),
        base(ranks=7, batch=3, k=1, batchesPerEpoch=1, epochs=9, datasetSize=42, seed=1542954187),
        base(ranks=5, batch=32, k=4, batchesPerEpoch=1, epochs=3, datasetSize=198, seed=171435716),
        base(ranks=1, batch=3, k=1, epochs=4, datasetSize=8, seed=-407485775328055, gradientAccumulationSteps=2),
        base(ranks=8, batch=5, k=5, batchesPerEpoch=1, epochs=1, datasetSize=1, seed=-6720991330102959,
             gradientAccumulationSteps=2),
        base(ranks=4, batch=1, k=1, batchesPerEpoch=1, epochs=7, datasetSize=4, seed=655379050,
             gradientAccumulationSteps=2),
    ],
    'dance-grpo': [
        base(ranks=8, batch=5, k=5, epochs=3, datasetSize=15, seed=4294967297, gradientAccumulationSteps=3),
        base(ranks=1, batch=2, epochs=1, datasetSize=2, seed=-935345732, gradientAccumulationSteps=3),
        base(ranks=1, batch=12, k=3, batchesPerEpoch=1, datasetSize=6, seed=32),
        base(ranks=1, batch=8, k=8, datasetSize=2, seed=68),
        base(batch=32, k=4, datasetSize=41, seed=57, gradientAccumulationSteps=2),
        base(ranks=3, batch=8, k=4, batchesPerEpoch=3, epochs=1, datasetSize=21, seed=789117256),
        base(batch=16, batchesPerEpoch=1, epochs=1, datasetSize=19, seed=843528079, gradientAccumulationSteps=3),
        base(ranks=5, batch=16, batchesPerEpoch=4, epochs=1, datasetSize=188, seed=-7195421825),
        base(ranks=4, batch=15, k=5, epochs=4, datasetSize=31, seed=-3335315411213754),
        base(ranks=12, batch=32, k=8, batchesPerEpoch=1, epochs=1, datasetSize=73, seed=541075008,
             gradientAccumulationSteps=4),
    ],
    'flow-grpo': [
        base(ranks=4, batch=1, batchesPerEpoch=8, epochs=1, datasetSize=44903, seed=5675377135751294,
             gradientAccumulationSteps=3),
        base(ranks=1, batch=1, k=1, epochs=3, datasetSize=2, seed=1108733362, gradientAccumulationSteps=3),
        base(ranks=1, batch=2, batchesPerEpoch=1, epochs=1, datasetSize=3, seed=-8532502336),
        base(ranks=1, batch=3, k=3, batchesPerEpoch=8, epochs=3, datasetSize=3, seed=2731312591),
        base(ranks=4, batch=6, batchesPerEpoch=8, datasetSize=1340, seed=10, gradientAccumulationSteps=2),
        base(ranks=8, batch=3, k=24, batchesPerEpoch=5, datasetSize=2, seed=4970895898937969,
             gradientAccumulationSteps=2),
        base(ranks=1, batch=3, k=3, batchesPerEpoch=1, datasetSize=2, seed=72),
        base(batch=3, batchesPerEpoch=1, epochs=1, datasetSize=6, seed=2451796839, numIterations=2,
             gradientAccumulationSteps=3),
        base(ranks=1, batch=3, k=1, batchesPerEpoch=8, epochs=1, datasetSize=13, seed=-7091962176, numIterations=2),
        base(ranks=1, batch=1, k=1, batchesPerEpoch=8, epochs=1, datasetSize=2, seed=1642218623, numIterations=2,
             gradientAccumulationSteps=2),
    ],
    'flow-grpo-lcm': [
        base(ranks=4, k=6, batchesPerEpoch=3, datasetSize=21, seed=2714771146, gradientAccumulationSteps=2),
        base(ranks=4, batch=2, k=6, batchesPerEpoch=3, epochs=1, datasetSize=6, seed=0, numIterations=2),
        base(ranks=1, batch=5, k=1, batchesPerEpoch=1, datasetSize=10, seed=1178665692),
        base(batch=6, k=4, epochs=6, datasetSize=9, seed=2428161554),
        base(ranks=5, batch=6, k=6, batchesPerEpoch=1, epochs=4, datasetSize=34, seed=2147483648, numIterations=2,
             gradientAccumulationSteps=3),
        base(ranks=12, batch=8, k=4, batchesPerEpoch=1, epochs=1, datasetSize=24, seed=1621855930,
             gradientAccumulationSteps=2),
        base(ranks=5, batch=3, k=1, batchesPerEpoch=1, epochs=4, datasetSize=18, seed=-1, numIterations=2),
        base(ranks=12, k=1, epochs=1, datasetSize=99, seed=-3947975649),
        base(ranks=3, batch=3, k=8, batchesPerEpoch=8, epochs=3, datasetSize=12, seed=3190219888),
        base(ranks=1, batch=2, k=3, batchesPerEpoch=6, epochs=3, datasetSize=22, seed=5507185464818892,
             numIterations=2),
    ],
    'group-distributed': [
        base(ranks=6, batch=2, k=6, epochs=1, datasetSize=24, seed=8799633465986925),
        base(batch=9, k=6, batchesPerEpoch=1, datasetSize=4787, seed=8939273854487667, numIterations=2,
             gradientAccumulationSteps=2),
        base(ranks=6, batch=1, k=6, batchesPerEpoch=3, epochs=3, datasetSize=4172, seed=5299002243791657,
             gradientAccumulationSteps=3),
        base(ranks=1, k=4, batchesPerEpoch=1, epochs=3, datasetSize=4, seed=5450899194697831),
        base(ranks=4, batch=3, k=4, batchesPerEpoch=1, datasetSize=106264, seed=1321882432, numIterations=2),
        base(ranks=1, batch=6, datasetSize=8, seed=87),
        base(ranks=4, batch=6, k=8, batchesPerEpoch=1, epochs=1, datasetSize=85065, seed=53,
             gradientAccumulationSteps=3),
        base(ranks=1, batch=3, k=3, batchesPerEpoch=6, epochs=1, datasetSize=17, seed=57, gradientAccumulationSteps=3),
        base(ranks=7, batch=1, k=7, batchesPerEpoch=3, epochs=3, datasetSize=94353, seed=4294967295),
        base(ranks=5, k=20, batchesPerEpoch=4, datasetSize=10, seed=75),
    ],
}
RANDOM_TRL_COUNT_SPECS = [
    dict(ranks=5, batch=12, k=5, ga=1, mu=3, epochs=5, spg=1, datasetSize=14),
    dict(ranks=4, batch=3, k=9, ga=1, mu=1, epochs=4, spg=1, datasetSize=2),
    dict(ranks=16, batch=1, k=4, ga=1, mu=3, epochs=1, spg=1, datasetSize=3642),
    dict(ranks=2, batch=4, k=8, ga=8, mu=2, epochs=2, spg=1, datasetSize=2983),
    dict(ranks=16, batch=4, k=4, ga=4, mu=2, epochs=1, datasetSize=455),
    dict(ranks=8, batch=1, k=8, ga=5, mu=1, epochs=12, spg=1, datasetSize=3),
    dict(ranks=2, batch=12, k=12, ga=8, mu=4, epochs=2, spg=1, datasetSize=5),
    dict(ranks=2, batch=5, k=5, ga=8, mu=1, epochs=4, gbs=60, datasetSize=12),
    dict(ranks=4, batch=5, k=20, ga=1, mu=1, epochs=2, datasetSize=3529),
    dict(ranks=2, batch=1, k=8, ga=8, mu=1, epochs=5, spg=4, datasetSize=4),
    dict(ranks=6, batch=8, k=48, ga=1, mu=2, epochs=11, spg=1, datasetSize=3),
    dict(ranks=3, batch=4, k=2, ga=1, mu=1, epochs=1, datasetSize=23),
    dict(ranks=2, batch=4, k=2, ga=4, mu=4, epochs=9, gbs=24, datasetSize=12),
    dict(ranks=12, batch=5, k=48, ga=8, mu=1, epochs=1, datasetSize=28),
    dict(ranks=6, batch=2, k=48, ga=4, mu=4, epochs=1, datasetSize=2),
    dict(ranks=5, batch=1, k=5, ga=8, mu=1, epochs=3, gbs=5, datasetSize=2),
    dict(ranks=1, batch=2, k=1, ga=8, mu=1, epochs=4, spg=1, datasetSize=2),
    dict(ranks=4, batch=6, k=6, ga=4, mu=3, epochs=4, spg=2, datasetSize=19),
    dict(ranks=8, batch=12, k=8, ga=1, mu=2, epochs=2, spg=4, datasetSize=48),
    dict(ranks=7, batch=5, k=35, ga=5, mu=1, epochs=1, datasetSize=18),
]
RANDOM_FLOW_LOOPS = [
    (2, 2, 5, 2, 1), (2, 1, 6, 2, 5), (3, 2, 2, 2, 1), (2, 2, 3, 1, 2),
    (4, 2, 5, 1, 3), (2, 1, 6, 2, 4), (3, 3, 5, 3, 1), (3, 1, 1, 1, 2),
]
RANDOM_DANCE_LOOPS = [(5, 8, 4, 2), (2, 11, 1, 1), (1, 4, 2, 2), (2, 2, 6, 1)]
for _sampler, _configs in RANDOM_LAYOUT_CASES.items():
    LAYOUT_CASES[_sampler].extend(_configs)
LAYOUT_FNS = {
    'trl': trl_layout, 'contiguous': contiguous_layout, 'dance-grpo': dance_grpo_layout,
    'flow-grpo': flow_grpo_layout, 'flow-grpo-lcm': flow_grpo_lcm_layout, 'group-distributed': group_distributed_layout,
}


def layouts():
    cases = []
    for sampler, configs in LAYOUT_CASES.items():
        for c in configs:
            cases.append({'config': {'sampler': sampler, **c}, 'steps': LAYOUT_FNS[sampler](c)})
    write('golden-layouts.json', {
        'about': 'Layouts (steps × ranks × slots of prompt ids) made by real torch/trl/accelerate classes and '
                 'line-for-line transcriptions of flow_grpo/DanceGRPO (scripts/golden/make_fixtures.py).',
        'cases': cases,
    })


# ---------------------------------------------------------------- generator

def rng():
    perms = []
    for n, seed in [(1000, 0), (2048, 42), (3001, 7), (5000, 123456789), (4096, -1)]:
        g = torch.Generator().manual_seed(seed)
        perms.append({'seed': seed, 'n': n, 'randperm': torch.randperm(n, generator=g).tolist()})
    rands = []
    for seed, dtype, count in [(0, torch.float32, 200), (42, torch.float32, 200), (0, torch.float64, 200), (2**40 + 3, torch.float64, 200)]:
        g = torch.Generator().manual_seed(seed)
        # float32 values are exact in a double; repr() of a Python float round-trips exactly.
        rands.append({'seed': seed, 'dtype': str(dtype).replace('torch.', ''),
                      'values': [float(x) for x in torch.rand(count, generator=g, dtype=dtype).tolist()]})
    # torch.randint, as the dynamic-sampling protocol draws it: random() % (high - low) + low below 2^32 ranges;
    # after a randperm from the same generator, so the draws randperm consumed are checked too.
    ints = []
    for seed, n, low, high, count in [(42, 10, 0, 7, 100), (-5, 1000, -50, 50, 100), (2**33 + 1, 0, 0, 2**28 - 1, 100)]:
        g = torch.Generator().manual_seed(seed)
        torch.randperm(n, generator=g)
        ints.append({'seed': seed, 'randpermFirst': n, 'low': low, 'high': high,
                     'values': torch.randint(low, high, (count,), generator=g).tolist()})
    write('golden-rng.json', {
        'about': 'torch.randperm for n in the thousands, torch.rand float32/float64 at full precision and torch.randint, '
                 'CPU generator.',
        'randperm': perms, 'rand': rands, 'randint': ints,
    })


# ---------------------------------------------------------------- TRL counts and errors

class SimulatedWorldConfig(GRPOConfig):
    """GRPOConfig with accelerate's world size replaced, so __post_init__ runs TRL's own rules for W processes."""
    world = 1

    @property
    def world_size(self):
        return type(self).world


def trl_count_case(s):
    """One TRL counts case: GRPOConfig.__post_init__ for s['ranks'] processes (its ValueError, verbatim, if it
    rejects the settings), then len(DataLoader) through BatchSamplerShard and Trainer.set_initial_training_values."""
    SimulatedWorldConfig.world = s['ranks']
    kw = dict(output_dir='/tmp/golden-trl', per_device_train_batch_size=s['batch'], num_generations=s['k'],
              gradient_accumulation_steps=s['ga'], num_iterations=s.get('mu', 1), num_train_epochs=s['epochs'],
              report_to=[], use_cpu=True, seed=42)
    if 'spg' in s:
        kw['steps_per_generation'] = s['spg']
    if 'gbs' in s:
        kw['generation_batch_size'] = s['gbs']
    case = {'input': s}
    try:
        args = SimulatedWorldConfig(**kw)
    except ValueError as e:
        case['error'] = f'ValueError: {e}'
        return case
    spg, gbs, mu = args.steps_per_generation, args.generation_batch_size, args.num_iterations
    sampler = RepeatSampler(list(range(s['datasetSize'])), mini_repeat_count=s['k'], batch_size=gbs // s['k'],
                            repeat_count=mu * spg, shuffle=True, seed=42)
    loader = DataLoader(list(range(s['datasetSize'])), batch_sampler=BatchSamplerShard(
        BatchSampler(sampler, s['batch'] * spg, drop_last=False), num_processes=s['ranks'], process_index=0,
        split_batches=False, even_batches=True))
    stub = types.SimpleNamespace(get_total_train_batch_size=lambda a: 0, get_sp_size=lambda: 1,
                                 num_examples=lambda dl: s['datasetSize'], args=args)
    (_, updates_per_epoch, _, _, _, steps_in_epoch, max_steps) = Trainer.set_initial_training_values(stub, args, loader)
    case.update({'stepsPerGeneration': spg, 'generationBatchSize': gbs, 'microStepsPerEpoch': steps_in_epoch,
                 'optimizerStepsPerEpoch': updates_per_epoch, 'maxSteps': max_steps,
                 'generationBatchesPerEpoch': len(sampler) // (gbs * mu * spg)})
    return case


def trl_counts():
    cases = []
    specs = [
        dict(ranks=1, batch=4, k=2, ga=1, datasetSize=20, epochs=1),
        dict(ranks=2, batch=3, k=2, ga=2, datasetSize=20, epochs=1, mu=2),
        dict(ranks=4, batch=2, k=4, ga=4, datasetSize=64, epochs=3),
        dict(ranks=2, batch=4, k=4, ga=3, spg=2, datasetSize=50, epochs=2, mu=3),
        dict(ranks=2, batch=4, k=4, ga=5, gbs=24, datasetSize=37, epochs=1, mu=2),
        dict(ranks=8, batch=1, k=8, ga=1, datasetSize=100, epochs=2, mu=4),
        dict(ranks=1, batch=8, k=8, ga=7, spg=1, datasetSize=9, epochs=4),
        dict(ranks=3, batch=5, k=5, ga=2, spg=3, datasetSize=200, epochs=1, mu=1),
        # rejected by TRL: its messages, verbatim
        dict(ranks=2, batch=3, k=5, ga=1, datasetSize=20, epochs=1),
        dict(ranks=2, batch=3, k=2, ga=1, gbs=10, datasetSize=20, epochs=1),
        dict(ranks=2, batch=3, k=2, ga=1, gbs=12, spg=2, datasetSize=20, epochs=1),
        dict(ranks=2, batch=4, k=1, ga=1, datasetSize=20, epochs=1),
    ]
    for s in specs + RANDOM_TRL_COUNT_SPECS:
        cases.append(trl_count_case(s))
    write('golden-trl-counts.json', {
        'about': "TRL's own GRPOConfig.__post_init__ (steps_per_generation, ValueErrors) with the world size set, "
                 "len(DataLoader) through accelerate's BatchSamplerShard, and transformers' Trainer.set_initial_training_values.",
        'cases': cases,
    })


# ---------------------------------------------------------------- flow_grpo / DanceGRPO counts

def counted_optimizer(model):
    """SGD whose step() counts its real calls."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    calls = {'n': 0}
    step = opt.step

    def counting(*a, **k):
        calls['n'] += 1
        return step(*a, **k)
    opt.step = counting
    return opt, calls


def flow_count_case(epochs, inner, nb, T, ga):
    """flow_grpo's loop skeleton (scripts/train_sd3.py, 74db691) through real accelerate accumulation."""
    from accelerate import Accelerator
    from accelerate.state import AcceleratorState, GradientState

    AcceleratorState._reset_state(True)
    GradientState._reset_state()
    acc = Accelerator(cpu=True, gradient_accumulation_steps=ga * T)
    model = torch.nn.Linear(2, 1)
    opt, calls = counted_optimizer(model)
    model, opt = acc.prepare(model, opt)
    global_step, per_epoch = 0, []
    for _ in range(epochs):
        start = calls['n']
        for _ in range(inner):
            for _ in range(nb):
                for _ in range(T):
                    with acc.accumulate(model):
                        acc.backward(model(torch.ones(1, 2)).sum())
                        opt.step()
                        opt.zero_grad()
                    if acc.sync_gradients:
                        global_step += 1
        per_epoch.append(calls['n'] - start)
    return {'epochs': epochs, 'numInnerEpochs': inner, 'batchesPerEpoch': nb, 'numTrainTimesteps': T,
            'gradientAccumulationSteps': ga, 'optimizerStepsPerEpoch': per_epoch,
            'optimizerSteps': calls['n'], 'globalStep': global_step, 'microSteps': epochs * inner * nb}


def dance_count_case(steps, batch, ga, T):
    """DanceGRPO's train_one_step (22b85ef): `if (i+1) % gradient_accumulation_steps == 0: optimizer.step()`."""
    model = torch.nn.Linear(2, 1)
    opt, calls = counted_optimizer(model)
    lost = 0
    for _ in range(steps):
        opt.zero_grad()  # train_one_step opens with optimizer.zero_grad()
        pending = False
        for i in range(batch):
            for _ in range(T):
                model(torch.ones(1, 2)).sum().backward()
                pending = True
            if (i + 1) % ga == 0:
                opt.step()
                opt.zero_grad()
                pending = False
        lost += pending
    return {'steps': steps, 'batch': batch, 'gradientAccumulationSteps': ga, 'numTrainTimesteps': T,
            'optimizerSteps': calls['n'], 'stepsEndingWithDiscardedGradients': lost}


def loop_counts():
    """Optimizer steps of flow_grpo's and DanceGRPO's training loops, counted by running the loop
    skeleton on a one-parameter model: flow_grpo (scripts/train_sd3.py, 74db691) through real
    accelerate (Accelerator(gradient_accumulation_steps=GA × num_train_timesteps), accumulate(),
    sync_gradients → global_step); DanceGRPO (train_one_step, 22b85ef) with its own
    `if (i+1) % gradient_accumulation_steps == 0: optimizer.step()`. Each real optimizer.step() is counted."""
    flow = [flow_count_case(*c) for c in [(3, 1, 3, 2, 2), (2, 2, 2, 3, 3), (1, 1, 4, 1, 1), (4, 1, 1, 2, 3), (2, 3, 5, 1, 4)] + RANDOM_FLOW_LOOPS]
    dance = [dance_count_case(*c) for c in [(3, 4, 2, 2), (2, 6, 4, 1), (5, 5, 5, 3), (1, 3, 7, 1)] + RANDOM_DANCE_LOOPS]
    write('golden-loop-counts.json', {
        'about': "Optimizer steps of flow_grpo's loop (real accelerate accumulation) and DanceGRPO's train_one_step, "
                 'counted by running the loops on a one-parameter model (scripts/golden/make_fixtures.py).',
        'flowGrpo': flow, 'danceGrpo': dance,
    })


# ---------------------------------------------------------------- advantages

def advantages():
    g = torch.Generator().manual_seed(3)
    cases = []
    for n, k in [(8, 4), (12, 3), (16, 8), (6, 2)]:
        rewards = torch.rand(n, generator=g, dtype=torch.float64)
        rewards[:k] = rewards[0]  # one zero-std group
        r = rewards.view(-1, k)
        mean = r.mean(dim=1).repeat_interleave(k)
        std_g = r.std(dim=1).repeat_interleave(k)  # unbiased, as TRL
        trl_group = (rewards - mean) / (std_g + 1e-4)
        trl_batch = (rewards - mean) / (rewards.std() + 1e-4)
        trl_none = rewards - mean
        # DanceGRPO train_one_step: per consecutive group, group_rewards.std() + 1e-8
        dance = torch.zeros_like(rewards)
        for i in range(n // k):
            gr = rewards[i * k:(i + 1) * k]
            dance[i * k:(i + 1) * k] = (gr - gr.mean()) / (gr.std() + 1e-8)
        # flow_grpo PerPromptStatTracker.update (global_std=True and False), prompts interleaved
        prompts = [(i * 7) % (n // k) for i in range(n)]
        flow = {}
        for global_std in (True, False):
            out = torch.zeros_like(rewards)
            for p in set(prompts):
                idx = [i for i, q in enumerate(prompts) if q == p]
                pr = rewards[idx]
                std = rewards.std(unbiased=False) if global_std else pr.std(unbiased=False)
                out[idx] = (pr - pr.mean()) / (std + 1e-4)
            flow['global' if global_std else 'perPrompt'] = out.tolist()
        # verl compute_grpo_outcome_advantage: group by uid, unbiased std, eps 1e-6, singletons mean 0 std 1
        uids = prompts[:-1] + [999]
        verl = torch.zeros_like(rewards)
        for u in set(uids):
            idx = [i for i, q in enumerate(uids) if q == u]
            ur = rewards[idx]
            m, s = (torch.tensor(0.0, dtype=torch.float64), torch.tensor(1.0, dtype=torch.float64)) if len(idx) == 1 else (ur.mean(), ur.std())
            verl[idx] = (ur - m) / (s + 1e-6)
        cases.append({'k': k, 'rewards': rewards.tolist(), 'promptIds': prompts, 'uids': uids,
                      'trl': {'group': trl_group.tolist(), 'batch': trl_batch.tolist(), 'none': trl_none.tolist()},
                      'danceGrpo': dance.tolist(), 'flowGrpo': flow, 'verl': verl.tolist()})
    write('golden-advantages.json', {
        'about': "Each framework's group advantages, transcribed with torch float64 (TRL GRPOTrainer, DanceGRPO "
                 "train_one_step, flow_grpo PerPromptStatTracker, verl compute_grpo_outcome_advantage).",
        'cases': cases,
    })


# ---------------------------------------------------------------- TRL loss types

def losses():
    """GRPOTrainer._compute_loss (trl 1.13.0, trainer/grpo_trainer.py) for grpo, bnpo, dr_grpo and dapo,
    transcribed with torch autograd in float64 on float32-exact inputs; one process, no accumulation
    (current_gradient_accumulation_steps = steps_per_generation = 1, so dapo's normalizer is mask.sum())."""
    g = torch.Generator().manual_seed(11)
    cases = []
    for rows, tokens, beta, eps_low, eps_high in [(3, 5, 0.0, 0.2, 0.2), (4, 6, 0.04, 0.2, 0.28), (2, 7, 0.1, 0.1, 0.3)]:
        f32 = lambda t: t.to(torch.float32).to(torch.float64)
        old = f32(-torch.rand(rows, tokens, generator=g, dtype=torch.float64) * 3)
        logp0 = f32(old + (torch.rand(rows, tokens, generator=g, dtype=torch.float64) - 0.5) * 0.8)
        ref = f32(old + (torch.rand(rows, tokens, generator=g, dtype=torch.float64) - 0.5) * 0.4)
        adv = f32(torch.randn(rows, generator=g, dtype=torch.float64))
        lengths = torch.randint(1, tokens + 1, (rows,), generator=g)
        mask = (torch.arange(tokens)[None, :] < lengths[:, None]).to(torch.float64)
        max_len = tokens + 3
        for loss_type in ['grpo', 'bnpo', 'dr_grpo', 'dapo']:
            logp = logp0.clone().requires_grad_(True)
            coef_1 = torch.exp(logp - old)
            coef_2 = torch.clamp(coef_1, 1 - eps_low, 1 + eps_high)
            per_token_loss = -torch.min(coef_1 * adv[:, None], coef_2 * adv[:, None])
            if beta != 0.0:
                per_token_loss = per_token_loss + beta * (torch.exp(ref - logp) - (ref - logp) - 1)
            if loss_type == 'grpo':
                loss = ((per_token_loss * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)).mean()
            elif loss_type == 'bnpo':
                loss = (per_token_loss * mask).sum() / mask.sum().clamp(min=1.0)
            elif loss_type == 'dr_grpo':
                loss = (per_token_loss * mask).sum() / (per_token_loss.size(0) * max_len)
            else:
                loss = (per_token_loss * mask).sum() / mask.sum().clamp(min=1.0)
            loss.backward()
            cases.append({'lossType': loss_type, 'rows': rows, 'tokens': tokens, 'beta': beta, 'epsilonLow': eps_low,
                          'epsilonHigh': eps_high, 'maxCompletionLength': max_len,
                          'logp': logp0.flatten().tolist(), 'oldLogp': old.flatten().tolist(), 'refLogp': ref.flatten().tolist(),
                          'mask': mask.flatten().tolist(), 'advantages': adv.tolist(),
                          'loss': loss.item(), 'gradLogp': logp.grad.flatten().tolist()})
    write('golden-losses.json', {
        'about': "TRL 1.13.0's four loss types and d loss / d logp (torch autograd, float64 on float32-exact inputs), "
                 "a transcription of GRPOTrainer._compute_loss (it needs a model to be called).",
        'cases': cases,
    })


if __name__ == '__main__':
    which = sys.argv[1:] or ['layouts', 'rng', 'trl_counts', 'loop_counts', 'advantages', 'losses']
    for name in which:
        globals()[name]()

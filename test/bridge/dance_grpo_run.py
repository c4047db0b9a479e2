"""DanceGRPO's loader under torchrun, probe attached.

fastvideo/train_grpo_flux.py (XueZeyue/DanceGRPO 22b85ef), as scripts/golden/make_fixtures.py
transcribes it:
    sampler = DistributedSampler(train_dataset, rank=rank, num_replicas=world_size, shuffle=True, seed=args.sampler_seed)
    train_dataloader = DataLoader(train_dataset, sampler=sampler, batch_size=args.train_batch_size, drop_last=True, ...)
    loader = sp_parallel_dataloader_wrapper(...)   # while True: for data_item in dataloader: yield ...
    for epoch in range(1): sampler.set_epoch(epoch)
    for step in range(1, max_train_steps + 1): ... = next(loader); train_one_step repeat_interleaves num_generations
Variant wrong-seed: the run's sampler_seed is 43, the test diffs against the sandbox's --seed 42.
"""
import types

import torch
from torch.utils.data import DataLoader, DistributedSampler

from common import Probe

VARIANTS = ["identical", "wrong-seed"]


def sp_parallel_dataloader_wrapper(dataloader):
    while True:
        for data_item in dataloader:
            yield data_item


def run(variant, log, rank, world):
    run = types.SimpleNamespace(train_batch_size=2, num_generations=3, sampler_seed=42, max_train_steps=7)
    if variant == "wrong-seed":
        run.sampler_seed = 43
    train_dataset = list(range(11))
    sampler = DistributedSampler(train_dataset, rank=rank, num_replicas=world, shuffle=True, seed=run.sampler_seed)
    train_dataloader = DataLoader(train_dataset, sampler=sampler, batch_size=run.train_batch_size, drop_last=True)
    loader = sp_parallel_dataloader_wrapper(train_dataloader)
    probe = Probe.dance_grpo(log, sampler, run)
    for epoch in range(1):
        sampler.set_epoch(epoch)
    for step in range(1, run.max_train_steps + 1):
        prompt_ids = next(loader)
        probe.record(step - 1, torch.repeat_interleave(prompt_ids, run.num_generations))

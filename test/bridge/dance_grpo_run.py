"""DanceGRPO's loader under torchrun, probe attached.

fastvideo/train_grpo_flux.py (XueZeyue/DanceGRPO 22b85ef), as scripts/golden/make_fixtures.py
transcribes it:
    sampler = DistributedSampler(train_dataset, rank=rank, num_replicas=world_size, shuffle=True, seed=args.sampler_seed)
    train_dataloader = DataLoader(train_dataset, sampler=sampler, batch_size=args.train_batch_size, drop_last=True, ...)
    loader = sp_parallel_dataloader_wrapper(...)   # while True: for data_item in dataloader: yield ...
    for epoch in range(1): sampler.set_epoch(epoch)
    for step in range(1, max_train_steps + 1): ... = next(loader); train_one_step repeat_interleaves num_generations
Variant wrong-seed: the run's sampler_seed is 43, the test diffs against the sandbox's --seed 42.
The dataset returns no index (DanceGRPO's latent dataset gives embeddings and a caption): the probe
watches the DataLoader, as the README says, and logs each prompt id num_generations times.
"""
import os
import types

import torch
from torch.utils.data import DataLoader, Dataset, DistributedSampler

from common import Probe

VARIANTS = ["identical", "wrong-seed"]


class LatentDataset(Dataset):
    """Stands for DanceGRPO's latent dataset: an embedding and a caption per prompt, no index."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        return torch.full((4,), float(idx)), f"caption {idx}"


def sp_parallel_dataloader_wrapper(dataloader):
    while True:
        for data_item in dataloader:
            yield data_item


def watching_a_distributed_sampler_is_refused(dataset, rank, world):
    """watch(DistributedSampler) would log single indices as steps: it must raise, naming the fix."""
    sampler = DistributedSampler(dataset, rank=rank, num_replicas=world, shuffle=True, seed=0)
    probe = Probe(os.devnull, "DanceGRPO", "22b85ef", {"sampler": "dance-grpo"})
    probe.watch(sampler)
    try:
        next(iter(sampler))
    except TypeError as e:
        assert "watch the DataLoader" in str(e), e
    else:
        raise AssertionError("watch(DistributedSampler) did not refuse")


def run(variant, log, rank, world):
    run = types.SimpleNamespace(train_batch_size=2, num_generations=3, sampler_seed=42, max_train_steps=7)
    if variant == "wrong-seed":
        run.sampler_seed = 43
    train_dataset = LatentDataset(11)
    if variant == "identical":
        watching_a_distributed_sampler_is_refused(train_dataset, rank, world)
    sampler = DistributedSampler(train_dataset, rank=rank, num_replicas=world, shuffle=True, seed=run.sampler_seed)
    train_dataloader = DataLoader(train_dataset, sampler=sampler, batch_size=run.train_batch_size, drop_last=True)
    # The README's line for DanceGRPO: the commit this loop is transcribed from.
    Probe.dance_grpo(log, sampler, run, version="22b85ef").watch(train_dataloader)
    loader = sp_parallel_dataloader_wrapper(train_dataloader)
    for epoch in range(1):
        sampler.set_epoch(epoch)
    for step in range(1, run.max_train_steps + 1):
        embeddings, captions = next(loader)
        assert embeddings.shape == (run.train_batch_size, 4) and len(captions) == run.train_batch_size
        torch.repeat_interleave(embeddings, run.num_generations, dim=0)  # train_one_step's repeat, which the probe mirrors

"""flow_grpo's sampling loop under torchrun, probe attached.

DistributedKRepeatSampler is flow_grpo's scatter sampler (scripts/train_sd3.py before commit 74db691,
transcribed line for line as in scripts/golden/make_fixtures.py; scripts/golden/flow_grpo_loader.py runs
the class itself from a checkout). The loop is train_sd3.py's (ac4c86e):
    train_dataloader = DataLoader(train_dataset, batch_sampler=train_sampler, num_workers=1, collate_fn=...)
    ... = accelerator.prepare(..., train_dataloader, ...)
    train_iter = iter(train_dataloader)
    for epoch ...: for i in range(config.sample.num_batches_per_epoch):
        train_sampler.set_epoch(epoch * config.sample.num_batches_per_epoch + i)
        prompts, prompt_metadata = next(train_iter)
Variants: identical (the loader as the script builds it: one worker, accelerator.prepare on the two gloo
ranks); wrong-seed (the run seeds its sampler with 43; the test diffs it against --seed 42); prefetch
(one worker, not prepared); idealised (num_workers=0, not prepared: the loop that reads each batch as
set_epoch seeds it); no-set-epoch (the set_epoch line left out, num_workers=0).
The dataset returns no index, as flow_grpo's TextPromptDataset: the probe watches the (prepared) loader's
batch sampler, so each record is what that rank's loader yielded, prefetched batches the loop never
reached included (README). The probe is told the loader (dataloader=) except in no-set-epoch, whose log
has no loader settings, as a probe attached the older way.
"""
import types

import torch
from torch.utils.data import DataLoader, Dataset

from common import Probe

VARIANTS = ["identical", "wrong-seed", "prefetch", "idealised", "no-set-epoch"]

# (num_workers, accelerator.prepare) per variant; train_sd3.py at ac4c86e: (1, True).
LOADER = {"identical": (1, True), "wrong-seed": (1, True), "prefetch": (1, False), "idealised": (0, False), "no-set-epoch": (0, False)}


class DistributedKRepeatSampler:
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


class PromptDataset(Dataset):
    """Stands for flow_grpo's TextPromptDataset: the prompt text and empty metadata, no index (as the real
    one returns), so the probe must watch the sampler."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        return {"prompt": f"prompt {idx}", "metadata": {}}

    @staticmethod
    def collate_fn(examples):
        return [e["prompt"] for e in examples], [e["metadata"] for e in examples]


def run(variant, log, rank, world):
    config = types.SimpleNamespace(
        seed=42,
        num_epochs=2,
        sample=types.SimpleNamespace(train_batch_size=3, num_image_per_prompt=2, num_batches_per_epoch=3),
        train=types.SimpleNamespace(num_inner_epochs=1, gradient_accumulation_steps=1),
    )
    train_dataset = PromptDataset(20)
    seed = config.seed + (1 if variant == "wrong-seed" else 0)
    train_sampler = DistributedKRepeatSampler(
        dataset=train_dataset, batch_size=config.sample.train_batch_size, k=config.sample.num_image_per_prompt,
        num_replicas=world, rank=rank, seed=seed,
    )
    workers, prepare = LOADER[variant]
    train_dataloader = DataLoader(
        train_dataset, batch_sampler=train_sampler, num_workers=workers, collate_fn=PromptDataset.collate_fn,
    )
    if prepare:
        from accelerate import Accelerator

        # Accelerator() joins the gloo process group run_all.py started; prepare wraps the batch sampler in
        # BatchSamplerShard (two processes) and the loader in DataLoaderShard.
        train_dataloader = Accelerator(cpu=True).prepare(train_dataloader)
    # The README's line for flow_grpo (no version: this is a transcription, not a checkout with a commit).
    if variant == "no-set-epoch":
        Probe.flow_grpo(log, train_sampler, config).watch(train_dataloader)
    else:
        Probe.flow_grpo(log, train_sampler, config, dataloader=train_dataloader).watch(train_dataloader)
    train_iter = iter(train_dataloader)
    nb = config.sample.num_batches_per_epoch
    for epoch in range(config.num_epochs):
        for i in range(nb):
            if variant != "no-set-epoch":
                train_sampler.set_epoch(epoch * nb + i)
            prompts, prompt_metadata = next(train_iter)
            assert prompt_metadata == [{}] * config.sample.train_batch_size

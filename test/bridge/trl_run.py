"""TRL's data path under torchrun, probe attached: the real trl RepeatSampler, built as
GRPOTrainer._get_train_sampler builds it from a real GRPOConfig, in the DataLoader that
GRPOTrainer.get_train_dataloader asks for (batch = per_device_train_batch_size × steps_per_generation),
sharded by a real accelerate Accelerator.prepare (BatchSamplerShard). The probe attaches exactly as
TrlProbeCallback.on_train_begin does (Probe.trl + watch_trl). No model is trained: the layout is
decided by the data path alone.
Variant wrong-seed: GRPOConfig(seed=43), diffed against the sandbox's --seed 42.
"""
import tempfile

from accelerate import Accelerator
from torch.utils.data import DataLoader
from trl import GRPOConfig
from trl.trainer.grpo_trainer import RepeatSampler

from common import Probe

VARIANTS = ["identical", "wrong-seed"]


def run(variant, log, rank, world):
    cfg = GRPOConfig(
        output_dir=tempfile.mkdtemp(), per_device_train_batch_size=3, num_generations=4, gradient_accumulation_steps=2,
        num_iterations=2, seed=43 if variant == "wrong-seed" else 42, report_to=[], use_cpu=True,
    )
    # After GRPOConfig: TrainingArguments resets accelerate's shared state, as in a real Trainer.
    accelerator = Accelerator()
    dataset = list(range(17))
    sampler = RepeatSampler(
        data_source=dataset, mini_repeat_count=cfg.num_generations, batch_size=cfg.generation_batch_size // cfg.num_generations,
        repeat_count=cfg.num_iterations * cfg.steps_per_generation, shuffle=True, seed=cfg.seed,
    )
    loader = accelerator.prepare(DataLoader(dataset, batch_size=cfg.per_device_train_batch_size * cfg.steps_per_generation, sampler=sampler))
    probe = Probe.trl(log, cfg, len(dataset), accelerator.num_processes)
    probe.watch_trl(loader, cfg)
    for _epoch in range(2):
        for _batch in loader:
            pass

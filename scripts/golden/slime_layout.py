"""Writes test/fixtures/golden-slime-layout.json by running slime's own data-path code from a checkout.

    /work/golden-venv/bin/python scripts/golden/slime_layout.py /path/to/slime-checkout [out.json]

Made with THUDM/slime 624b824a898ab0ec1fcb4d373004c7f3852bf515 (the checkout's commit is recorded in
the fixture), Python 3 `random`, torch 2.13 CPU. CI never runs this: the JSON is committed and the
TypeScript tests read it.

What runs as slime's code:
- slime/utils/dp_schedule.py is imported as it is (build_dp_schedule with its seqlen_balancing and
  flops_utils helpers: first_fit_pack, expand_bins_by_splitting, karmarkar_karp, calculate_fwd_flops);
- slime/rollout/data_source.py RolloutDataSource (__init__ and get_samples, exec'd from the file's AST
  with stand-ins for load_tokenizer / load_processor / Sample / Dataset);
- slime/utils/data.py Dataset.shuffle, __len__, __getitem__ (exec'd from the AST into the stand-in
  Dataset, with the real `random` module).
Transcribed: the stand-in Dataset's constructor keeps only the last three lines of Dataset.__init__
(epoch_id = -1, seed, samples = origin_samples), because the real one reads a file with a tokenizer;
its samples are the dataset indices 0..D-1. RolloutManager._convert_samples_to_train_data gives
samples without a rollout_id the ids 0, 1, 2, ... in order (one rollout per sample), so
build_dp_schedule gets rollout_indices = range(N), total_lengths = the sample token counts, and
train_parallel_config = {dp_size, cp_size, vpp_size: 1, microbatch_group_size_per_vp_stage: 1}
(VPP is not modelled). num_rollout from --num-epoch is len(dataset) // rollout_batch_size * num_epoch
(RolloutManager.get_num_rollout_per_epoch and create_rollout_manager, one line each).
The synthetic token counts are the sandbox's convention, drawn with real torch:
torch.randint(64, 1025, (rollout_batch_size * n,), generator=torch.Generator().manual_seed(rollout_seed)),
one generator for the whole run, one draw per rollout in generation order (prompt-major).
"""
import ast
import copy
import json
import logging
import os
import random
import subprocess
import sys
import types
from pathlib import Path

import torch

SEQLEN_LOW, SEQLEN_HIGH = 64, 1025


def class_methods(path, cls, names):
    tree = ast.parse(open(path).read())
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    found = [n for n in body if isinstance(n, ast.FunctionDef) and n.name in names]
    missing = set(names) - {n.name for n in found}
    if missing:
        raise SystemExit(f"{path}: {cls} has no {sorted(missing)}")
    return found


def exec_class(path, cls, names, bases_src, g):
    """A class named `cls` holding the named methods from the file, exec'd in globals g."""
    methods = class_methods(path, cls, names)
    node = ast.ClassDef(name=cls, bases=[ast.Name(id=b, ctx=ast.Load()) for b in bases_src], keywords=[], body=methods,
                        decorator_list=[], type_params=[])
    mod = ast.Module(body=[node], type_ignores=[])
    ast.fix_missing_locations(mod)
    exec(compile(mod, path, "exec"), g)
    return g[cls]


class StandInSample:
    def __init__(self, prompt_id=None):
        self.prompt_id = prompt_id
        self.group_index = None
        self.index = None


def load_data_source(checkout):
    # Dataset: the real shuffle / __len__ / __getitem__, a stand-in constructor (see the docstring).
    g_data = {"random": random, "__name__": "slime_data_exec"}
    DatasetMethods = exec_class(os.path.join(checkout, "slime/utils/data.py"), "Dataset",
                                ["shuffle", "__getitem__", "__len__"], [], g_data)

    class Dataset(DatasetMethods):
        def __init__(self, path, *, size, seed, **_ignored):
            self.origin_samples = [StandInSample(i) for i in range(size)]
            self.epoch_id = -1
            self.seed = seed
            self.samples = self.origin_samples

    class DataSource:
        pass

    g = {
        "copy": copy, "os": os, "torch": torch, "Path": Path, "logger": logging.getLogger("slime_exec"),
        "Sample": StandInSample, "DataSource": DataSource, "__name__": "slime_ds_exec",
        "load_tokenizer": lambda *a, **k: None, "load_processor": lambda *a, **k: None,
    }
    g["Dataset"] = lambda path, **kw: Dataset(path, size=path["size"], **kw)
    return exec_class(os.path.join(checkout, "slime/rollout/data_source.py"), "RolloutDataSource",
                      ["__init__", "get_samples", "__len__"], ["DataSource"], g)


def data_args(c):
    return types.SimpleNamespace(
        rollout_global_dataset=True, prompt_data={"size": c["dataset_size"]}, hf_checkpoint=None, dump_details=None,
        rollout_max_prompt_len=None, input_key="text", multimodal_keys=None, label_key=None, metadata_key="metadata",
        tool_key=None, apply_chat_template=False, apply_chat_template_kwargs=None, rollout_seed=c["rollout_seed"],
        rollout_shuffle=c["rollout_shuffle"], n_samples_per_prompt=c["n"],
    )


MODEL = dict(num_layers=36, hidden_size=2560, ffn_hidden_size=9728, num_attention_heads=32, num_query_groups=8,
             vocab_size=151936, kv_channels=128, num_experts=None)


def run_case(RolloutDataSource, build_dp_schedule, c):
    ds = RolloutDataSource(data_args(c))
    num_rollout = c["num_rollout"]
    if num_rollout is None:
        num_rollout = len(ds) // c["rollout_batch_size"] * c["num_epoch"]
    gen = torch.Generator().manual_seed(c["rollout_seed"])
    train_args = types.SimpleNamespace(
        micro_batch_size=c["micro_batch_size"], use_dynamic_batch_size=c["use_dynamic_batch_size"],
        max_tokens_per_gpu=c["max_tokens_per_gpu"], balance_data=c["balance_data"] or c["balance_by_flops"],
        balance_by_flops=c["balance_by_flops"], multi_latent_attention=False, **MODEL,
    )
    tpc = {"dp_size": c["dp_size"], "cp_size": c["cp_size"], "vpp_size": 1, "microbatch_group_size_per_vp_stage": 1}
    rollouts = []
    for _ in range(num_rollout):
        epoch_before, offset_before = ds.epoch_id, ds.sample_offset
        groups = ds.get_samples(c["rollout_batch_size"])
        samples = [s for group in groups for s in group]
        seqlens = torch.randint(SEQLEN_LOW, SEQLEN_HIGH, (len(samples),), generator=gen).tolist()
        r = {
            "epoch": epoch_before, "offset": offset_before,
            "prompts": [g[0].prompt_id for g in groups],
            "group_index": [s.group_index for s in samples], "index": [s.index for s in samples],
            "seqlens": seqlens,
        }
        try:
            parts, mbs, num_mbs, gbs = build_dp_schedule(
                train_args, tpc, seqlens, global_batch_size=c["global_batch_size"], rollout_indices=list(range(len(samples))))
            r.update(partitions=parts, micro_batch_indices=mbs, num_microbatches=num_mbs, global_batch_sizes=gbs)
        except AssertionError as e:
            r["error"] = str(e)
        rollouts.append(r)
    return {"config": c, "num_rollout": num_rollout, "rollouts": rollouts}


def configs():
    rng = random.Random(20261128)
    out = []
    base = dict(dataset_size=20, rollout_batch_size=4, n=2, rollout_shuffle=False, rollout_seed=42, num_rollout=None,
                num_epoch=2, global_batch_size=8, micro_batch_size=1, use_dynamic_batch_size=False, max_tokens_per_gpu=None,
                balance_data=False, balance_by_flops=False, dp_size=2, cp_size=1)
    # Hand-picked: the defaults, epoch wrap, shuffle, static error, dynamic, CP, balance-data, flops.
    fixed = [
        {},
        {"rollout_shuffle": True},
        {"dataset_size": 10, "rollout_batch_size": 3, "num_rollout": 9, "num_epoch": None, "rollout_shuffle": True,
         "global_batch_size": 6, "dp_size": 3},
        {"dataset_size": 10, "rollout_batch_size": 3, "num_rollout": 7, "num_epoch": None, "global_batch_size": 6},
        {"global_batch_size": 3},  # static path: 3 mbs not a multiple of 2
        {"micro_batch_size": 3, "global_batch_size": 8},  # static: 3 mbs of 3,3,2 -> error
        {"use_dynamic_batch_size": True, "max_tokens_per_gpu": 1500, "global_batch_size": 8, "dp_size": 2},
        {"use_dynamic_batch_size": True, "max_tokens_per_gpu": 700, "cp_size": 2, "dp_size": 2},
        {"use_dynamic_batch_size": True, "max_tokens_per_gpu": 4000, "dp_size": 4, "rollout_batch_size": 8, "n": 4,
         "global_batch_size": 16, "num_epoch": 1, "dataset_size": 40},
        {"use_dynamic_batch_size": True, "max_tokens_per_gpu": 2048, "balance_data": True, "rollout_batch_size": 8,
         "n": 4, "global_batch_size": 32, "dp_size": 4, "dataset_size": 24},
        {"balance_data": True, "micro_batch_size": 2, "rollout_batch_size": 8, "n": 4, "global_batch_size": 16,
         "dp_size": 2, "dataset_size": 24},
        {"use_dynamic_batch_size": True, "max_tokens_per_gpu": 3000, "balance_by_flops": True, "rollout_batch_size": 6,
         "n": 4, "global_batch_size": 12, "dp_size": 2, "dataset_size": 18},
        {"dp_size": 16, "global_batch_size": 8},  # fewer samples than ranks
        {"global_batch_size": 100},  # fewer rollouts than the global batch
        {"use_dynamic_batch_size": True, "max_tokens_per_gpu": 64, "dp_size": 4, "global_batch_size": 5,
         "rollout_batch_size": 5, "n": 1},  # 5 singleton bins cannot be split to 8 -> dynamic error
    ]
    for f in fixed:
        out.append({**base, **f})
    for _ in range(40):
        dp = rng.choice([1, 2, 3, 4, 8])
        n = rng.choice([1, 2, 4, 8])
        rbs = rng.choice([1, 2, 3, 4, 6, 8])
        samples = rbs * n
        steps = rng.choice([d for d in (1, 2, 4, 8) if samples % d == 0])
        dynamic = rng.random() < 0.5
        mbs = rng.choice([1, 2, 4])
        if not dynamic:
            gbs = samples // steps
            # Mostly valid static settings, sometimes not.
            if rng.random() < 0.8:
                fits = [m for m in (1, 2, 4) if gbs % (m * dp) == 0]
                mbs = rng.choice(fits) if fits else mbs
        c = {
            **base,
            "dataset_size": rng.choice([5, 7, 12, 16, 25, 40]),
            "rollout_batch_size": rbs, "n": n, "dp_size": dp, "cp_size": rng.choice([1, 1, 2]),
            "rollout_shuffle": rng.random() < 0.6, "rollout_seed": rng.choice([0, 1, 42, 1234, 2**31 + 5]),
            "global_batch_size": samples // steps, "micro_batch_size": mbs,
            "use_dynamic_batch_size": dynamic, "max_tokens_per_gpu": rng.choice([512, 1024, 2048, 5000]) if dynamic else None,
            "balance_data": rng.random() < 0.3,
            "num_rollout": rng.choice([None, 3, 6]),
        }
        c["balance_by_flops"] = dynamic and rng.random() < 0.2
        c["num_epoch"] = 2 if c["num_rollout"] is None else None
        if c["num_rollout"] is None and c["dataset_size"] < rbs:
            c["num_rollout"], c["num_epoch"] = 4, None
        out.append(c)
    return out


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else "test/fixtures/golden-slime-layout.json"
    sys.path.insert(0, checkout)
    from slime.utils.dp_schedule import build_dp_schedule  # pure Python, imported as it is

    commit = subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()
    RolloutDataSource = load_data_source(checkout)
    cases = [run_case(RolloutDataSource, build_dp_schedule, c) for c in configs()]
    doc = {
        "commit": commit,
        "source": ("exec: slime/utils/dp_schedule.py build_dp_schedule (imported), slime/rollout/data_source.py "
                   "RolloutDataSource.__init__/get_samples and slime/utils/data.py Dataset.shuffle (AST-exec'd). "
                   "transcribed: the stand-in Dataset constructor (dataset indices as samples), rollout_indices = "
                   "range(N) and num_rollout = len // rollout_batch_size * num_epoch, because the real ones need a "
                   "tokenizer, Ray and sglang. Model for FLOPs (balance-data): Qwen3-4B from scripts/models/qwen3-4B.sh."),
        "model": MODEL,
        "seqlen": {"low": SEQLEN_LOW, "high": SEQLEN_HIGH},
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"wrote {out_path}: {len(cases)} cases, {os.path.getsize(out_path)} bytes")


if __name__ == "__main__":
    main()

"""Writes test/fixtures/golden-verl.json by running verl's own data-path code from a checkout.

    python scripts/golden/verl_layout.py /path/to/verl-checkout [out.json]

Made with verl b178a3cd56f58b2d502255daba591e92833930a7 (the checkout's commit is recorded in the
fixture), torch 2.13 CPU, torchdata 0.11 (StatefulDataLoader and its RandomSampler) and omegaconf
2.3 (verl's config objects). CI never runs this: the JSON is committed and the TypeScript tests read it.

What runs as verl's code (each function's source is read from the checkout and exec'd; the verl
package itself is not imported, since its __init__ pulls ray, tensordict and the rollout engines):
- verl/trainer/main_ppo.py create_rl_sampler: RandomSampler with torch.Generator() seeded by
  data.seed (left unseeded when data.seed is null);
- verl/utils/seqlen_balancing.py calculate_workload, karmarkar_karp, get_seqlen_balanced_partitions,
  log_seqlen_unbalance;
- verl/trainer/ppo/ray_trainer.py RayPPOTrainer._balance_batch, called with a stand-in `self`
  (its _get_dp_size returns the world size; no PrefixGrouper) and a stand-in batch holding the
  attention mask and a reorder() that records the index;
- the sandbox's probe (probe/grpo_sandbox_probe.py, Probe.verl) on that loop: test/fixtures/bridge/verl-*.jsonl.
(verl's config validation of `--emit verl` is scripts/golden/verl_config_check.py.)
Transcribed (one line each, named): the StatefulDataLoader(batch_size=data.train_batch_size, num_workers,
drop_last=True, sampler=...) of RayPPOTrainer._create_dataloader; DataProto.repeat(n, interleave=True)
is np.repeat(ids, n); the dispatch is DataProto.chunk(world size), equal contiguous chunks.
The synthetic token counts are the sandbox's own convention, drawn with real torch:
torch.randint(64, 1025, (train_batch_size * n,), generator=torch.Generator().manual_seed(seed)),
one generator for the whole run, one draw per step in generation order.
"""
import ast
import heapq
import itertools
import json
import os
import subprocess
import sys

import numpy as np
import torch
import torchdata
from torchdata.stateful_dataloader import StatefulDataLoader

SEQLEN_LOW, SEQLEN_HIGH = 64, 1025
TORCH_DEFAULT_SEED = torch.Generator().initial_seed()


def load_functions(path, names, extra_globals=None, cls=None):
    """Exec the named top-level functions (or methods of `cls`) of a checkout file; returns them by name."""
    tree = ast.parse(open(path).read())
    body = tree.body
    if cls is not None:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    found = [n for n in body if isinstance(n, ast.FunctionDef) and n.name in names]
    missing = set(names) - {n.name for n in found}
    if missing:
        raise SystemExit(f"{path}: no {sorted(missing)}")
    g = {"torch": torch, "heapq": heapq, "np": np, "chain": itertools.chain, "__name__": "verl_exec"}
    g.update(extra_globals or {})
    exec(compile(ast.Module(body=found, type_ignores=[]), path, "exec"), g)
    return {n: g[n] for n in names}


class Batch:
    """Stand-in for DataProto in _balance_batch: .batch['attention_mask'], .non_tensor_batch, reorder()."""

    def __init__(self, seqlens):
        width = max(seqlens)
        mask = torch.zeros(len(seqlens), width, dtype=torch.int64)
        for i, s in enumerate(seqlens):
            mask[i, :s] = 1  # verl pads left or right; the row sum is what counts
        self.batch = {"attention_mask": mask}
        self.non_tensor_batch = {}
        self.order = None

    def reorder(self, idx):
        self.order = idx.tolist()


class Trainer:
    """Stand-in `self` for RayPPOTrainer._balance_batch: dp size, no PrefixGrouper, the actor config."""

    def __init__(self, dp_size, cfg):
        self.dp_size = dp_size
        self.actor_rollout_wg = None
        self.config = cfg
        self.use_prefix_grouper = False

    def _get_dp_size(self, worker_group, role):
        return self.dp_size


def run_layout(verl, case):
    from omegaconf import OmegaConf

    D, P, n, W, epochs = case["datasetSize"], case["trainBatchSize"], case["n"], case["ranks"], case["epochs"]
    seed = case["seed"]
    data_cfg = OmegaConf.create({"shuffle": True, "seed": seed, "sampler": None})
    sampler = verl["create_rl_sampler"](data_cfg, list(range(D)))
    # RayPPOTrainer._create_dataloader (transcribed): StatefulDataLoader(batch_size=train_batch_size, drop_last=True, sampler=...)
    loader = StatefulDataLoader(list(range(D)), batch_size=P, num_workers=case["numWorkers"], drop_last=True,
                                collate_fn=lambda xs: xs, sampler=sampler)
    lengths_gen = torch.Generator().manual_seed(TORCH_DEFAULT_SEED if seed is None else seed)
    given = case.get("seqlens")
    used = 0
    trainer = Trainer(W, OmegaConf.create({"actor_rollout_ref": {"actor": {"ppo_mini_batch_size": 1}}}))
    steps, error = [], None
    for epoch in range(epochs):
        for step, ids in enumerate(loader):
            repeated = np.repeat(np.array(ids), n).tolist()  # DataProto.repeat(n, interleave=True)
            count = len(repeated)
            if given is not None:
                seqlens = given[used:used + count]
                used += count
            else:
                seqlens = torch.randint(SEQLEN_LOW, SEQLEN_HIGH, (count,), generator=lengths_gen).tolist()
            order = list(range(count))
            metrics = {}
            if case["balanceBatch"]:
                batch = Batch(seqlens)
                try:
                    verl["_balance_batch"](trainer, batch, metrics)
                except AssertionError as e:
                    error = f"AssertionError: {e}"
                    break
                order = batch.order
            if count % W != 0:  # DataProto.chunk's assertion (protocol.py), reached when balancing is off
                error = f"AssertionError: only support equal chunk. Got size of DataProto {count} and chunk {W}."
                break
            per = count // W
            ranks = [[repeated[j] for j in order[r * per:(r + 1) * per]] for r in range(W)]
            steps.append({"epoch": epoch, "step": step, "promptIds": ids, "seqlens": seqlens, "order": order,
                          "ranks": ranks, "metrics": {k: int(v) if float(v).is_integer() else float(v) for k, v in metrics.items()}})
        if error:
            break
    return {"config": case, "steps": steps, "error": error, "len(dataloader)": len(loader)}


def probe_log(verl, case, path, probe_dir):
    """Runs the sandbox's probe (probe/grpo_sandbox_probe.py, Probe.verl) on verl's fit-loop skeleton:
    the real StatefulDataLoader and create_rl_sampler, _balance_batch exec'd from the checkout and
    bound to the stand-in trainer, each step's batch carrying the synthetic token counts."""
    import types

    from omegaconf import OmegaConf

    sys.path.insert(0, probe_dir)
    from grpo_sandbox_probe import Probe

    D, P, n, W = case["datasetSize"], case["trainBatchSize"], case["n"], case["ranks"]
    cfg = OmegaConf.create({
        "data": {"train_batch_size": P, "shuffle": True, "seed": case["seed"], "sampler": None, "dataloader_num_workers": case["numWorkers"]},
        "actor_rollout_ref": {"rollout": {"n": n}, "actor": {"ppo_mini_batch_size": P, "ppo_micro_batch_size_per_gpu": P * n // W, "ppo_epochs": 1}},
        "trainer": {"n_gpus_per_node": W, "nnodes": 1, "balance_batch": case["balanceBatch"], "total_epochs": case["epochs"]},
    })
    trainer = Trainer(W, cfg)
    trainer.train_dataset = list(range(D))
    sampler = verl["create_rl_sampler"](cfg.data, trainer.train_dataset)
    trainer.train_dataloader = StatefulDataLoader(trainer.train_dataset, batch_size=P, num_workers=case["numWorkers"], drop_last=True,
                                                  collate_fn=lambda xs: xs, sampler=sampler)
    trainer._balance_batch = types.MethodType(verl["_balance_batch"], trainer)
    if os.path.exists(path):
        os.remove(path)
    Probe.verl(path, trainer, version=case["version"])
    lengths_gen = torch.Generator().manual_seed(TORCH_DEFAULT_SEED if case["seed"] is None else case["seed"])
    for _ in range(case["epochs"]):  # RayPPOTrainer.fit: for epoch … for batch_dict in self.train_dataloader
        for ids in trainer.train_dataloader:
            seqlens = torch.randint(SEQLEN_LOW, SEQLEN_HIGH, (len(ids) * n,), generator=lengths_gen).tolist()
            if cfg.trainer.balance_batch:
                trainer._balance_batch(Batch(seqlens), metrics={})


def main():
    checkout = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "golden-verl.json")
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    commit = commit or os.environ.get("VERL_COMMIT", "unknown")
    sb = os.path.join(checkout, "verl/utils/seqlen_balancing.py")
    verl = load_functions(sb, ["calculate_workload", "karmarkar_karp", "get_seqlen_balanced_partitions", "log_seqlen_unbalance"])
    verl.update(load_functions(os.path.join(checkout, "verl/trainer/main_ppo.py"), ["create_rl_sampler"]))
    trainer_py = os.path.join(checkout, "verl/trainer/ppo/ray_trainer.py")
    verl.update(load_functions(trainer_py, ["_balance_batch"], {**verl, "DataProto": Batch}, cls="RayPPOTrainer"))
    layouts = [dict(c, numWorkers=c.get("numWorkers", 0)) for c in [
        {"datasetSize": 40, "trainBatchSize": 4, "n": 4, "ranks": 4, "epochs": 2, "seed": 42, "balanceBatch": True},
        {"datasetSize": 40, "trainBatchSize": 4, "n": 4, "ranks": 4, "epochs": 2, "seed": 42, "balanceBatch": False},
        {"datasetSize": 50, "trainBatchSize": 6, "n": 4, "ranks": 8, "epochs": 1, "seed": 7, "balanceBatch": True},
        {"datasetSize": 33, "trainBatchSize": 8, "n": 5, "ranks": 4, "epochs": 2, "seed": 1234, "balanceBatch": True},
        {"datasetSize": 64, "trainBatchSize": 16, "n": 8, "ranks": 8, "epochs": 1, "seed": None, "balanceBatch": True},
        {"datasetSize": 24, "trainBatchSize": 6, "n": 2, "ranks": 3, "epochs": 1, "seed": 0, "balanceBatch": True, "numWorkers": 2},
        # measured lengths: a few equal lengths (ties), very long and very short ones
        {"datasetSize": 12, "trainBatchSize": 3, "n": 4, "ranks": 4, "epochs": 1, "seed": 42, "balanceBatch": True,
         "seqlens": [100, 100, 100, 100, 5, 4000, 7, 100, 512, 512, 3, 9000, 100, 200, 300, 400, 64, 64, 64, 64, 1, 2, 3, 4000,
                     2048, 2048, 1, 1, 33, 33, 700, 700, 100, 100, 100, 100, 8, 8000, 80, 800, 9, 99, 999, 9999, 4, 44, 444, 4444]},
        # does not split: 3 prompts x 2 = 6 samples over 4 ranks
        {"datasetSize": 12, "trainBatchSize": 3, "n": 2, "ranks": 4, "epochs": 1, "seed": 42, "balanceBatch": True},
        {"datasetSize": 12, "trainBatchSize": 3, "n": 2, "ranks": 4, "epochs": 1, "seed": 42, "balanceBatch": False},
        # verl's default dataloader_num_workers=8
        {"datasetSize": 40, "trainBatchSize": 4, "n": 4, "ranks": 4, "epochs": 3, "seed": 42, "balanceBatch": True, "numWorkers": 8},
        {"datasetSize": 20, "trainBatchSize": 5, "n": 2, "ranks": 2, "epochs": 2, "seed": None, "balanceBatch": False, "numWorkers": 1},
    ]]
    results = [run_layout(verl, c) for c in layouts]

    probe_dir = os.path.join(os.path.dirname(__file__), "..", "..", "probe")
    bridge = os.path.join(os.path.dirname(out), "bridge")
    for name, case in [
        ("verl-identical", {"datasetSize": 40, "trainBatchSize": 4, "n": 4, "ranks": 4, "epochs": 2, "seed": 42, "balanceBatch": True,
                            "numWorkers": 2, "version": commit[:7]}),
        ("verl-unbalanced", {"datasetSize": 30, "trainBatchSize": 6, "n": 2, "ranks": 4, "epochs": 2, "seed": None, "balanceBatch": False,
                             "numWorkers": 0, "version": commit[:7]}),
    ]:
        probe_log(verl, case, os.path.join(bridge, f"{name}.jsonl"), probe_dir)
    doc = {
        "source": {"verl": commit, "torch": torch.__version__, "torchdata": torchdata.__version__,
                   "files": ["verl/trainer/main_ppo.py", "verl/utils/seqlen_balancing.py", "verl/trainer/ppo/ray_trainer.py",
                             ]},
        "syntheticSeqlens": {"low": SEQLEN_LOW, "high": SEQLEN_HIGH},
        "torchDefaultSeed": TORCH_DEFAULT_SEED,
        "layouts": results,
    }
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {out}: {len(results)} layouts (verl {commit})")


if __name__ == "__main__":
    main()

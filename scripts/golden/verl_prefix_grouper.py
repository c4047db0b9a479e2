"""Writes test/fixtures/golden-verl-prefix-grouper.json: verl's _balance_batch with
actor.use_prefix_grouper and with keep_minibatch=True, run from a checkout.

    python scripts/golden/verl_prefix_grouper.py /path/to/verl-checkout [out.json]

Made with verl b178a3cd56f58b2d502255daba591e92833930a7 (the checkout's commit is recorded in the fixture),
torch 2.13 CPU and torchdata 0.11 (omegaconf's DictConfig is a small stand-in, Cfg), the same way as scripts/golden/verl_layout.py (whose
stand-ins and loaders it imports): verl's own functions are read from the checkout and exec'd.

What runs as verl's code:
- verl/utils/seqlen_balancing.py calculate_workload, karmarkar_karp, get_seqlen_balanced_partitions,
  get_group_balanced_partitions, log_seqlen_unbalance;
- verl/trainer/ppo/ray_trainer.py RayPPOTrainer._balance_batch, on a stand-in `self` whose
  use_prefix_grouper is set (as RayPPOTrainer.__init__ reads actor_rollout_ref.actor.use_prefix_grouper)
  and whose config holds actor.ppo_mini_batch_size; its `from verl.utils.seqlen_balancing import
  get_group_balanced_partitions` is served the exec'd function (a stand-in module in sys.modules);
- verl/trainer/main_ppo.py create_rl_sampler and torchdata's StatefulDataLoader, as in verl_layout.py.
Transcribed, as in verl_layout.py: DataProto.repeat(n, interleave=True) is np.repeat; the per-draw uid is
one str(uuid4()) per prompt of the batch (RayPPOTrainer.fit), here "uid-<step>-<i>", repeated with the prompt;
keep_minibatch=True is passed to _balance_batch directly (fit at b178a3c never passes it).
"""
import os
import subprocess
import sys
import types

import numpy as np
import torch
from torchdata.stateful_dataloader import StatefulDataLoader

sys.path.insert(0, os.path.dirname(__file__))
from verl_layout import SEQLEN_HIGH, SEQLEN_LOW, TORCH_DEFAULT_SEED, Batch, Trainer, load_functions  # noqa: E402


class Cfg(dict):
    """Stand-in for omegaconf's DictConfig (not installable here): keys as attributes, and .get."""

    def __getattr__(self, name):
        value = self[name]
        return Cfg(value) if isinstance(value, dict) else value


def run(verl, case):
    D, P, n, W = case["datasetSize"], case["trainBatchSize"], case["n"], case["ranks"]
    seed = case["seed"]
    sampler = verl["create_rl_sampler"](Cfg({"shuffle": True, "seed": seed, "sampler": None}), list(range(D)))
    loader = StatefulDataLoader(list(range(D)), batch_size=P, num_workers=case["numWorkers"], drop_last=True,
                                collate_fn=lambda xs: xs, sampler=sampler)
    lengths_gen = torch.Generator().manual_seed(TORCH_DEFAULT_SEED if seed is None else seed)
    trainer = Trainer(W, Cfg({"actor_rollout_ref": {"actor": {"ppo_mini_batch_size": case["miniBatch"]}}}))
    trainer.use_prefix_grouper = case["usePrefixGrouper"]
    steps, error = [], None
    for epoch in range(case["epochs"]):
        for step, ids in enumerate(loader):
            repeated = np.repeat(np.array(ids), n).tolist()
            seqlens = torch.randint(SEQLEN_LOW, SEQLEN_HIGH, (len(repeated),), generator=lengths_gen).tolist()
            batch = Batch(seqlens)
            batch.non_tensor_batch["uid"] = np.repeat(np.array([f"uid-{len(steps)}-{i}" for i in range(len(ids))], dtype=object), n)
            try:
                verl["_balance_batch"](trainer, batch, {}, keep_minibatch=case["keepMinibatch"])
            except (AssertionError, ValueError) as e:
                error = f"{type(e).__name__}: {e}"
                break
            steps.append({"epoch": epoch, "step": step, "promptIds": ids, "seqlens": seqlens, "order": batch.order})
        if error:
            break
    return {"config": case, "steps": steps, "error": error}


def main():
    checkout = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures",
                                                             "golden-verl-prefix-grouper.json")
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    sb = os.path.join(checkout, "verl/utils/seqlen_balancing.py")
    verl = load_functions(sb, ["calculate_workload", "karmarkar_karp", "get_seqlen_balanced_partitions", "log_seqlen_unbalance"])
    verl.update(load_functions(sb, ["get_group_balanced_partitions"], verl))
    verl.update(load_functions(os.path.join(checkout, "verl/trainer/main_ppo.py"), ["create_rl_sampler"]))
    # _balance_batch imports get_group_balanced_partitions from verl.utils.seqlen_balancing when it needs it.
    stub = types.ModuleType("verl.utils.seqlen_balancing")
    stub.get_group_balanced_partitions = verl["get_group_balanced_partitions"]
    for name in ("verl", "verl.utils"):
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules["verl.utils.seqlen_balancing"] = stub
    trainer_py = os.path.join(checkout, "verl/trainer/ppo/ray_trainer.py")
    verl.update(load_functions(trainer_py, ["_balance_batch"], {**verl, "DataProto": Batch}, cls="RayPPOTrainer"))
    base = {"epochs": 2, "numWorkers": 0, "keepMinibatch": False, "usePrefixGrouper": False, "miniBatch": 1}
    cases = [dict(base, **c) for c in [
        # use_prefix_grouper: every copy of a uid on one rank, groups balanced by their summed workload
        {"datasetSize": 40, "trainBatchSize": 4, "n": 4, "ranks": 4, "seed": 42, "usePrefixGrouper": True},
        {"datasetSize": 48, "trainBatchSize": 8, "n": 3, "ranks": 2, "seed": 7, "usePrefixGrouper": True},
        {"datasetSize": 50, "trainBatchSize": 12, "n": 2, "ranks": 4, "seed": 1234, "usePrefixGrouper": True, "numWorkers": 2},
        {"datasetSize": 30, "trainBatchSize": 6, "n": 5, "ranks": 3, "seed": None, "usePrefixGrouper": True},
        {"datasetSize": 64, "trainBatchSize": 16, "n": 8, "ranks": 8, "seed": 0, "usePrefixGrouper": True, "epochs": 1},
        # num_uid_groups % dp_size != 0: verl's ValueError
        {"datasetSize": 24, "trainBatchSize": 6, "n": 2, "ranks": 4, "seed": 42, "usePrefixGrouper": True},
        {"datasetSize": 24, "trainBatchSize": 3, "n": 4, "ranks": 2, "seed": 42, "usePrefixGrouper": True},
        # keep_minibatch: KK on each slice of ppo_mini_batch_size entries of the workload list (the prompt count as written,
        # at most data.train_batch_size as verl's ActorConfig.validate requires)
        {"datasetSize": 40, "trainBatchSize": 4, "n": 4, "ranks": 4, "seed": 42, "keepMinibatch": True, "miniBatch": 4},
        {"datasetSize": 40, "trainBatchSize": 8, "n": 2, "ranks": 2, "seed": 3, "keepMinibatch": True, "miniBatch": 4},
        {"datasetSize": 36, "trainBatchSize": 6, "n": 4, "ranks": 3, "seed": 11, "keepMinibatch": True, "miniBatch": 6, "numWorkers": 1},
        {"datasetSize": 32, "trainBatchSize": 8, "n": 4, "ranks": 4, "seed": None, "keepMinibatch": True, "miniBatch": 8},
        # a slice with fewer entries than ranks: get_seqlen_balanced_partitions' assertion
        {"datasetSize": 24, "trainBatchSize": 4, "n": 2, "ranks": 4, "seed": 42, "keepMinibatch": True, "miniBatch": 2},
        # samples not a whole number of slices: the reorder index leaves the rest out (the sandbox refuses this)
        {"datasetSize": 20, "trainBatchSize": 5, "n": 2, "ranks": 2, "seed": 42, "keepMinibatch": True, "miniBatch": 4, "epochs": 1},
        # the prefix grouper wins over keep_minibatch (its branch comes first)
        {"datasetSize": 40, "trainBatchSize": 4, "n": 4, "ranks": 2, "seed": 5, "keepMinibatch": True, "miniBatch": 4,
         "usePrefixGrouper": True},
    ]]
    import json
    fixture = {
        "source": f"verl {commit}: _balance_batch with use_prefix_grouper / keep_minibatch, seqlen_balancing.py, exec'd "
                  "(scripts/golden/verl_prefix_grouper.py)",
        "commit": commit,
        "torch": torch.__version__,
        "layouts": [run(verl, c) for c in cases],
    }
    with open(out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")
    print(f"{out}: {len(cases)} layouts")


if __name__ == "__main__":
    main()

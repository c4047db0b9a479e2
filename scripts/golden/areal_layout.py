"""Writes test/fixtures/golden-areal-layout.json by running AReaL's own loader and dispatch code.

    /work/golden-venv/bin/python scripts/golden/areal_layout.py /work/checkouts/areal [out.json]

Made with inclusionAI/AReaL 4aef98d8d818af55b43621aaadba047ae10f4e77 (recorded in the fixture), torch 2.13 CPU,
torchdata 0.11, numpy 2.4. See scripts/golden/areal_exec.py for how files are exec'd and which imports are stood in.

What runs as AReaL's code (source read from the checkout and exec'd):
- areal/utils/dataloader.py create_dataloader (torch DistributedSampler + torchdata StatefulDataLoader,
  num_replicas/rank given explicitly, no process group) and areal/utils/data.py cycle_dataloader (set_epoch(e)
  before each pass): the prompt order, per data-parallel rank;
- single-controller mode (the default: AREAL_SPMD_MODE unset): areal/infra/controller/train_controller.py
  _item_weight / _dispatch_tensors (seqpack.balanced_greedy_partition), group_size=1 as PPOActorController passes it;
- SPMD mode (legacy launchers set AREAL_SPMD_MODE=1): areal/infra/dist_rollout.py redistribute_trajectories
  (seqpack.ffd_allocate / kk_allocate with capacity 1e12, min_groups = world size) with
  areal/utils/data.py split_and_unpad_tensor; its all_gather_tensor_container is stood in by the rank-major list of
  every rank's trajectories (what an all-gather returns);
- the errors of create_dataloader, balanced_greedy_partition, ffd_allocate and kk_allocate.
Transcribed, because it needs the RPC tensor store: RTensor.remotize (areal/infra/rpc/rtensor.py) trims a
trajectory dict with split_and_unpad_tensor (exec'd) and keeps each tensor as a meta tensor of that shape; a
minimal RTensor holding `.data` stands in, so _item_weight sees attention_mask.data.numel() = k x the group's longest sequence.
Sandbox conventions (not AReaL): completions arrive in submission order, so a step is the next
dataloader.batch_size prompts of the cycled loader stream (one trajectory dict of k samples per prompt,
prompts in loader order, rank-major in SPMD); the synthetic token counts are
torch.randint(64, 1025, (batch_size * k,), generator=torch.Generator().manual_seed(seed)), one generator per run,
one draw per step in generation order.
"""
import json
import os
import sys
import types

import torch
from torch.utils.data import DistributedSampler
from torchdata.stateful_dataloader import StatefulDataLoader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import areal_exec  # noqa: E402

SEQLEN_LOW, SEQLEN_HIGH = 64, 1025


def setup(checkout):
    m = areal_exec.load_areal(checkout)
    # create_dataloader imports areal.infra.data_service.rdataset inside its body: plain classes stand in
    # (the sandbox's dataset is a list, never an RDataset).
    for name in ["areal", "areal.infra", "areal.infra.data_service"]:
        sys.modules.setdefault(name, types.ModuleType(name))
    rd = types.ModuleType("areal.infra.data_service.rdataset")
    rd.RDataset = type("RDataset", (), {})
    rd._PrefetchAwareSampler = type("_PrefetchAwareSampler", (), {})
    sys.modules["areal.infra.data_service.rdataset"] = rd
    dl = areal_exec.exec_file(f"{checkout}/areal/utils/dataloader.py", extra={
        "DistributedSampler": DistributedSampler, "StatefulDataLoader": StatefulDataLoader, "Dataset": object,
        "ValidDatasetConfig": type("ValidDatasetConfig", (), {}), "_DatasetConfig": object})

    class RTensor:
        def __init__(self, data):
            self.data = data

    tc = areal_exec.exec_file(f"{checkout}/areal/infra/controller/train_controller.py",
                              names=["_find_in_structure", "_is_tensor_like", "_item_weight", "_dispatch_tensors"],
                              extra={"RTensor": RTensor, "balanced_greedy_partition": m.seqpack["balanced_greedy_partition"]})
    gathered = {}
    dr = areal_exec.exec_file(f"{checkout}/areal/infra/dist_rollout.py", names=["RedistributedData", "redistribute_trajectories"],
                              extra={"dist": m.dist, "split_and_unpad_tensor": m.data["split_and_unpad_tensor"],
                                     "get_allocate_fn": m.seqpack["get_allocate_fn"],
                                     "all_gather_tensor_container": lambda trajectories, group=None: gathered["lists"]})
    return types.SimpleNamespace(m=m, dl=dl, tc=tc, dr=dr, RTensor=RTensor, gathered=gathered)


def loader_stream(x, n, batch, world, rank, shuffle, workers, epochs, drop_last):
    """One rank's prompts over epochs + 1 passes of cycle_dataloader (flattened), len(loader) and its batch size."""
    cfg = types.SimpleNamespace(batch_size=batch, shuffle=shuffle, drop_last=drop_last, num_workers=workers)
    loader = x.dl["create_dataloader"](list(range(n)), rank=rank, world_size=world, dataset_config=cfg)
    steps, passes, out = len(loader), 0, []
    for b in x.m.data["cycle_dataloader"](loader, num_cycles=epochs + 1):
        out.extend(int(i) for i in b)
    return steps, out, loader.batch_size


def group_dict(lens):
    k, longest = len(lens), max(lens)
    mask = torch.zeros(k, longest, dtype=torch.bool)
    for i, length in enumerate(lens):
        mask[i, :length] = True
    return {"attention_mask": mask, "input_ids": torch.zeros(k, longest, dtype=torch.int32)}


def remotize(x, d):
    trimmed = x.m.data["split_and_unpad_tensor"](d, n_trajs=1, traj_group_sizes=[d["attention_mask"].shape[0]])[0]
    return {key: x.RTensor(v.to("meta")) for key, v in trimmed.items()}


def layout(x, c):
    n, batch, world, k, seed = c["datasetSize"], c["batchSize"], c["ranks"], c["k"], c["seed"]
    gen = torch.Generator().manual_seed(seed)
    spmd = c["spmd"]
    if spmd:
        streams = [loader_stream(x, n, batch, world, r, c["shuffle"], c["workers"], c["epochs"], c["dropLast"]) for r in range(world)]
    else:
        streams = [loader_stream(x, n, batch, 1, 0, c["shuffle"], c["workers"], c["epochs"], c["dropLast"])]
    steps_per_epoch = streams[0][0]
    steps = []
    for s in range(steps_per_epoch * c["epochs"]):
        # prepare_batch waits for dataloader.batch_size trajectories from the cycled stream (in-order completion).
        chunks = [stream[s * b:(s + 1) * b] for _, stream, b in streams]
        prompts = [p for chunk in chunks for p in chunk]
        seqlens = torch.randint(SEQLEN_LOW, SEQLEN_HIGH, (len(prompts) * k,), generator=gen).tolist()
        groups = [group_dict(seqlens[g * k:(g + 1) * k]) for g in range(len(prompts))]
        if spmd:
            per_rank, at = [], 0
            for chunk in chunks:
                per_rank.append(groups[at:at + len(chunk)])
                at += len(chunk)
            x.gathered["lists"] = per_rank
            x.m.dist.world = world
            group_ids = []
            for r in range(world):
                x.m.dist.local.rank = r
                red = x.dr["redistribute_trajectories"](per_rank[r], packing_algorithm=c["packingAlgorithm"])
                group_ids.append([int(i) for i in red.group_indices[r]])
        else:
            items = [remotize(x, d) for d in groups]
            _, idx = x.tc["_dispatch_tensors"](items, world, group_size=1)
            group_ids = [list(g) for g in idx]
        sources = [[g * k + j for g in gs for j in range(k)] for gs in group_ids]
        steps.append({"epoch": s // steps_per_epoch, "step": s % steps_per_epoch, "prompts": prompts,
                      "ranks": [[prompts[i // k] for i in src] for src in sources], "sources": sources, "seqlens": seqlens})
    return {"stepsPerEpoch": steps_per_epoch, "steps": steps}


def error_of(fn):
    try:
        fn()
    except (ValueError, RuntimeError) as e:
        return {"type": type(e).__name__, "message": str(e)}
    return None


def main():
    checkout = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-areal-layout.json")
    x = setup(checkout)
    cases = []
    base = {"shuffle": True, "workers": 0, "epochs": 2, "packingAlgorithm": "ffd", "dropLast": True}
    grid = [
        (40, 8, 1, 4, 1, False), (40, 8, 2, 4, 1, False), (37, 8, 4, 2, 7, False), (50, 12, 3, 3, 3, False),
        (64, 16, 4, 4, 11, False), (30, 6, 2, 8, 5, False), (40, 8, 2, 4, 1, True), (37, 8, 4, 2, 7, True),
        (50, 12, 3, 3, 3, True), (64, 16, 4, 4, 11, True), (29, 4, 4, 1, 2, True), (45, 9, 3, 2, 9, True),
    ]
    for i, (n, b, w, k, seed, spmd) in enumerate(grid):
        for algo in (["ffd", "kk"] if spmd else ["ffd"]):
            c = {**base, "datasetSize": n, "batchSize": b, "ranks": w, "k": k, "seed": seed, "spmd": spmd, "packingAlgorithm": algo}
            if i % 4 == 3:
                c["shuffle"] = False
            if i % 5 == 2:
                c["workers"] = 2
            if i % 3 == 1:
                c["epochs"] = 3
            if i in (2, 9):
                c["dropLast"] = False
            cases.append({"settings": c, **layout(x, c)})
    bgp, ffd, kk = (x.m.seqpack[f] for f in ["balanced_greedy_partition", "ffd_allocate", "kk_allocate"])
    cfg = types.SimpleNamespace(batch_size=6, shuffle=True, drop_last=True, num_workers=0)
    errors = {
        "createDataloader": error_of(lambda: x.dl["create_dataloader"](list(range(10)), rank=0, world_size=4, dataset_config=cfg)),
        "balancedFewItems": error_of(lambda: bgp([5, 3], 4)),
        "balancedIndivisible": error_of(lambda: bgp([5, 3, 2], 2)),
        "ffdFewValues": error_of(lambda: ffd([5, 3], int(1e12), 4)),
        "kkFewValues": error_of(lambda: kk([5, 3], int(1e12), 4)),
    }
    fixture = {
        "source": "AReaL's create_dataloader, cycle_dataloader, _dispatch_tensors, redistribute_trajectories and seqpack "
                  "allocators exec'd from the checkout (scripts/golden/areal_layout.py); transcribed: RTensor.remotize "
                  "(trim + meta tensor), because it needs the RPC tensor store",
        "commit": areal_exec.commit_of(checkout), **areal_exec.versions(),
        "synthetic": {"low": SEQLEN_LOW, "high": SEQLEN_HIGH},
        "cases": cases, "errors": errors,
    }
    with open(out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
    print(out, len(cases), "cases", os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()

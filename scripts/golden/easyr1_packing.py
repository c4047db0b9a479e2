"""Writes test/fixtures/golden-easyr1-packing.json by running EasyR1's own dynamic batching code.

    /work/golden-venv/bin/python scripts/golden/easyr1_packing.py /path/to/EasyR1-checkout [out.json]

Made with hiyouga/EasyR1 b44b311b669bf1fd1aa2fc36f2251482ba33cb16 (recorded in the fixture), torch 2.13 CPU.
What runs as EasyR1's code (exec'd from the checkout, easyr1_exec.py): verl/utils/seqlen_balancing.py
rearrange_micro_batches with its ceildiv, get_seqlen_balanced_partitions and karmarkar_karp
(equal_size=False), once per data-parallel rank on that rank's mini-batch, with
max_token_len = micro_batch_size_per_device_for_update * input_ids.size(-1) as dp_actor.update_policy sets it
(the padded width, data.max_prompt_length + data.max_response_length).
Transcribed, because it needs NCCL: the dist.all_reduce(MAX) of num_micro_batches over the ranks (a stand-in
`dist` whose all_reduce writes the maximum of the ranks' own counts, found by running the same function first
with dist not initialised), and torch.tensor(device="cuda") made on the CPU. The batch is a stand-in whose
["attention_mask"] is the rank's mask and whose [i] is row i's index, so the returned micro-batches are
index lists. With dynamic_batching off the micro-batches are mini_batch.split(micro_batch_size_per_device_for_update)
(contiguous; no code to run beyond DataProto.split).
"""
import json
import os
import sys
import types

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from easyr1_exec import EasyR1, exec_nodes, named  # noqa: E402


class RankBatch:
    def __init__(self, seqlens, width):
        self.mask = (torch.arange(width).unsqueeze(0) < torch.tensor(seqlens).unsqueeze(1)).long()

    def __getitem__(self, key):
        return self.mask if key == "attention_mask" else torch.tensor(key)


def loader(e, dist):
    cpu_torch = types.SimpleNamespace(
        sum=torch.sum, stack=torch.stack, tensor=lambda data, device=None, **kw: torch.tensor(data, **kw)
    )
    sb = e.seqlen_balancing()
    ns = exec_nodes(
        e.path("verl/utils/seqlen_balancing.py"),
        named("Set", "State", "karmarkar_karp", "get_seqlen_balanced_partitions", "ceildiv", "rearrange_micro_batches"),
        {"torch": cpu_torch, "dist": dist, "Optional": None, "Tuple": None, "TensorDict": None},
        lazy_annotations=True,
    )
    assert sb  # both loads read the same file
    return ns["rearrange_micro_batches"]


class Dist:
    class ReduceOp:
        MAX = "max"

    def __init__(self, initialised, value=None):
        self.initialised = initialised
        self.value = value

    def is_initialized(self):
        return self.initialised

    def all_reduce(self, t, op=None, group=None):
        t[0] = self.value


def main():
    e = EasyR1(sys.argv[1])
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-easyr1-packing.json")
    local = loader(e, Dist(False))
    rng = np.random.default_rng(7302026)
    cases = []
    for t in range(70):
        ranks = int(rng.choice([1, 2, 3, 4, 8]))
        per_rank = int(rng.integers(1, 17))
        width = int(rng.choice([64, 256, 1024]))
        mbs = int(rng.choice([1, 2, 3, 4, 8]))
        if t % 5 == 0:
            seqlens = [int(x) for x in rng.choice([width // 4, width // 2, width], size=ranks * per_rank)]  # ties
        elif t % 5 == 1:
            seqlens = [int(x) for x in rng.integers(1, width // 8 + 2, size=ranks * per_rank)]  # short: few micro-batches
        else:
            seqlens = [int(x) for x in rng.integers(1, width + 1, size=ranks * per_rank)]
        chunks = [seqlens[r * per_rank : (r + 1) * per_rank] for r in range(ranks)]
        budget = mbs * width
        counts = [len(local(RankBatch(c, width), max_token_len=budget)[1]) for c in chunks]
        synced = loader(e, Dist(True, max(counts)))
        out = []
        for r, c in enumerate(chunks):
            _, parts = synced(RankBatch(c, width), max_token_len=budget)
            out.append([[r * per_rank + i for i in p] for p in parts])
        cases.append({"ranks": ranks, "width": width, "microBatchSize": mbs, "seqlens": seqlens, "packed": out})
    doc = {
        "source": "exec'd from the EasyR1 checkout: verl/utils/seqlen_balancing.py rearrange_micro_batches (KK equal_size=False, "
        "workload sort); transcribed: dist.all_reduce(MAX) of the micro-batch count over ranks, cuda tensor on CPU",
        "commit": e.commit,
        "torch": torch.__version__,
        "cases": cases,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(out_path, len(cases), "cases", os.path.getsize(out_path), "bytes")


if __name__ == "__main__":
    main()

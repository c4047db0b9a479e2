"""Writes test/fixtures/golden-skyrl-packing.json by running SkyRL's micro-batching from a checkout.

    /work/golden-venv/bin/python scripts/golden/skyrl_packing.py /path/to/SkyRL-checkout [out.json]

Made with NovaSky-AI/SkyRL a9564572eb8e91076be43c1bd5e4615e3de17265 (recorded in the fixture), torch 2.13 CPU.

One case = one policy mini-batch (one optimizer step) of samples with token counts. What runs as SkyRL's code:
- skyrl/backends/skyrl_train/training_batch.py and distributed/dispatch.py MeshDispatch.stage_chunks (loaded as
  scripts/golden/skyrl_layout.py loads them): the mini-batch padded to a multiple of the data-parallel size
  (dummies copy row 0, loss_mask 0) and cut into one piece per rank;
- skyrl/backends/skyrl_train/workers/worker_utils.py get_microbatch_iterator, SampleBasedBatchIterator and
  TokenBasedBatchIterator (exec'd; token counts = attention_mask.sum(dim=1)), with skyrl/train/dataset/bin_packing.py
  (the whole module, pure Python: make_seq_packer('balanced')).
Transcribed: TokenBasedBatchIterator._sync_num_microbatches' dist.all_reduce(MAX) over the data-parallel group
(torch.distributed is not initialised here, so each rank's count is taken and the maximum applied as that
method does: padding micro-batches = max − own).
"""
import ast
import importlib.util
import json
import math
import os
import random
import subprocess
import sys
from typing import Dict, Iterator, List, Optional

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import skyrl_layout  # noqa: E402


def load(checkout):
    L = skyrl_layout.load(checkout)
    spec = importlib.util.spec_from_file_location("skyrl_bin_packing", os.path.join(checkout, "skyrl/train/dataset/bin_packing.py"))
    bp = importlib.util.module_from_spec(spec)
    sys.modules["skyrl_bin_packing"] = bp
    spec.loader.exec_module(bp)
    path = os.path.join(checkout, "skyrl/backends/skyrl_train/workers/worker_utils.py")
    tree = ast.parse(open(path).read())
    names = {"BaseBatchIterator", "SampleBasedBatchIterator", "TokenBasedBatchIterator", "get_microbatch_iterator"}
    nodes = [n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name in names]
    assert {n.name for n in nodes} == names
    g = {"torch": torch, "math": math, "dist": torch.distributed, "List": List, "Dict": Dict, "Iterator": Iterator,
         "Optional": Optional, "TrainingInputBatch": L["tb"]["TrainingInputBatch"], "TensorBatch": L["tb"]["TensorBatch"],
         "make_seq_packer": bp.make_seq_packer, "make_replay_padding_indices": None, "Experience": None,
         "__name__": "skyrl_exec"}
    exec(compile(ast.Module(body=nodes, type_ignores=[]), path, "exec"), g)
    return L, g["get_microbatch_iterator"]


def run(L, get_iter, seqlens, dp, micro, max_tokens):
    TIB = L["tb"]["TrainingInputBatch"]
    n = len(seqlens)
    width = max(seqlens)
    mask = torch.zeros(n, width, dtype=torch.long)
    for i, s in enumerate(seqlens):
        mask[i, width - s:] = 1
    data = TIB({"sample": torch.arange(n), "attention_mask": mask, "loss_mask": torch.ones(n, 1, dtype=torch.long)})
    data.metadata = {}
    (pieces,) = L["MeshDispatch"].stage_chunks(dp, data, [(0, n)])
    per_rank = []
    for piece in pieces:
        it = get_iter(piece, micro, max_tokens)
        if max_tokens > 0:
            bins = it._microbatches
        else:
            size = piece.batch_size
            bins = [list(range(i, min(i + micro, size))) for i in range(0, size, micro)]
            assert len(bins) == len(it)
            for b, chunk in zip(bins, it):
                assert chunk["sample"].tolist() == [piece["sample"][j].item() for j in b]
        real = piece["loss_mask"][:, 0].tolist()
        ids = piece["sample"].tolist()
        per_rank.append([[ids[j] for j in b if real[j] == 1] for b in bins])
    most = max(len(b) for b in per_rank)
    if max_tokens > 0:
        ranks = [b + [[] for _ in range(most - len(b))] for b in per_rank]
    else:
        ranks = per_rank
    return {"ranks": ranks, "microBatchesPerRank": most}


def cases():
    rng = random.Random(7)
    out = []
    for dp in [1, 2, 3, 4, 8]:
        for n in [4, 10, 24, 40]:
            for budget in [-1, 256, 1000, 2048, 4096]:
                micro = rng.choice([1, 2, 4])
                seqlens = [rng.randint(16, 1200) for _ in range(n)]
                if rng.random() < 0.3:
                    seqlens = [rng.choice([100, 200, 300]) for _ in range(n)]  # ties: the stable sort and heap order
                out.append({"seqlens": seqlens, "ranks": dp, "micro": micro, "maxTokens": budget})
    return out


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else "test/fixtures/golden-skyrl-packing.json"
    commit = subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()
    L, get_iter = load(checkout)
    results = []
    for c in cases():
        c["packed"] = run(L, get_iter, c["seqlens"], c["ranks"], c["micro"], c["maxTokens"])
        results.append(c)
    doc = {
        "source": f"NovaSky-AI/SkyRL {commit}: MeshDispatch.stage_chunks, get_microbatch_iterator (SampleBasedBatchIterator, "
                  "TokenBasedBatchIterator with bin_packing.Balanced) exec'd from the checkout; transcribed: the "
                  "all_reduce(MAX) of micro-batch counts over the data-parallel ranks. ranks[r][m] lists rank r's real "
                  "samples (mini-batch indices) in micro-batch m; stage_chunks' dummies are packed but not listed.",
        "commit": commit,
        "cases": results,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(out_path, len(results), "cases", os.path.getsize(out_path), "bytes")


if __name__ == "__main__":
    main()

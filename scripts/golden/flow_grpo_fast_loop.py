"""Writes test/fixtures/golden-flow-grpo-fast.json: what each rank's sampling loop receives in flow_grpo's
scripts/train_sd3_fast.py at 74db691, by running its DistributedKRepeatSampler under a real torch DataLoader
with the script's loop.

    python scripts/golden/flow_grpo_fast_loop.py CHECKOUT [out.json]

CHECKOUT holds scripts/train_sd3_fast.py (a flow_grpo work tree at 74db691, or a directory with that file and
a COMMIT file beside it). No mirror holds 74db691 (the stored snapshot is ac4c86e, where the script is gone), so
the fixture was made from the file's stored copy (yifan123/flow_grpo @ 74db69191de9, read through the
stored-file index) saved at that path; the class is cut out of the file with ast and exec'd, nothing of
flow_grpo is copied here. Made with torch 2.13 CPU.

The loop, as the script writes it (transcribed, a few lines): DistributedKRepeatSampler(dataset,
batch_size=sample.train_batch_size, k=sample.num_image_per_prompt, num_replicas=W, rank=r, seed=42);
DataLoader(dataset, batch_sampler=train_sampler, num_workers=1, collate_fn=...), never passed to
accelerator.prepare (only transformer, optimizer and test_dataloader are); every epoch, for i in
range(num_batches_per_epoch): train_sampler.set_epoch(epoch * num_batches_per_epoch + i);
train_iter = iter(train_dataloader); next(train_iter). The ranks do not communicate on this path, so each
rank's loader runs in this process one after another.
"""
import ast
import json
import os
import subprocess
import sys

import torch
from torch.utils.data import DataLoader, Dataset, Sampler


class Prompts(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


def load_sampler(checkout):
    path = os.path.join(checkout, "scripts/train_sd3_fast.py")
    src = open(path).read()
    node = next(n for n in ast.parse(src).body if isinstance(n, ast.ClassDef) and n.name == "DistributedKRepeatSampler")
    g = {"torch": torch, "Sampler": Sampler, "__name__": "flow_grpo_exec"}
    exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), g)
    return g["DistributedKRepeatSampler"]


def commit_of(checkout):
    try:
        return subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True, stderr=subprocess.DEVNULL).strip()
    except subprocess.CalledProcessError:
        return open(os.path.join(checkout, "COMMIT")).read().strip()


def run(Sampler_, c):
    W, B, k, N, D, epochs = c["ranks"], c["batch"], c["k"], c["batchesPerEpoch"], c["datasetSize"], c["epochs"]
    dataset = Prompts(D)
    per_rank = []
    for r in range(W):
        sampler = Sampler_(dataset=dataset, batch_size=B, k=k, num_replicas=W, rank=r, seed=42)
        loader = DataLoader(dataset, batch_sampler=sampler, num_workers=c["numWorkers"], collate_fn=lambda xs: xs)
        got = []
        for epoch in range(epochs):
            for i in range(N):
                sampler.set_epoch(epoch * N + i)
                train_iter = iter(loader)
                got.append(next(train_iter))
        per_rank.append(got)
    # steps[s][r] = what rank r received at step s
    return [[per_rank[r][s] for r in range(W)] for s in range(epochs * N)]


def main():
    checkout = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures",
                                                             "golden-flow-grpo-fast.json")
    Sampler_ = load_sampler(checkout)
    cases = [
        {"ranks": 8, "batch": 2, "k": 4, "batchesPerEpoch": 2, "datasetSize": 32, "epochs": 3, "numWorkers": 1},
        {"ranks": 2, "batch": 3, "k": 2, "batchesPerEpoch": 3, "datasetSize": 20, "epochs": 2, "numWorkers": 1},
        {"ranks": 1, "batch": 4, "k": 2, "batchesPerEpoch": 3, "datasetSize": 20, "epochs": 3, "numWorkers": 1},
        {"ranks": 4, "batch": 2, "k": 4, "batchesPerEpoch": 1, "datasetSize": 50, "epochs": 6, "numWorkers": 1},
        # the script's own worker count against none: the same batches (a new iterator after each set_epoch)
        {"ranks": 4, "batch": 2, "k": 4, "batchesPerEpoch": 1, "datasetSize": 50, "epochs": 6, "numWorkers": 0},
    ]
    fixture = {
        "source": "flow_grpo scripts/train_sd3_fast.py @ 74db691: DistributedKRepeatSampler exec'd from the stored file, under "
                  "torch's DataLoader with the script's loop (scripts/golden/flow_grpo_fast_loop.py); the loop is transcribed",
        "commit": commit_of(checkout),
        "torch": torch.__version__,
        "cases": [{"config": c, "steps": run(Sampler_, c)} for c in cases],
    }
    with open(out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")
    print(f"{out}: {len(cases)} cases")


if __name__ == "__main__":
    main()

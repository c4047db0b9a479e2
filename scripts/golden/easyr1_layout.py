"""Writes test/fixtures/golden-easyr1-layout.json by running EasyR1's own data-path code from a checkout.

    /work/golden-venv/bin/python scripts/golden/easyr1_layout.py /path/to/EasyR1-checkout [out.json]

Made with hiyouga/EasyR1 b44b311b669bf1fd1aa2fc36f2251482ba33cb16 (the checkout's commit is recorded in
the fixture), torch 2.13 CPU, torchdata 0.11. CI never runs this: the JSON is committed.

What runs as EasyR1's code (source read from the checkout and exec'd, see easyr1_exec.py):
- verl/trainer/config.py PPOConfig with verl/workers/*/config.py (the shipped defaults, `defaults` below);
- verl/trainer/data_loader.py create_dataloader: torch RandomSampler(generator seeded by data.seed) or
  SequentialSampler inside torchdata StatefulDataLoader(batch_size, num_workers=8, drop_last=True), over a
  stand-in RLHFDataset of n ints; a case with `num_workers` set swaps the hard-coded 8 for that number;
- verl/trainer/ray_trainer.py RayPPOTrainer.__init__ (its checks and training_steps), _make_batch_data
  (uid per prompt draw, repeat(n, interleave=True), mini_rollout_batch_size accumulation, StopIteration
  restarting the loader mid-step) and _balance_batch, with seqlen_balancing.py's own KK;
- verl/workers/fsdp_workers.py FSDPWorker._init_dist_mesh (global batch checks) and _build_rollout's
  tensor-parallel check (the function is run up to its first use of the GPU mesh);
- verl/protocol.py DataProto.chunk's equal-chunk assertion (generate_sequences dispatches the loader batch
  with DP_COMPUTE_PROTO).
Transcribed, because DataProto needs tensordict and ray: a small DataProto stand-in (from_single_dict,
pop, repeat(interleave), union, concat, slicing, reorder, chunk = equal contiguous chunks); the fit loop's
three lines `data_iterator = iter(loader)`, `batch = _make_batch_data()`, `_balance_batch(batch)` and
`update_actor(batch)` = DP_COMPUTE_PROTO chunk(world size); generate_sequences returns n samples per prompt,
prompt-major, with attention-mask sums drawn as the sandbox's synthetic token counts:
torch.randint(64, 1025, (count,), generator=torch.Generator().manual_seed(data.seed)), one generator for the
run, one draw per generate call (= per step when mini_rollout_batch_size is unset).
"""
import ast
import json
import os
import sys
import uuid
from collections import defaultdict
from copy import deepcopy
from dataclasses import fields, is_dataclass

import numpy as np
import torch
import torchdata
from torch.utils.data import RandomSampler, SequentialSampler
from torchdata.stateful_dataloader import StatefulDataLoader

sys.path.insert(0, os.path.dirname(__file__))
from easyr1_exec import EasyR1, exec_nodes, named  # noqa: E402

SEQLEN_LOW, SEQLEN_HIGH = 64, 1025
WIDTH_PROMPT, WIDTH_RESPONSE = 512, 512


class TDict(dict):
    """A dict of tensors whose len() is the batch size, as TensorDict's."""

    def __len__(self):
        return next(iter(self.values())).shape[0] if dict.__len__(self) else 0


class Proto:
    """Stand-in for verl/protocol.py DataProto: `batch` (dict of tensors), `non_tensor_batch` (numpy), meta_info."""

    def __init__(self, batch=None, non_tensor_batch=None, meta_info=None):
        self.batch = TDict(batch or {})
        self.non_tensor_batch = non_tensor_batch or {}
        self.meta_info = meta_info or {}

    @staticmethod
    def from_single_dict(d, meta_info=None):
        t = {k: v for k, v in d.items() if isinstance(v, torch.Tensor)}
        nt = {k: v for k, v in d.items() if not isinstance(v, torch.Tensor)}
        return Proto(t, nt, dict(meta_info or {}))

    def __len__(self):
        return len(self.batch)

    def pop(self, batch_keys=(), non_tensor_batch_keys=(), meta_info_keys=()):
        t = {k: self.batch.pop(k) for k in batch_keys}
        nt = {k: self.non_tensor_batch.pop(k) for k in non_tensor_batch_keys if k in self.non_tensor_batch}
        mi = {k: self.meta_info.pop(k) for k in meta_info_keys}
        return Proto(t, nt, mi)

    def repeat(self, repeat_times, interleave=True):
        assert interleave
        t = {k: v.repeat_interleave(repeat_times, dim=0) for k, v in self.batch.items()}
        nt = {k: np.repeat(v, repeat_times, axis=0) for k, v in self.non_tensor_batch.items()}
        return Proto(t, nt, self.meta_info)

    def union(self, other):
        self.batch.update(other.batch)
        self.non_tensor_batch.update(other.non_tensor_batch)
        return self

    @staticmethod
    def concat(data):
        t = {k: torch.cat([d.batch[k] for d in data]) for k in data[0].batch}
        nt = {k: np.concatenate([d.non_tensor_batch[k] for d in data]) for k in data[0].non_tensor_batch}
        return Proto(t, nt, data[0].meta_info)

    def __getitem__(self, item):
        idx = item if isinstance(item, slice) else torch.tensor(item, dtype=torch.long)
        nidx = item if isinstance(item, slice) else np.array(item)
        return Proto({k: v[idx] for k, v in self.batch.items()}, {k: v[nidx] for k, v in self.non_tensor_batch.items()}, self.meta_info)

    def reorder(self, indices):
        self.batch = TDict({k: v[indices] for k, v in self.batch.items()})
        self.non_tensor_batch = {k: v[indices.numpy()] for k, v in self.non_tensor_batch.items()}


class IntDataset(torch.utils.data.Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"prompt_id": i}


def collate(items):
    ids = torch.tensor([x["prompt_id"] for x in items])
    b = len(ids)
    return {
        "prompt_id": ids,
        "input_ids": torch.zeros(b, WIDTH_PROMPT, dtype=torch.long),
        "attention_mask": torch.ones(b, WIDTH_PROMPT, dtype=torch.long),
        "position_ids": torch.zeros(b, WIDTH_PROMPT, dtype=torch.long),
        "raw_prompt_ids": np.array([[0]] * b, dtype=object),
    }


class Rollout:
    """The worker group as _make_batch_data, _balance_batch and __init__ see it."""

    def __init__(self, world_size, n, seed, chunk):
        self.world_size = world_size
        self.n = n
        self.gen = torch.Generator().manual_seed(seed)
        self.chunk = chunk

    def generate_sequences(self, gen_batch):
        self.chunk(gen_batch, self.world_size)  # DP_COMPUTE_PROTO dispatch: DataProto.chunk(world_size)
        count = len(gen_batch) * self.n
        seqlens = torch.randint(SEQLEN_LOW, SEQLEN_HIGH, (count,), generator=self.gen)
        width = WIDTH_PROMPT + WIDTH_RESPONSE
        mask = (torch.arange(width).unsqueeze(0) < seqlens.unsqueeze(1)).long()
        return Proto({"attention_mask": mask, "responses": torch.zeros(count, WIDTH_RESPONSE, dtype=torch.long)})


class Loader:
    """Counts the iterators _make_batch_data makes (one per epoch); everything else is the real loader."""

    def __init__(self, inner):
        self.inner = inner
        self.epoch = -1

    def __len__(self):
        return len(self.inner)

    def __iter__(self):
        self.epoch += 1
        epoch = self.epoch
        for b in self.inner:
            b["epoch"] = np.full(len(b["prompt_id"]), epoch)
            yield b


def set_config(cfg, overrides):
    for path, value in overrides.items():
        obj = cfg
        parts = path.split(".")
        for p in parts[:-1]:
            obj = getattr(obj, p)
        setattr(obj, parts[-1], value)


def dataclass_leaves(obj, prefix=""):
    out = {}
    for f in fields(obj):
        v = getattr(obj, f.name)
        path = f"{prefix}{f.name}"
        if is_dataclass(v):
            out.update(dataclass_leaves(v, path + "."))
        elif isinstance(v, (int, float, str, bool)) or v is None:
            out[path] = v
    return out


class Harness:
    def __init__(self, checkout):
        self.e = EasyR1(checkout)
        self.cfg_ns = self.e.config_classes()
        self.sb = self.e.seqlen_balancing()
        self.algos = self.e.core_algos()
        self.workers = {}
        dl = exec_nodes(
            self.e.path("verl/trainer/data_loader.py"),
            named("create_dataloader"),
            {
                "RandomSampler": RandomSampler,
                "SequentialSampler": SequentialSampler,
                "StatefulDataLoader": self.make_loader,
                "RLHFDataset": lambda **kw: IntDataset(self.dataset_size),
                "collate_fn": collate,
            },
            lazy_annotations=True,
        )
        self.create_dataloader = dl["create_dataloader"]
        proto_tree = ast.parse(open(self.e.path("verl/protocol.py")).read())
        cls = next(n for n in proto_tree.body if isinstance(n, ast.ClassDef) and n.name == "DataProto")
        chunk = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "chunk")
        chunk.body = chunk.body[:2]  # docstring and the equal-chunk assert; the split itself is the stand-in's
        ns = {}
        exec(compile(ast.Module(body=[chunk], type_ignores=[]), "verl/protocol.py", "exec"), ns)
        self.chunk_check = ns["chunk"]
        trainer_ns = exec_nodes(
            self.e.path("verl/trainer/ray_trainer.py"),
            named("RayPPOTrainer", "Role"),
            {
                "RayWorkerGroup": object,
                "uuid": uuid,
                "DataProto": Proto,
                "AdvantageEstimator": self.algos["AdvantageEstimator"],
                "FixedKLController": self.algos["FixedKLController"],
                "get_kl_controller": self.algos["get_kl_controller"],
                "get_seqlen_balanced_partitions": self.sb["get_seqlen_balanced_partitions"],
                "log_seqlen_unbalance": self.sb["log_seqlen_unbalance"],
                "reduce_metrics": lambda m: {},
                "print": lambda *a, **k: None,
            },
            lazy_annotations=True,
        )
        self.Trainer = trainer_ns["RayPPOTrainer"]
        self.Role = trainer_ns["Role"]
        fw_tree = ast.parse(open(self.e.path("verl/workers/fsdp_workers.py")).read())
        fw = next(n for n in fw_tree.body if isinstance(n, ast.ClassDef) and n.name == "FSDPWorker")
        mesh = next(n for n in fw.body if isinstance(n, ast.FunctionDef) and n.name == "_init_dist_mesh")
        rollout = next(n for n in fw.body if isinstance(n, ast.FunctionDef) and n.name == "_build_rollout")
        rollout.body = rollout.body[:4]  # tp_size, dp_size, the divisibility check (then the GPU mesh)
        ns = {
            "dist": type("D", (), {"get_world_size": staticmethod(lambda: self.world)}),
            "init_device_mesh": lambda *a, **k: None,
            "FSDPUlyssesShardingManager": lambda m: None,
        }
        exec(compile(ast.Module(body=[mesh, rollout], type_ignores=[]), "verl/workers/fsdp_workers.py", "exec", flags=0x1000000, dont_inherit=True), ns)
        self.init_dist_mesh = ns["_init_dist_mesh"]
        self.build_rollout = ns["_build_rollout"]

    def make_loader(self, **kw):
        if self.num_workers is not None:
            kw["num_workers"] = self.num_workers
        return StatefulDataLoader(**kw)

    def defaults(self):
        return dataclass_leaves(self.cfg_ns["PPOConfig"]())

    def run(self, case):
        """One configuration: the steps, counts, or the first error EasyR1 raises."""
        self.dataset_size = case["dataset_size"]
        self.num_workers = case.get("num_workers")
        cfg = self.cfg_ns["PPOConfig"]()
        set_config(cfg, case["config"])
        self.world = cfg.trainer.n_gpus_per_node * cfg.trainer.nnodes
        try:
            cfg.post_init()
            train_loader, _ = self.create_dataloader(cfg.data, None, None)
            loader = Loader(train_loader)
            rollout = Rollout(self.world, cfg.worker.rollout.n, cfg.data.seed, self.chunk_check)
            trainer = self.Trainer(cfg, None, None, loader, None, {}, None)
            trainer.actor_rollout_ref_wg = rollout
            worker = type("W", (), {})()
            worker.config = deepcopy(cfg.worker)
            worker.print_rank0 = lambda *a: None
            worker.world_size = self.world
            self.init_dist_mesh(worker, worker.config.actor, "actor")
            self.build_rollout(worker)
            steps = []
            trainer.data_iterator = iter(trainer.train_dataloader)
            per_epoch = defaultdict(int)
            for _ in range(trainer.training_steps):
                batch = trainer._make_batch_data(metrics={})
                batch.batch["pos"] = torch.arange(len(batch))
                seqlens = batch.batch["attention_mask"].sum(-1).tolist()
                epoch = int(batch.non_tensor_batch["epoch"][0])
                uids = batch.non_tensor_batch["uid"]
                n = cfg.worker.rollout.n
                assert all(len(set(uids[i : i + n])) == 1 for i in range(0, len(uids), n))
                assert len(set(uids)) == len(uids) // n
                prompts = batch.batch["prompt_id"][::n].tolist()
                trainer._balance_batch(batch, metrics={})
                self.chunk_check(batch, self.world)  # update_actor: DP_COMPUTE_PROTO
                ids = batch.batch["prompt_id"].chunk(self.world)
                pos = batch.batch["pos"].chunk(self.world)
                steps.append(
                    {
                        "epoch": epoch,
                        "step": per_epoch[epoch],
                        "prompts": prompts,
                        "ranks": [c.tolist() for c in ids],
                        "sources": [c.tolist() for c in pos],
                        "seqlens": seqlens,
                    }
                )
                per_epoch[epoch] += 1
            return {
                "len_dataloader": len(train_loader),
                "training_steps": trainer.training_steps,
                "global_batch_size_per_device": worker.config.actor.global_batch_size_per_device,
                "steps": steps,
            }
        except (AssertionError, ValueError, RuntimeError) as err:
            return {"error": {"type": type(err).__name__, "message": str(err)}}


def cases():
    rng = np.random.default_rng(20260730)
    out = []
    base = [
        # (dataset, R, M, n, gpus, nodes, seed, shuffle, epochs, max_steps, workers)
        (40, 8, None, 4, 4, 1, 1, True, 2, None, None),
        (40, 8, None, 4, 4, 1, 1, True, 2, None, 0),
        (40, 8, None, 4, 4, 1, 1, True, 2, None, 2),
        (37, 4, None, 2, 2, 1, 7, True, 3, None, None),
        (37, 4, None, 2, 2, 1, 7, False, 2, None, None),
        (30, 6, 2, 3, 2, 1, 3, True, 2, None, None),
        (30, 6, 4, 2, 2, 1, 5, True, 2, None, None),
        (25, 8, None, 5, 8, 1, 42, True, 1, 7, None),
        (24, 12, 4, 2, 4, 1, 0, True, 2, None, 0),
        (50, 10, None, 3, 2, 1, 123, True, 1, None, None),
        (16, 8, None, 8, 4, 2, 9, True, 2, None, None),
        (16, 4, None, 8, 4, 2, 9, True, 2, None, None),
    ]
    for d, r, m, n, g, nodes, seed, shuffle, epochs, max_steps, workers in base:
        out.append(mk(d, r, m, n, g, nodes, seed, shuffle, epochs, max_steps, workers))
    while len(out) < 34:
        g = int(rng.choice([1, 2, 4, 8]))
        r = g * int(rng.integers(1, 4))
        n = int(rng.integers(2, 7))
        d = int(rng.integers(r, 6 * r + 3))
        m = None if rng.random() < 0.7 else g * int(rng.integers(1, max(2, r // g)))
        out.append(mk(d, r, m, n, g, 1, int(rng.integers(0, 10**6)), bool(rng.random() < 0.85), int(rng.integers(1, 3)), None, None))
    # errors, in the order a run meets them
    out.append(mk(7, 8, None, 4, 4, 1, 1, True, 1, None, None))  # create_dataloader: assert len(train_dataloader) >= 1
    out.append(mk(40, 8, None, 4, 4, 1, 1, True, 1, None, None, gbs=3))  # rollout % global batch
    out.append(mk(40, 8, None, 3, 4, 1, 1, True, 1, None, None, mbe=5))  # rollout * n % micro for experience
    out.append(mk(40, 8, None, 1, 4, 1, 1, True, 1, None, None))  # GRPO needs n > 1
    out.append(mk(40, 4, None, 2, 16, 1, 1, True, 1, None, None, gbs=4))  # global batch per device 0
    out.append(mk(40, 8, None, 2, 4, 1, 1, True, 1, None, None, mbu=3))  # per device % micro for update
    out.append(mk(40, 8, None, 2, 1, 1, 1, True, 1, None, None, tp=2))  # rollout world size % tp
    out.append(mk(40, 6, None, 2, 4, 1, 1, True, 1, None, None))  # generate_sequences chunk: 6 % 4
    out.append(mk(40, 6, 4, 3, 4, 1, 1, True, 1, None, None))  # mini ok for chunk, 6*3 % 4 for balance
    out.append(mk(40, 8, 2, 2, 2, 1, 1, True, 1, None, None, max_try=3))  # 4 loader batches needed, 3 allowed
    out.append(mk(40, 8, 2, 2, 2, 1, 1, True, 1, None, None, max_try=-1))  # no limit
    out.append(mk(40, 8, None, 2, 1, 1, 1, True, 1, None, None, tp=1))  # one GPU: fine
    return out


def mk(d, r, m, n, g, nodes, seed, shuffle, epochs, max_steps, workers, gbs=None, mbe=1, mbu=1, tp=1, max_try=20):
    config = {
        "data.rollout_batch_size": r,
        "data.mini_rollout_batch_size": m,
        "data.seed": seed,
        "data.shuffle": shuffle,
        "data.max_prompt_length": WIDTH_PROMPT,
        "data.max_response_length": WIDTH_RESPONSE,
        "worker.rollout.n": n,
        "worker.rollout.tensor_parallel_size": tp,
        "worker.actor.global_batch_size": gbs if gbs is not None else r,
        "worker.actor.micro_batch_size_per_device_for_experience": mbe,
        "worker.actor.micro_batch_size_per_device_for_update": mbu,
        "trainer.n_gpus_per_node": g,
        "trainer.nnodes": nodes,
        "trainer.total_epochs": epochs,
        "trainer.max_steps": max_steps,
        "trainer.max_try_make_batch": max_try,
    }
    case = {"dataset_size": d, "config": config}
    if workers is not None:
        case["num_workers"] = workers
    return case


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-easyr1-layout.json")
    h = Harness(checkout)
    results = []
    for case in cases():
        results.append({**case, **h.run(case)})
    doc = {
        "source": "exec'd from the EasyR1 checkout: PPOConfig defaults, create_dataloader, RayPPOTrainer.__init__/_make_batch_data/"
        "_balance_batch, FSDPWorker._init_dist_mesh/_build_rollout (tp check), DataProto.chunk assert; transcribed: DataProto stand-in, "
        "the fit loop lines, generate_sequences (n samples per prompt, prompt-major; synthetic lengths torch.randint(64, 1025) "
        "per generate call, generator seeded with data.seed)",
        "commit": h.e.commit,
        "torch": torch.__version__,
        "torchdata": torchdata.__version__,
        "width": WIDTH_PROMPT + WIDTH_RESPONSE,
        "defaults": h.defaults(),
        "cases": results,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(out_path, len(results), "cases", os.path.getsize(out_path), "bytes")


if __name__ == "__main__":
    main()

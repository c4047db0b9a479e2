"""Writes test/fixtures/golden-openrlhf.json by running OpenRLHF's own data-path code from a checkout.

    /work/golden-venv/bin/python scripts/golden/openrlhf_layout.py /path/to/OpenRLHF-checkout [out.json]

Made with OpenRLHF 3c3be6234e0cb353e76bb8019947db9dfe99fca7 (the checkout's commit is recorded in the
fixture), torch 2.13 CPU and torchdata 0.11 (StatefulDataLoader and its RandomSampler). CI never runs
this: the JSON is committed and the TypeScript tests read it.

The openrlhf package is not imported (its modules pull ray, vllm, deepspeed and transformers); each
function or class below is read from the checkout by its syntax tree and exec'd with torch, torchdata
and stand-ins for Ray, vLLM and torch.distributed:
- PPOTrainer.fit (openrlhf/trainer/ppo_trainer.py): the episode loop, bound to a stand-in trainer whose
  train_step records each step's rollout samples; prompts_dataloader is built by the real
  DeepspeedStrategy.setup_dataloader (openrlhf/utils/deepspeed/deepspeed.py) exactly as
  prepare_datasets calls it: setup_dataloader(dataset, 1, True, True, collate_fn, num_workers=...),
  with torch.distributed not initialised (the PPOTrainer Ray actor never initialises it), so
  torchdata's RandomSampler draws its seed from torch's global generator. The PPOTrainer actor never
  seeds torch (set_seed runs only in the model actors' setup_distributed), and torch 2.13 seeds a
  fresh process's global generator nondeterministically (freshProcessOrders: two unseeded processes,
  two orders). The run's prompt order is therefore not reproducible; the sandbox models it as if the
  global generator had been seeded with --seed, and this script does exactly that:
  torch.manual_seed(seed) right before setup_dataloader (recording the sampler's seed).
- SamplesGenerator.generate_samples, ._generate_vllm, ._process_response_into_experience and
  _collect_prompt_batch (openrlhf/trainer/ppo_utils/samples_generator.py), with a stand-in
  _dispatch_prompts_to_vllm (each prompt one request returning its n responses, as vLLM does) and a
  stand-in `ray` whose wait() returns the requests in submission order: the deterministic case of
  the completion order the real run sees.
- RemoteExperienceMaker.split_rollout_samples and .compute_advantages_and_returns (experience_maker.py),
  .get_cumulative_returns; Experience, split_experience_batch, make_experience_batch,
  remove_padding_in_sequences, balance_experiences (experience.py); compute_reward (models/utils.py);
  apply_length_penalties (length_penalty.py); zero_pad_sequences (utils/utils.py);
  openrlhf/utils/seqlen_balancing.py whole; RayActorGroup.async_run_method_batch (trainer/ray/launcher.py)
  with stand-in actors whose execute_batch appends to a real NaiveReplayBuffer (replay_buffer.py);
  NaiveReplayBuffer.setup_dynamic_batch run on one thread per data-parallel rank with a stand-in
  torch.distributed whose all_reduce really reduces (MIN / SUM / MAX) across the threads.
Transcribed: nothing of OpenRLHF's logic. Not run: the models (make_experience's forward passes are
skipped: the samples go from split_rollout_samples straight to dispatch, as make_experience returns
the same list), the actor's replay-buffer DataLoader(shuffle=True) (the actor's own torch RNG), vLLM.
Token counts: synthetic ones, torch.randint(64, 1025, (samples,), generator=torch.Generator().manual_seed(seed)),
one generator per run and one draw per step in generation order (the sandbox's convention for verl).
Advantages run in float64 (the real rewards are float32 tensors) with KL 0 (no reference-model penalty).
"""
import ast
import dataclasses
import itertools
import json
import os
import random
import subprocess
import sys
import threading
import time
import types
import typing

import torch
import torch.nn.functional as F
import torchdata
from torchdata.stateful_dataloader import StatefulDataLoader

SEQLEN_LOW, SEQLEN_HIGH = 64, 1025
TORCH_DEFAULT_SEED = torch.Generator().initial_seed()
CHECKOUT = None


def src(rel):
    return open(os.path.join(CHECKOUT, rel)).read()


def pick(rel, names, g, cls=None, whole_classes=()):
    """Exec the named functions (top level, or methods of `cls`) and classes of a checkout file into g."""
    tree = ast.parse(src(rel))
    body = tree.body
    if cls is not None:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    found = [n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in set(names) | set(whole_classes)]
    missing = (set(names) | set(whole_classes)) - {n.name for n in found}
    if missing:
        raise SystemExit(f"{rel}: no {sorted(missing)}")
    for n in found:
        if isinstance(n, ast.FunctionDef):
            n.decorator_list = [d for d in n.decorator_list if not (isinstance(d, ast.Attribute) and d.attr == "no_grad")]
    exec(compile(ast.Module(body=found, type_ignores=[]), rel, "exec"), g)
    return {n.name: g[n.name] for n in found}


def exec_module_without(rel, g, drop_from=("openrlhf",)):
    """Exec a whole file, leaving out its `from openrlhf... import` lines (their names are in g)."""
    tree = ast.parse(src(rel))
    tree.body = [n for n in tree.body if not (isinstance(n, ast.ImportFrom) and (n.module or "").startswith(drop_from))]
    exec(compile(tree, rel, "exec"), g)
    return g


class Quiet:
    """tqdm / logger stand-in."""

    def __init__(self, *a, **k):
        self.it = a[0] if a else None

    def __iter__(self):
        return iter(self.it)

    def __getattr__(self, name):
        return lambda *a, **k: None


def ns(**kw):
    return types.SimpleNamespace(**kw)


# ---------- OpenRLHF's code, exec'd ----------

def build():
    base = {"torch": torch, "F": F, "List": typing.List, "Tuple": typing.Tuple, "Optional": typing.Optional,
            "Union": typing.Union, "Any": typing.Any, "Dict": typing.Dict, "itertools": itertools, "__name__": "openrlhf_exec"}
    o = {}
    utils = dict(base)
    pick("openrlhf/utils/utils.py", ["zero_pad_sequences"], utils)
    exp = dict(base, zero_pad_sequences=utils["zero_pad_sequences"], dataclass=dataclasses.dataclass,
               field=dataclasses.field, fields=dataclasses.fields)
    exec_module_without("openrlhf/trainer/ppo_utils/experience.py", exp)
    o["exp"] = exp
    sb = dict(base)
    exec_module_without("openrlhf/utils/seqlen_balancing.py", sb)
    o["sb"] = sb
    mu = dict(base)
    pick("openrlhf/models/utils.py", ["compute_reward"], mu)
    lp = dict(base, logger=Quiet())
    pick("openrlhf/trainer/ppo_utils/length_penalty.py", ["apply_overlong_penalty", "apply_stop_properly_penalty", "apply_length_penalties"], lp)
    # RemoteExperienceMaker methods
    em = dict(base, Experience=exp["Experience"], get_minimum_num_micro_batch_size=sb["get_minimum_num_micro_batch_size"],
              get_seqlen_balanced_partitions=sb["get_seqlen_balanced_partitions"], compute_reward=mu["compute_reward"],
              apply_length_penalties=lp["apply_length_penalties"], logger=Quiet())
    o["maker"] = pick("openrlhf/trainer/ppo_utils/experience_maker.py",
                      ["split_rollout_samples", "compute_advantages_and_returns", "get_cumulative_returns", "get_advantages_and_returns"],
                      em, cls="RemoteExperienceMaker")
    # SamplesGenerator
    sg = dict(base, Experience=exp["Experience"], tqdm=Quiet, logger=Quiet(), ray=FakeRay, batch_vllm_engine_call=lambda *a, **k: None)
    pick("openrlhf/trainer/ppo_utils/samples_generator.py", ["_collect_prompt_batch"], sg)
    o["sg"] = pick("openrlhf/trainer/ppo_utils/samples_generator.py",
                   ["generate_samples", "_generate_vllm", "_process_response_into_experience"], sg, cls="SamplesGenerator")
    # PPOTrainer.fit
    fit_g = dict(base, tqdm=Quiet, time=time, logger=Quiet())
    o["fit"] = pick("openrlhf/trainer/ppo_trainer.py", ["fit"], fit_g, cls="PPOTrainer")["fit"]
    # DeepspeedStrategy.setup_dataloader (dist not initialised on the PPOTrainer actor)
    ds_g = dict(base, dist=ns(is_initialized=lambda: False), StatefulDataLoader=StatefulDataLoader, DistributedSampler=None)
    o["setup_dataloader"] = pick("openrlhf/utils/deepspeed/deepspeed.py", ["setup_dataloader"], ds_g, cls="DeepspeedStrategy")["setup_dataloader"]
    # RayActorGroup.async_run_method_batch
    la = dict(base, ray=FakeRay)
    o["async_run_method_batch"] = pick("openrlhf/trainer/ray/launcher.py", ["async_run_method_batch"], la, cls="RayActorGroup")["async_run_method_batch"]
    # NaiveReplayBuffer
    rb = dict(base, random=random, ABC=object, torch=TorchOnCpu(), dist=FAKE_DIST, Experience=exp["Experience"],
              make_experience_batch=exp["make_experience_batch"], remove_padding_in_sequences=exp["remove_padding_in_sequences"],
              split_experience_batch=exp["split_experience_batch"],
              get_minimum_num_micro_batch_size=sb["get_minimum_num_micro_batch_size"],
              get_seqlen_balanced_partitions=sb["get_seqlen_balanced_partitions"])
    o["NaiveReplayBuffer"] = pick("openrlhf/trainer/ppo_utils/replay_buffer.py", [], rb, whole_classes=["NaiveReplayBuffer"])["NaiveReplayBuffer"]
    return o


class FakeRay:
    """Requests complete in submission order; put/get are identities."""

    @staticmethod
    def wait(refs, num_returns=1, timeout=None):
        return refs[:num_returns], refs[num_returns:]

    @staticmethod
    def get(ref):
        return ref

    @staticmethod
    def put(x):
        return x

    @staticmethod
    def cancel(ref):
        pass


class TorchOnCpu:
    """torch whose cuda.current_device() is 0 and whose tensor() ignores `device` (the replay buffer's tensors stay on the CPU)."""

    cuda = ns(current_device=lambda: 0)

    @staticmethod
    def tensor(*a, device=None, **k):
        return torch.tensor(*a, **k)

    def __getattr__(self, name):
        return getattr(torch, name)


class FakeDist:
    """torch.distributed across threads, one per data-parallel rank: all_reduce really reduces."""

    ReduceOp = ns(MIN="min", SUM="sum", MAX="max")

    def setup(self, world):
        self.world = world
        self.barrier = threading.Barrier(world)
        self.slots = {}
        self.local = threading.local()

    def get_world_size(self, group=None):
        return self.world

    def reduce(self, tensor, op):
        self.slots[self.local.rank] = tensor.clone()
        self.barrier.wait()
        vals = torch.stack([self.slots[r] for r in range(self.world)])
        out = {"min": vals.min(0).values, "max": vals.max(0).values, "sum": vals.sum(0)}[op]
        self.barrier.wait()
        return out.to(tensor.dtype)

    def all_reduce(self, tensor, op="sum", group=None):
        tensor.copy_(self.reduce(tensor, op))


FAKE_DIST = FakeDist()


def strategy_for(args):
    return ns(args=args, ds_device_mesh={"dp": ns(get_group=lambda: None)},
              all_reduce=lambda t, op="mean": FAKE_DIST.reduce(t, op))


def make_args(c):
    """The args tree train_ppo_ray.py builds (hierarchize), with the settings the code paths read."""
    return ns(
        rollout=ns(batch_size=c.get("rolloutBatchSize", 1), n_samples_per_prompt=c["n"], micro_batch_size=c.get("rolloutMicroBatchSize", 1),
                   vllm_generate_batch_size=c.get("rolloutBatchSize", 1),
                   max_tokens_per_gpu=c.get("rolloutMaxTokensPerGpu") or c.get("trainMaxTokensPerGpu", 16192)),
        train=ns(num_episodes=c.get("episodes", 1), dynamic_batch_enable=c.get("dynamic", False), batch_size=c.get("trainBatchSize", 128),
                 max_tokens_per_gpu=c.get("trainMaxTokensPerGpu", 16192), micro_batch_size=c.get("trainMicroBatchSize", 1)),
        actor=ns(num_nodes=c.get("numNodes", 1), num_gpus_per_node=c.get("gpusPerNode", 1)),
        ds=ns(ring_attn_size=c.get("ring", 1), tensor_parallel_size=c.get("tp", 1)),
        algo=ns(dynamic_filtering_enable=False, dynamic_filtering_range=(0, 1),
                advantage=ns(estimator=c.get("estimator", "group_norm"), gamma=1.0, lambd=1.0, no_std_norm=False, is_correction_enable=False),
                kl=ns(use_loss=False)),
        reward=ns(clip_range=(-10, 10), overlong_buffer_len=None, stop_properly_penalty_coef=None),
        vllm=ns(enable_sleep=False),
        eval=ns(steps=float("inf")),
        ckpt=ns(load_enable=False, path="/nonexistent"),
        logger=ns(logging_steps=1),
    )


class Prompts:
    """A prompt dataset whose items are their own indices; collate_fn as PromptDataset's (datasources, prompts, labels, images)."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i

    @staticmethod
    def collate_fn(items):
        return ["ds"] * len(items), list(items), [None] * len(items), [None] * len(items)


def sample_response(pid, copy, seqlen, reward=0.0):
    """What vLLM's generate_responses returns for one completion (prompt id and copy in `prompt`/`label`)."""
    prompt_len = 1
    return {"observation_tokens": list(range(seqlen)), "action_ranges": [(prompt_len, seqlen)], "reward": reward,
            "scores": None, "prompt": f"{pid}", "label": f"{copy}", "rollout_log_probs": None, "truncated": False}


def run_prompt_order(o, c):
    """The real fit loop over the real loader; returns each step's prompt ids in generation order."""
    args = make_args(c)
    n = c["n"]
    torch.manual_seed(c["seed"])  # stand-in for the PPOTrainer actor's unseeded global generator
    dataset = Prompts(c["datasetSize"])
    strategy = ns(args=args)
    loader = o["setup_dataloader"](strategy, dataset, 1, True, True, dataset.collate_fn, num_workers=c["numWorkers"])
    sampler_seed = loader.sampler.generator.initial_seed()

    gen = types.SimpleNamespace(args=args, strategy=strategy, prompts_dataloader=loader, eval_dataloader=None, vllm_engines=[], tokenizer=None)
    for name, fn in o["sg"].items():
        setattr(gen, name, types.MethodType(fn, gen))
    gen._dispatch_prompts_to_vllm = lambda prompts, labels, images=None, **kw: [
        [sample_response(p, j, 8) for j in range(kw.get("n_samples_per_prompt", n))] for p in prompts]

    steps = []
    trainer = types.SimpleNamespace(args=args, strategy=strategy, prompts_dataloader=loader, samples_generator=gen,
                                    generate_kwargs={}, wandb_logger=None, tensorboard_logger=None, eval_dataloader=None)
    trainer.init_checkpoint_states = lambda: {"episode": 0, "global_step": 0, "total_consumed_prompts": 0, "data_loader_state_dict": {}}
    trainer.restore_best_checkpoint_state = lambda s: None
    trainer.save_logs_and_checkpoints = lambda *a, **k: None
    episode = {"e": 0}

    def train_step(rollout_samples, global_step):
        steps.append({"globalStep": global_step + 1, "samples": [[int(s.prompts[0]), int(s.labels[0])] for s in rollout_samples]})
        return {}, global_step + 1

    trainer.train_step = train_step
    o["fit"](trainer)
    out = []
    for s in steps:
        ids = [p for p, copy in s["samples"]]
        prompts = ids[::n]
        assert ids == [p for p in prompts for _ in range(n)], "copies not contiguous"
        out.append({"globalStep": s["globalStep"], "prompts": prompts})
    return out, sampler_seed


def fresh_process_orders():
    """Two unseeded interpreters' StatefulDataLoader(shuffle=True) orders over 20 items (torch 2.13: they differ)."""
    code = ("import warnings; warnings.simplefilter('ignore')\n"
            "from torchdata.stateful_dataloader import StatefulDataLoader\n"
            "print(list(x.item() for x in StatefulDataLoader(list(range(20)), batch_size=1, shuffle=True, drop_last=True)))")
    return [json.loads(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(2)]


def run_dispatch(o, c, seqlens):
    """One step's samples (generation order, token counts `seqlens`) through split_rollout_samples,
    balance_experiences (dynamic batching), async_run_method_batch and each rank's replay buffer."""
    args = make_args(c)
    n, P = c["n"], c["prompts"]
    gen = ns()
    process = types.MethodType(o["sg"]["_process_response_into_experience"], gen)
    rollout = [process(sample_response(i * n + j, 0, seqlens[i * n + j])) for i in range(P) for j in range(n)]
    maker = ns(args=args, tokenizer=ns(pad_token_id=0))
    samples_list = o["maker"]["split_rollout_samples"](maker, rollout)
    rollout_micro = [[int(p) for p in s.prompts] for s in samples_list]
    experiences = samples_list
    if args.train.dynamic_batch_enable:
        experiences = o["exp"]["balance_experiences"](experiences, args)
    world = args.actor.num_nodes * args.actor.num_gpus_per_node
    dup = args.ds.ring_attn_size * args.ds.tensor_parallel_size
    buffers = [o["NaiveReplayBuffer"](args.train.micro_batch_size, 0, True, False, args.train.dynamic_batch_enable) for _ in range(world)]

    class Actor:
        def __init__(self, i):
            self.i = i
            self.execute_batch = ns(remote=lambda method, data, start, end: [buffers[self.i].append(e) for e in data["experience"][start:end]])

    group = ns(_actor_handlers=[Actor(i) for i in range(world)], duplicate_actors=dup)
    try:
        o["async_run_method_batch"](group, method_name="append", experience=experiences)
    except ValueError as e:
        return {"error": f"ValueError: {e}", "rolloutMicroBatches": rollout_micro}
    effective = world // dup
    ranks = [[int(it.prompts[0]) for it in buffers[r * dup].items] for r in range(effective)]
    out = {"rolloutMicroBatches": rollout_micro, "ranks": ranks}
    if args.train.dynamic_batch_enable:
        FAKE_DIST.setup(effective)
        results, errors = [None] * effective, []

        def work(r):
            FAKE_DIST.local.rank = r
            try:
                buffers[r * dup].setup_dynamic_batch(strategy_for(args))
                b = buffers[r * dup]
                results[r] = {"microBatches": [[int(b.items[i].prompts[0]) for i in mb] for mb in b.dynamic_indices],
                              "optimizerStep": list(b.dynamic_optimizer_step)}
            except Exception as e:  # noqa: BLE001
                errors.append(f"{type(e).__name__}: {e}")
                FAKE_DIST.barrier.abort()

        threads = [threading.Thread(target=work, args=(r,)) for r in range(effective)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            out["packError"] = sorted(e for e in errors if "Barrier" not in e)[0]
        else:
            out["packed"] = results
    return out


def run_advantages(o, c):
    """compute_advantages_and_returns on one step whose samples carry `rewards`; each sample's advantage (token 0)."""
    args = make_args(c)
    rewards = c["rewards"]
    mb = c.get("rolloutMicroBatchSize", 1)
    Experience = o["exp"]["Experience"]
    exps = []
    T = 3
    for start in range(0, len(rewards), mb):
        idx = list(range(start, min(start + mb, len(rewards))))
        B = len(idx)
        exps.append(Experience(action_mask=torch.ones(B, T, dtype=torch.bool), kl=torch.zeros(B, T, dtype=torch.float64),
                               rewards=torch.tensor([rewards[i] for i in idx], dtype=torch.float64), index=idx, info={}))
    # shuffle the micro-batches' order: the code restores the original order from .index
    order = list(range(len(exps)))
    random.Random(len(rewards)).shuffle(order)
    exps = [exps[i] for i in order]
    maker = ns(args=args, strategy=ns(args=args), kl_ctl=ns(value=0.0), advantage_estimator=args.algo.advantage.estimator)
    for name in ("get_cumulative_returns", "get_advantages_and_returns"):
        setattr(maker, name, types.MethodType(o["maker"][name], maker))
    try:
        out = o["maker"]["compute_advantages_and_returns"](maker, exps)
    except Exception as e:  # noqa: BLE001
        return {"error": f"{type(e).__name__}: {e}"}
    adv = [None] * len(rewards)
    for e in out:
        for row, i in enumerate(e.index):
            v = e.advantages[row, 0].item()
            adv[i] = None if v != v else v
    return {"advantages": adv}


def synthetic(seed, count, gen_cache):
    g = gen_cache.setdefault(seed, torch.Generator().manual_seed(seed))
    return torch.randint(SEQLEN_LOW, SEQLEN_HIGH, (count,), generator=g).tolist()


def main():
    global CHECKOUT
    CHECKOUT = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "golden-openrlhf.json")
    commit = subprocess.run(["git", "-C", CHECKOUT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    o = build()
    fresh = fresh_process_orders()

    orders = []
    for c in [
        {"datasetSize": 20, "rolloutBatchSize": 4, "n": 2, "gpusPerNode": 2, "episodes": 2, "numWorkers": 0, "seed": 42},
        {"datasetSize": 22, "rolloutBatchSize": 4, "n": 1, "gpusPerNode": 2, "episodes": 3, "numWorkers": 0, "seed": 42},
        {"datasetSize": 10, "rolloutBatchSize": 3, "n": 4, "gpusPerNode": 1, "episodes": 2, "numWorkers": 1, "seed": 7},
        {"datasetSize": 17, "rolloutBatchSize": 5, "n": 2, "gpusPerNode": 4, "episodes": 3, "numWorkers": 2, "seed": 0},
        {"datasetSize": 64, "rolloutBatchSize": 16, "n": 8, "gpusPerNode": 8, "episodes": 1, "numWorkers": 0, "seed": 1234},
        {"datasetSize": 7, "rolloutBatchSize": 8, "n": 2, "gpusPerNode": 2, "episodes": 2, "numWorkers": 0, "seed": 42},
        {"datasetSize": 9, "rolloutBatchSize": 1, "n": 3, "gpusPerNode": 1, "episodes": 2, "numWorkers": 0, "seed": 3},
        {"datasetSize": 1000, "rolloutBatchSize": 128, "n": 8, "gpusPerNode": 8, "episodes": 2, "numWorkers": 0, "seed": 42},
    ]:
        steps, sampler_seed = run_prompt_order(o, c)
        orders.append({"config": c, "samplerSeed": str(sampler_seed), "steps": steps})

    dispatch = []
    cache = {}
    for c in [
        {"prompts": 4, "n": 2, "gpusPerNode": 2},
        {"prompts": 4, "n": 2, "gpusPerNode": 3},
        {"prompts": 3, "n": 3, "gpusPerNode": 4},
        {"prompts": 2, "n": 2, "gpusPerNode": 4, "rolloutMicroBatchSize": 1},
        {"prompts": 5, "n": 3, "gpusPerNode": 2, "rolloutMicroBatchSize": 4},
        {"prompts": 8, "n": 4, "gpusPerNode": 4, "rolloutMicroBatchSize": 2},
        {"prompts": 3, "n": 4, "gpusPerNode": 4, "rolloutMicroBatchSize": 4},
        {"prompts": 4, "n": 4, "gpusPerNode": 2, "numNodes": 2, "ring": 2},
        {"prompts": 6, "n": 2, "gpusPerNode": 4, "tp": 2, "rolloutMicroBatchSize": 2},
        # dynamic batching: balanced rollout micro-batches, balance_experiences, setup_dynamic_batch
        {"prompts": 4, "n": 4, "gpusPerNode": 2, "dynamic": True, "trainBatchSize": 8, "trainMaxTokensPerGpu": 2048, "seed": 1},
        {"prompts": 4, "n": 4, "gpusPerNode": 2, "dynamic": True, "trainBatchSize": 16, "trainMaxTokensPerGpu": 1500, "seed": 2},
        {"prompts": 8, "n": 4, "gpusPerNode": 4, "dynamic": True, "trainBatchSize": 8, "trainMaxTokensPerGpu": 3000, "seed": 3},
        {"prompts": 6, "n": 3, "gpusPerNode": 3, "dynamic": True, "trainBatchSize": 6, "trainMaxTokensPerGpu": 4000, "rolloutMaxTokensPerGpu": 2500, "seed": 4},
        {"prompts": 5, "n": 4, "gpusPerNode": 2, "dynamic": True, "trainBatchSize": 8, "trainMaxTokensPerGpu": 16192, "seed": 5},
        {"prompts": 16, "n": 8, "gpusPerNode": 8, "dynamic": True, "trainBatchSize": 32, "trainMaxTokensPerGpu": 4096, "seed": 6},
        {"prompts": 4, "n": 2, "gpusPerNode": 4, "numNodes": 1, "ring": 2, "dynamic": True, "trainBatchSize": 4, "trainMaxTokensPerGpu": 1000, "seed": 7},
        {"prompts": 3, "n": 4, "gpusPerNode": 2, "dynamic": True, "trainBatchSize": 12, "trainMaxTokensPerGpu": 700, "seed": 8},
        {"prompts": 4, "n": 2, "gpusPerNode": 2, "dynamic": True, "trainBatchSize": 4, "trainMaxTokensPerGpu": 900, "seed": 9,
         "seqlens": [500, 500, 500, 500, 100, 900, 100, 100]},
        # odd numbers of balance_experiences chunks, short last chunks, equal lengths (stable sort)
        {"prompts": 3, "n": 2, "gpusPerNode": 2, "dynamic": True, "trainBatchSize": 2, "trainMaxTokensPerGpu": 1200, "seed": 10},
        {"prompts": 5, "n": 3, "gpusPerNode": 2, "dynamic": True, "trainBatchSize": 6, "trainMaxTokensPerGpu": 2000, "seed": 11},
        {"prompts": 7, "n": 3, "gpusPerNode": 4, "dynamic": True, "trainBatchSize": 8, "trainMaxTokensPerGpu": 1500, "seed": 12},
        {"prompts": 9, "n": 3, "gpusPerNode": 3, "dynamic": True, "trainBatchSize": 9, "trainMaxTokensPerGpu": 3000, "seed": 13},
        {"prompts": 5, "n": 2, "gpusPerNode": 3, "dynamic": True, "trainBatchSize": 3, "trainMaxTokensPerGpu": 600, "seed": 14,
         "seqlens": [200, 200, 300, 200, 300, 300, 100, 200, 100, 300]},
    ]:
        count = c["prompts"] * c["n"]
        seqlens = c.get("seqlens") or synthetic(c.get("seed", 42), count, cache)
        c["rolloutBatchSize"] = c["prompts"]
        r = run_dispatch(o, c, seqlens)
        dispatch.append({"config": c, "seqlens": seqlens, **r})

    advantages = []
    rng = random.Random(7)
    for c in [
        {"estimator": "group_norm", "n": 4, "rewards": [1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0.5, 0.25, 1, 0]},
        {"estimator": "group_norm", "n": 2, "rewards": [1, 0, 3, 3, -2, 5]},
        {"estimator": "group_norm", "n": 3, "rewards": [rng.uniform(-3, 3) for _ in range(12)], "rolloutMicroBatchSize": 2},
        {"estimator": "group_norm", "n": 8, "rewards": [rng.choice([0, 1]) for _ in range(32)], "rolloutMicroBatchSize": 4},
        {"estimator": "group_norm", "n": 4, "rewards": [0, 0, 0, 1000]},
        {"estimator": "group_norm", "n": 128, "rewards": [1] + [0] * 127},
        {"estimator": "group_norm", "n": 4, "rewards": [1, 0, 1, 0, 1, 1]},
        {"estimator": "dr_grpo", "n": 4, "rewards": [1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0.5, 0.25, 1, 0]},
        {"estimator": "dr_grpo", "n": 2, "rewards": [0, 100, 7, -9, 3, 3]},
        {"estimator": "dr_grpo", "n": 5, "rewards": [rng.uniform(-20, 20) for _ in range(15)], "rolloutMicroBatchSize": 3},
        {"estimator": "rloo", "n": 4, "rewards": [1, 0, 0, 1, 0.5, 0.25, 1, 0]},
    ]:
        advantages.append({"config": c, **run_advantages(o, c)})

    doc = {
        "source": {
            "openrlhf": commit, "torch": torch.__version__, "torchdata": torchdata.__version__,
            "files": ["openrlhf/trainer/ppo_trainer.py", "openrlhf/trainer/ppo_utils/samples_generator.py",
                      "openrlhf/utils/deepspeed/deepspeed.py", "openrlhf/trainer/ppo_utils/experience_maker.py",
                      "openrlhf/trainer/ppo_utils/experience.py", "openrlhf/trainer/ppo_utils/replay_buffer.py",
                      "openrlhf/trainer/ppo_utils/length_penalty.py", "openrlhf/models/utils.py", "openrlhf/utils/utils.py",
                      "openrlhf/utils/seqlen_balancing.py", "openrlhf/trainer/ray/launcher.py"],
            "how": "exec'd from the checkout (syntax-tree extraction), with stand-ins for Ray (requests complete in submission order), "
                   "vLLM and torch.distributed (threads); nothing transcribed. Advantages in float64 with KL 0.",
        },
        "torchDefaultSeed": TORCH_DEFAULT_SEED,
        "freshProcessOrders": fresh,
        "syntheticSeqlens": {"low": SEQLEN_LOW, "high": SEQLEN_HIGH},
        "promptOrder": orders,
        "dispatch": dispatch,
        "advantages": advantages,
    }
    with open(out, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {out}: {len(orders)} orders, {len(dispatch)} dispatches, {len(advantages)} advantage cases (OpenRLHF {commit})")


if __name__ == "__main__":
    main()

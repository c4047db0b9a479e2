"""Writes test/fixtures/golden-async-{areal,skyrl,nemo-rl}.json: the frameworks' own staleness code on scripted traces.

    /work/golden-venv/bin/python scripts/golden/async_staleness.py areal=/work/checkouts/areal \
        nemo-rl=/work/checkouts/nemo-rl skyrl=/work/checkouts/skyrl [outdir]

Made with inclusionAI/AReaL 4aef98d, NVIDIA-NeMo/RL 7ea279a, NovaSky-AI/SkyRL a956457 (each commit is recorded in its
fixture). Nothing is imported from the packages (they need Ray, vLLM, torch.distributed): each class is AST-extracted
from its file and exec'd in a namespace holding the standard library.

What runs as the frameworks' code:
- AReaL areal/infra/staleness_manager.py StalenessManager with areal/api/io_struct.py RolloutStat;
- SkyRL skyrl/train/fully_async_trainer.py _AsyncStalenessManager and _RolloutStat (its asyncio methods, awaited);
- NeMo RL nemo_rl/algorithms/async_utils/staleness_sampler.py BaseSampler, WindowedSampler, _GatedSampler,
  ReadyFirstSampler, WeightFifoSampler, InOrderSampler (admit, select, evict, should_abort_inflight, is_on_policy,
  required_buffer_capacity) over replay_buffer.py TQReplayBuffer (reserve, remove; its DataPlane calls are stubbed).
Transcribed: TQReplayBuffer.commit's bookkeeping only (find the slot, mark it ready, set a meta whose concat() lists
the selected group ids), because the real commit tensorises a rollout and writes it to the DataPlane.

The AReaL and SkyRL traces are rollout loops whose admissions the framework's code decides: after every event the
loop submits rollouts while the manager's capacity is positive (as AReaL's workflow executor and SkyRL's
acquire_submission_slot do), and the script's seeded choices only say which running rollout finishes next and when the
trainer consumes a batch and moves to the next version. The fixture records the events and, after each, the rollouts
admitted and the capacity, so the sandbox's rules must admit the same rollouts at the same points.
The NeMo RL traces are seeded sequences of admit / reserve / commit / select / evict / abort calls; the fixture records
each call's answer (blocked or the stamp, the selected or evicted groups, abort or not) and the buffer after it. A
blocked admit is detected by running the real admit under asyncio.wait_for(…, 0.05 s) with the trainer version fixed
(it polls every 5 ms, so a timeout means it would wait for the trainer).
"""
import abc
import ast
import asyncio
import dataclasses
import json
import os
import random
import subprocess
import sys
import threading
import types
import typing
import uuid


def commit_of(checkout):
    return subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()


def exec_nodes(path, names, g):
    """Exec the named top-level classes, functions and assignments of `path` into namespace `g`."""
    tree = ast.parse(open(path).read())
    picked = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
        else:
            name = None
        if name in names:
            picked.append(node)
    assert len(picked) == len(names), (path, names, [getattr(n, "name", None) for n in picked])
    future = ast.parse("from __future__ import annotations").body
    exec(compile(ast.Module(body=future + picked, type_ignores=[]), path, "exec"), g)
    return g


def base_globals():
    # A real module's namespace: dataclasses look the class's module up in sys.modules.
    module = types.ModuleType(f"async_golden_{len(sys.modules)}")
    sys.modules[module.__name__] = module
    g = module.__dict__
    g.update({name: getattr(typing, name) for name in typing.__all__})
    g.update({"asyncio": asyncio, "abc": abc, "uuid": uuid, "dataclass": dataclasses.dataclass,
              "field": dataclasses.field, "Lock": threading.Lock, "logger": types.SimpleNamespace(warning=print, info=print)})
    return g


# ── AReaL and SkyRL: admission decided by the manager ─────────────────────────────────────────────────────────────


class ArealLoop:
    def __init__(self, g, max_concurrent, batch, staleness):
        self.provider = types.SimpleNamespace(version=0)
        self.provider.get_version = lambda: self.provider.version
        self.m = g["StalenessManager"](self.provider, max_concurrent, batch, staleness)

    def capacity(self):
        return self.m.get_capacity()

    def submit(self):
        self.m.on_rollout_enqueued()
        self.m.on_rollout_submitted()

    def accept(self):
        self.m.on_rollout_accepted()

    def next_version(self):
        self.provider.version += 1


class SkyrlLoop:
    def __init__(self, g, max_concurrent, batch, staleness):
        self.m = g["_AsyncStalenessManager"](max_concurrent, batch, staleness)
        self.step = 1

    def capacity(self):
        return self.m._compute_capacity_unlocked()

    def submit(self):
        asyncio.run(asyncio.wait_for(self.m.acquire_submission_slot(), 1.0))

    def accept(self):
        asyncio.run(self.m.on_rollout_accepted())

    def next_version(self):
        self.step += 1
        asyncio.run(self.m.notify_capacity_change(self.step))


def admission_trace(make, rng):
    cfg = {"maxConcurrent": rng.choice([1, 3, 4, 8, 16, 64]), "batch": rng.choice([1, 2, 4, 8]), "maxStaleness": rng.choice([0, 1, 2, 4])}
    loop = make(cfg["maxConcurrent"], cfg["batch"], cfg["maxStaleness"])
    running, ready, next_id, events = [], [], 0, []

    def admit():
        nonlocal next_id
        admitted = []
        while loop.capacity() > 0:
            loop.submit()
            running.append(next_id)
            admitted.append(next_id)
            next_id += 1
        return admitted

    events.append({"event": "start", "admitted": admit(), "capacity": loop.capacity()})
    for _ in range(60):
        can_step = len(ready) >= cfg["batch"]
        if running and (not can_step or rng.random() < 0.7):
            # the oldest most of the time, otherwise any: completion order is not submission order
            rollout = running.pop(0 if rng.random() < 0.5 else rng.randrange(len(running)))
            loop.accept()
            ready.append(rollout)
            ev = {"event": "finish", "rollout": rollout}
        elif can_step:
            del ready[: cfg["batch"]]
            loop.next_version()
            ev = {"event": "step"}
        else:
            break
        ev.update(admitted=admit(), capacity=loop.capacity())
        events.append(ev)
    return {**cfg, "events": events}


# ── NeMo RL: the four built-in samplers ───────────────────────────────────────────────────────────────────────────

POLICIES = [
    ("windowed", {"max_staleness_versions": 1, "sample_freshest_first": False}),
    ("windowed", {"max_staleness_versions": 2, "sample_freshest_first": True}),
    ("ready_first", {"max_staleness_versions": 0}),
    ("ready_first", {"max_staleness_versions": 2}),
    ("weight_fifo", {"max_staleness_versions": 0}),
    ("weight_fifo", {"max_staleness_versions": 1}),
    ("weight_fifo", {"max_staleness_versions": 2}),
    ("in_order", {"max_lookahead_versions": 0}),
    ("in_order", {"max_lookahead_versions": 1}),
    ("in_order", {"max_lookahead_versions": 3}),
]
CLASSES = {"windowed": "WindowedSampler", "ready_first": "ReadyFirstSampler", "weight_fifo": "WeightFifoSampler", "in_order": "InOrderSampler"}


class Meta:
    def __init__(self, group):
        self.sample_ids = [group]

    def concat(self, *others):
        return [self.sample_ids[0]] + [o.sample_ids[0] for o in others]


def load_nemo(checkout):
    g = base_globals()
    g.update({"Mapping": typing.Mapping, "KVBatchMeta": Meta})
    exec_nodes(os.path.join(checkout, "nemo_rl/algorithms/async_utils/replay_buffer.py"), ["TQReplayBuffer"], g)
    exec_nodes(os.path.join(checkout, "nemo_rl/algorithms/async_utils/staleness_sampler.py"),
               ["_GATE_POLL_SECONDS", "BaseSampler", "WindowedSampler", "_gated_required_buffer_capacity", "_GatedSampler",
                "ReadyFirstSampler", "WeightFifoSampler", "InOrderSampler"], g)

    class Buffer(g["TQReplayBuffer"]):
        async def _call_dp(self, *args, **kwargs):
            return None

        def commit_ready(self, group):  # transcribed: TQReplayBuffer.commit's bookkeeping
            idx = self._group_ids.index(group)
            self.meta_list[idx] = Meta(group)
            self.end_weight_list[idx] = self.start_weight_list[idx]
            self.ready_list[idx] = True

    return g, Buffer


def nemo_trace(rng, length):
    """A rollout pump and a train pump interleaved at random, as the single controller runs them."""
    events, trainer, weight, next_group, unready = [], 0, 0, 0, []
    for _ in range(length):
        r = rng.random()
        if r < 0.25:
            events.append({"op": "admit", "trainer": trainer})
            for _ in range(rng.randint(1, 3)):
                gid = f"g{next_group}"
                next_group += 1
                events.append({"op": "reserve", "group": gid, "weight": weight})
                unready.append(gid)
        elif r < 0.5 and unready:
            gid = unready.pop(0 if rng.random() < 0.6 else rng.randrange(len(unready)))
            events.append({"op": "commit", "group": gid})
        elif r < 0.72:
            lo = rng.randint(1, 3)
            events.append({"op": "select", "trainer": trainer, "min": lo, "max": lo + rng.randint(0, 3)})
            if rng.random() < 0.6:
                trainer += 1
                if rng.random() < 0.8:
                    weight = trainer
        elif r < 0.87:
            events.append({"op": "evict", "trainer": trainer})
        else:
            events.append({"op": "abort", "start": rng.randint(max(0, trainer - 3), trainer), "trainer": trainer})
    return events


def hand_traces():
    return [
        # weight_fifo waits for the oldest weight's straggler; in_order takes only its own batch
        [{"op": "admit", "trainer": 0}, {"op": "reserve", "group": "a", "weight": 0}, {"op": "reserve", "group": "b", "weight": 0},
         {"op": "admit", "trainer": 0}, {"op": "reserve", "group": "c", "weight": 0}, {"op": "commit", "group": "b"},
         {"op": "commit", "group": "c"}, {"op": "select", "trainer": 0, "min": 1, "max": 2}, {"op": "commit", "group": "a"},
         {"op": "select", "trainer": 0, "min": 1, "max": 2}, {"op": "admit", "trainer": 1}, {"op": "reserve", "group": "d", "weight": 1},
         {"op": "commit", "group": "d"}, {"op": "evict", "trainer": 1}, {"op": "select", "trainer": 1, "min": 1, "max": 3},
         {"op": "evict", "trainer": 3}, {"op": "select", "trainer": 3, "min": 1, "max": 3}],
        # the gate: admits without a trainer step
        [{"op": "admit", "trainer": 0}, {"op": "admit", "trainer": 0}, {"op": "admit", "trainer": 0}, {"op": "admit", "trainer": 1},
         {"op": "admit", "trainer": 3}, {"op": "admit", "trainer": 3}, {"op": "admit", "trainer": 3}],
        # bad group bounds
        [{"op": "select", "trainer": 0, "min": 0, "max": 1}],
        [{"op": "select", "trainer": 0, "min": 3, "max": 2}],
    ]


async def run_nemo(g, Buffer, policy, args, events):
    buffer = Buffer(None, "train", pad_value_dict={})
    sampler = g[CLASSES[policy]](buffer, **args)
    stamp, out = None, []
    for ev in events:
        rec = {}
        try:
            if ev["op"] == "admit":
                trainer = ev["trainer"]
                try:
                    stamp = await asyncio.wait_for(sampler.admit(trainer_version_fn=lambda: trainer), 0.05)
                    rec = {"blocked": False, "stamp": stamp}
                except asyncio.TimeoutError:
                    rec = {"blocked": True}
                rec["dispatchIndex"] = sampler._dispatch_index
            elif ev["op"] == "reserve":
                buffer.reserve(weight_version=ev["weight"], target_step=stamp, group_id=ev["group"])
            elif ev["op"] == "commit":
                buffer.commit_ready(ev["group"])
            elif ev["op"] == "select":
                meta, n = await sampler.select(current_train_weight=ev["trainer"], min_prompt_groups=ev["min"], max_prompt_groups=ev["max"])
                rec = {"selected": meta, "count": n}
            elif ev["op"] == "evict":
                before = list(buffer._group_ids)
                n = await sampler.evict(current_train_weight=ev["trainer"])
                rec = {"removed": [x for x in before if x not in buffer._group_ids], "count": n}
            elif ev["op"] == "abort":
                rec = {"abort": sampler.should_abort_inflight(start_weight_version=ev["start"], current_train_weight=ev["trainer"])}
        except ValueError as e:
            rec = {"error": f"ValueError: {e}"}
        rec["buffer"] = list(buffer._group_ids)
        out.append(rec)
    return {"isOnPolicy": sampler.is_on_policy, "requiredBufferCapacity": sampler.required_buffer_capacity(4), "results": out}


def main():
    paths = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
    rest = [a for a in sys.argv[1:] if "=" not in a]
    outdir = rest[0] if rest else os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../test/fixtures")

    def write(name, doc):
        path = os.path.join(outdir, f"golden-async-{name}.json")
        with open(path, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
        print(path, os.path.getsize(path), "bytes")

    if "areal" in paths:
        g = base_globals()
        exec_nodes(f"{paths['areal']}/areal/api/io_struct.py", ["RolloutStat"], g)
        g["Protocol"] = object
        exec_nodes(f"{paths['areal']}/areal/infra/staleness_manager.py", ["VersionProvider", "StalenessManager"], g)
        rng = random.Random(38)
        write("areal", {
            "source": "StalenessManager and RolloutStat exec'd from the checkout (scripts/golden/async_staleness.py); admissions "
                      "decided by get_capacity(); transcribed: nothing",
            "commit": commit_of(paths["areal"]),
            "traces": [admission_trace(lambda c, b, s: ArealLoop(g, c, b, s), rng) for _ in range(24)],
        })
    if "skyrl" in paths:
        g = base_globals()
        exec_nodes(f"{paths['skyrl']}/skyrl/train/fully_async_trainer.py", ["_RolloutStat", "_AsyncStalenessManager"], g)
        rng = random.Random(38)
        write("skyrl", {
            "source": "_AsyncStalenessManager and _RolloutStat exec'd from skyrl/train/fully_async_trainer.py "
                      "(scripts/golden/async_staleness.py); admissions decided by _compute_capacity_unlocked; transcribed: nothing",
            "commit": commit_of(paths["skyrl"]),
            "traces": [admission_trace(lambda c, b, s: SkyrlLoop(g, c, b, s), rng) for _ in range(24)],
        })
    if "nemo-rl" in paths:
        g, Buffer = load_nemo(paths["nemo-rl"])
        rng = random.Random(4168)
        traces = hand_traces() + [nemo_trace(rng, rng.randint(20, 40)) for _ in range(8)]
        runs = []
        for policy, args in POLICIES:
            for t, events in enumerate(traces):
                runs.append({"policy": policy, "args": args, "trace": t, **asyncio.run(run_nemo(g, Buffer, policy, args, events))})
        write("nemo-rl", {
            "source": "staleness_sampler.py's four built-in samplers over replay_buffer.py TQReplayBuffer, exec'd from the checkout "
                      "(scripts/golden/async_staleness.py); transcribed: TQReplayBuffer.commit's bookkeeping (the real one writes to the DataPlane)",
            "commit": commit_of(paths["nemo-rl"]),
            "traces": traces,
            "runs": runs,
        })


if __name__ == "__main__":
    main()

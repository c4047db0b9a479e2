"""Writes test/fixtures/golden-nemo-rl-staleness.json: NeMo RL's staleness samplers run on scripted event traces.

    /work/golden-venv/bin/python scripts/golden/nemo-rl_staleness.py /path/to/nemo-rl-checkout [out.json]

Made with NVIDIA-NeMo/RL 7ea279abfbeb698b092856d0dab61e7cf39bc909 (recorded in the fixture), Python asyncio.

What runs as NeMo RL's code (class source exec'd from the checkout; the package is not imported, it needs Ray):
- nemo_rl/algorithms/async_utils/staleness_sampler.py: BaseSampler, WindowedSampler, _GatedSampler,
  ReadyFirstSampler, _gated_required_buffer_capacity, _GATE_POLL_SECONDS (admit, select, evict,
  should_abort_inflight, is_on_policy, required_buffer_capacity);
- nemo_rl/algorithms/async_utils/replay_buffer.py: TQReplayBuffer (reserve, remove; its DataPlane calls go
  to a stub that does nothing).
Transcribed: TQReplayBuffer.commit's bookkeeping only (find the slot by group id, set its meta and
ready=True), because the real commit tensorises a rollout record and writes it to the DataPlane; the meta is
a stand-in whose concat() returns the selected group ids in order.
A blocked admit is detected by running the real admit under asyncio.wait_for(…, 0.05 s) with the trainer
version fixed: it polls every 5 ms, so a timeout means it would wait for the trainer.

Trace events (each records what the sampler returned):
  admit {trainer}                 -> blocked (bool) or stamp (int | null); dispatchIndex after
  reserve {group, weight}         -> the slot is appended unready, target_step = the last admit's stamp
  commit {group}                  -> the slot becomes ready
  select {trainer, min, max}      -> selected group ids (null when fewer than min are ready and eligible)
  evict {trainer}                 -> removed group ids
  abort {start, trainer}          -> should_abort_inflight
The buffer's group ids (in order) are recorded after every event.
"""
import ast
import asyncio
import json
import os
import random
import subprocess
import sys
import typing
import uuid
import abc

POLICIES = [
    ("windowed", {"max_staleness_versions": 0, "sample_freshest_first": False}),
    ("windowed", {"max_staleness_versions": 1, "sample_freshest_first": False}),
    ("windowed", {"max_staleness_versions": 2, "sample_freshest_first": True}),
    ("windowed", {"max_staleness_versions": 1, "sample_freshest_first": True}),
    ("windowed", {"max_staleness_versions": 3, "sample_freshest_first": False}),
    ("ready_first", {"max_staleness_versions": 0}),
    ("ready_first", {"max_staleness_versions": 1}),
    ("ready_first", {"max_staleness_versions": 2}),
]


def exec_nodes(path, names, g):
    tree = ast.parse(open(path).read())
    nodes = []
    for n in tree.body:
        name = n.name if isinstance(n, (ast.FunctionDef, ast.ClassDef)) else (
            n.targets[0].id if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) else None)
        if name in names:
            nodes.append(n)
    assert len(nodes) == len(names), (path, names)
    # both files start with `from __future__ import annotations`: keep annotations unevaluated
    future = ast.parse("from __future__ import annotations").body
    exec(compile(ast.Module(body=future + nodes, type_ignores=[]), path, "exec"), g)


class Meta:
    def __init__(self, group):
        self.sample_ids = [group]

    def concat(self, *others):
        return [self.sample_ids[0]] + [o.sample_ids[0] for o in others]


def load(checkout):
    g = {name: getattr(typing, name) for name in typing.__all__}
    g.update({"asyncio": asyncio, "abc": abc, "uuid": uuid, "Mapping": typing.Mapping, "KVBatchMeta": Meta, "__name__": "nemo_staleness"})
    exec_nodes(os.path.join(checkout, "nemo_rl/algorithms/async_utils/replay_buffer.py"), ["TQReplayBuffer"], g)
    exec_nodes(
        os.path.join(checkout, "nemo_rl/algorithms/async_utils/staleness_sampler.py"),
        ["_GATE_POLL_SECONDS", "BaseSampler", "WindowedSampler", "_gated_required_buffer_capacity", "_GatedSampler", "ReadyFirstSampler"],
        g,
    )

    class Buffer(g["TQReplayBuffer"]):
        async def _call_dp(self, *args, **kwargs):
            return None

        def commit_ready(self, group):  # transcribed from TQReplayBuffer.commit's bookkeeping
            idx = self._group_ids.index(group)
            self.meta_list[idx] = Meta(group)
            self.end_weight_list[idx] = self.start_weight_list[idx]
            self.ready_list[idx] = True

    return g, Buffer


def random_trace(rng, steps):
    """A rollout pump and a trainer, interleaved at random: groups of a batch are reserved when admitted, committed later."""
    events = []
    trainer, gen_weight, next_group = 0, 0, 0
    unready = []
    for _ in range(steps):
        r = rng.random()
        if r < 0.25:
            events.append({"op": "admit", "trainer": trainer})
            for _ in range(rng.randint(1, 3)):
                gid = f"g{next_group}"
                next_group += 1
                events.append({"op": "reserve", "group": gid, "weight": gen_weight})
                unready.append(gid)
        elif r < 0.5 and unready:
            gid = unready.pop(rng.randrange(len(unready)) if rng.random() < 0.4 else 0)
            events.append({"op": "commit", "group": gid})
        elif r < 0.7:
            lo = rng.randint(1, 3)
            events.append({"op": "select", "trainer": trainer, "min": lo, "max": lo + rng.randint(0, 3)})
            if rng.random() < 0.6:
                trainer += 1
                if rng.random() < 0.7:
                    gen_weight = trainer  # weights synced to the rollout engine
        elif r < 0.85:
            events.append({"op": "evict", "trainer": trainer})
        else:
            events.append({"op": "abort", "start": rng.randint(max(0, trainer - 3), trainer), "trainer": trainer})
    return events


def hand_traces():
    return [
        # a straggler from version 0 arrives after the trainer moved to 2
        [{"op": "admit", "trainer": 0}, {"op": "reserve", "group": "a", "weight": 0}, {"op": "reserve", "group": "b", "weight": 0},
         {"op": "commit", "group": "b"}, {"op": "select", "trainer": 0, "min": 1, "max": 1},
         {"op": "admit", "trainer": 1}, {"op": "reserve", "group": "c", "weight": 1}, {"op": "commit", "group": "c"},
         {"op": "select", "trainer": 1, "min": 1, "max": 2}, {"op": "commit", "group": "a"},
         {"op": "evict", "trainer": 2}, {"op": "select", "trainer": 2, "min": 1, "max": 4}, {"op": "abort", "start": 0, "trainer": 2}],
        # the gate: admits without a trainer step
        [{"op": "admit", "trainer": 0}, {"op": "admit", "trainer": 0}, {"op": "admit", "trainer": 0}, {"op": "admit", "trainer": 1},
         {"op": "admit", "trainer": 3}, {"op": "admit", "trainer": 3}, {"op": "admit", "trainer": 3}],
        # freshest-first ordering and ties
        [{"op": "reserve", "group": "x0", "weight": 0}, {"op": "reserve", "group": "x1", "weight": 2}, {"op": "reserve", "group": "x2", "weight": 1},
         {"op": "reserve", "group": "x3", "weight": 2}, {"op": "reserve", "group": "x4", "weight": 3},
         {"op": "commit", "group": "x0"}, {"op": "commit", "group": "x1"}, {"op": "commit", "group": "x2"}, {"op": "commit", "group": "x3"},
         {"op": "commit", "group": "x4"}, {"op": "select", "trainer": 2, "min": 1, "max": 3}, {"op": "select", "trainer": 3, "min": 1, "max": 3},
         {"op": "evict", "trainer": 3}],
        # bad group bounds
        [{"op": "select", "trainer": 0, "min": 0, "max": 1}],
        [{"op": "select", "trainer": 0, "min": 3, "max": 2}],
    ]


async def run_trace(g, Buffer, policy, args, events):
    buffer = Buffer(None, "train", pad_value_dict={})
    cls = {"windowed": g["WindowedSampler"], "ready_first": g["ReadyFirstSampler"]}[policy]
    sampler = cls(buffer, **args)
    stamp = None
    out = []
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
    return {
        "isOnPolicy": sampler.is_on_policy,
        "requiredBufferCapacity": sampler.required_buffer_capacity(4),
        "results": out,
    }


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-nemo-rl-staleness.json")
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    g, Buffer = load(checkout)
    rng = random.Random(4168)
    traces = hand_traces() + [random_trace(rng, rng.randint(20, 45)) for _ in range(10)]
    runs = []
    for policy, args in POLICIES:
        for t, events in enumerate(traces):
            runs.append({"policy": policy, "args": args, "trace": t, **asyncio.run(run_trace(g, Buffer, policy, args, events))})
    errors = []
    for policy, args in [("windowed", {"max_staleness_versions": -1}), ("ready_first", {"max_staleness_versions": -1})]:
        cls = {"windowed": g["WindowedSampler"], "ready_first": g["ReadyFirstSampler"]}[policy]
        try:
            cls(Buffer(None, "train", pad_value_dict={}), **args)
        except ValueError as e:
            errors.append({"policy": policy, "args": args, "error": f"ValueError: {e}"})
    doc = {
        "source": {
            "nemo-rl": commit,
            "run": "staleness_sampler.py BaseSampler, WindowedSampler, _GatedSampler, ReadyFirstSampler; replay_buffer.py TQReplayBuffer "
            "(reserve, remove; DataPlane calls stubbed)",
            "transcribed": "TQReplayBuffer.commit's bookkeeping (slot ready, meta set), because the real commit writes a rollout to the DataPlane",
        },
        "traces": traces,
        "runs": runs,
        "constructorErrors": errors,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(runs)} runs of {len(traces)} traces -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()

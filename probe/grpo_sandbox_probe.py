"""grpo-sandbox probe: log which prompt ids each rank trains on, then check them with
`grpo-sandbox diff --log run.jsonl [--preset NAME]`.

One file, no dependency beyond what the framework already imports: the standard library, plus
torch.distributed (for the rank) and transformers' TrainerCallback when they can be imported.
Copy it next to your training script.

Log format (JSON Lines, one file shared by all ranks; every write is one O_APPEND line):
  header, once per rank: {"probe": "grpo-sandbox", "probe_version": 1, "framework": ..., "framework_version": ...,
                          "rank": r, "settings": {sandbox settings read from the framework}, "read": {the framework's own names}}
  record, per step and rank: {"step": s, "rank": r, "ids": [dataset index, ...]}
`step` counts from 0 over the whole run (epoch-major), exactly as the sandbox's layout lists steps.

TRL (GRPOTrainer), one import and one argument:
    from grpo_sandbox_probe import TrlProbeCallback
    trainer = GRPOTrainer(..., callbacks=[TrlProbeCallback("run.jsonl")])
A TrainerCallback never sees indices, so at on_train_begin the callback wraps the train dataloader's
batch sampler (accelerate's BatchSamplerShard) in place and records every batch that TRL generates
from (one in steps_per_generation × num_iterations: the others are reused copies of the same batch).
The version is TRL's own (importlib.metadata).

flow_grpo / DanceGRPO: their datasets return no index (flow_grpo's TextPromptDataset gives
"metadata": {}, DanceGRPO's latent dataset gives embeddings and a caption), so the probe watches the
sampler that draws the indices, before the loop starts iterating the DataLoader. Neither has a
__version__: pass the commit of your checkout (`git rev-parse --short HEAD`) as version=.
    from grpo_sandbox_probe import Probe
    # flow_grpo (scripts/train_sd3.py), after accelerator.prepare(...) has wrapped train_dataloader:
    Probe.flow_grpo("run.jsonl", train_sampler, config, version="<commit>", dataloader=train_dataloader).watch(train_dataloader)
    (dataloader= logs the loader the layout depends on: num_workers, prefetch_factor, whether accelerate prepared it;
    watching the prepared DataLoader records what each rank's loader yields, BatchSamplerShard included)
    # verl (verl/trainer/ppo/ray_trainer.py), on the driver, after RayPPOTrainer built its dataloader:
    Probe.verl("run.jsonl", trainer, version="<commit>")          # before trainer.fit()
    # DanceGRPO (fastvideo/train_grpo_flux.py), after sampler and train_dataloader are built:
    Probe.dance_grpo("run.jsonl", sampler, args, version="<commit>").watch(train_dataloader)
watch() records each batch the moment the sampler hands it to the DataLoader, so the log holds what the
loader delivers, in order, whatever num_workers is (a prefetching loader also logs the one or two
batches it drew ahead but the run never reached). DanceGRPO draws prompts and repeat_interleaves them
num_generations times in train_one_step; its probe records each id repeated so (repeat=, set by
Probe.dance_grpo), as the sandbox's dance-grpo layout lists them. A DistributedSampler yields single
indices, not batches: watch the DataLoader (its batch_sampler), not the DistributedSampler.
Where ids are at hand instead, probe.record(step, ids) logs one step directly.

The nine framework homes (NeMo RL, EasyR1, SkyRL, slime, AReaL, ROLL, OpenRLHF, open-instruct, prime-rl):
one call per training step and data-parallel rank, where the framework's loop holds that rank's samples
after its dispatch and before micro-batching (docs/cli.md, `grpo-sandbox diff`, has the file, function and
variable for each):
    from grpo_sandbox_probe import log_step
    log_step("run.jsonl", step, dp_rank, prompt_ids, framework="nemo-rl", version="<commit>")
prompt_ids: the dataset index of each sample the rank trains on, in the rank's order, a prompt's k samples
each listed (what `layout --sampler nemo-rl --json` lists as steps[step].ranks[dp_rank]); step counts
training steps from 0 over the whole run. A driver that dispatches (slime, OpenRLHF, SkyRL, ...) calls it once
per rank with each rank's share. framework: the home's name (nemo-rl, easyr1, skyrl, slime, areal, roll,
openrlhf, open-instruct, prime-rl); version: the commit of your checkout (`git rev-parse --short HEAD`);
settings= (optional) the framework's own keys you want checked, e.g. {"grpo.num_prompts_per_step": 32}.
Then: grpo-sandbox diff --log run.jsonl --sampler nemo-rl --config your_config.yaml
"""
import json
import os

PROBE_VERSION = 1


def _rank():
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            return dist.get_rank()
    except ImportError:
        pass
    return int(os.environ.get("RANK", "0"))


def _version(module):
    try:
        import importlib.metadata as md

        return md.version(module)
    except Exception:  # not installed as a package (flow_grpo, DanceGRPO are checkouts)
        return "unknown"


class Probe:
    """Appends one JSON line per (step, rank). `settings` uses the sandbox's names (see README)."""

    def __init__(self, path, framework, framework_version, settings, read=None, rank=None):
        self.path = path
        self.rank = _rank() if rank is None else rank
        self._write({
            "probe": "grpo-sandbox",
            "probe_version": PROBE_VERSION,
            "framework": framework,
            "framework_version": framework_version,
            "rank": self.rank,
            "settings": settings,
            "read": read or {},
        })

    def _write(self, obj):
        # One os.write of one line on an O_APPEND descriptor: lines of different ranks never interleave.
        line = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)

    def record(self, step, ids):
        """Call once per sampling step on every rank with the dataset indices this rank got, in order."""
        if hasattr(ids, "tolist"):
            ids = ids.tolist()
        self._write({"step": int(step), "rank": self.rank, "ids": [int(i) for i in ids]})

    repeat = 1
    """How many times watch() logs each drawn id, consecutively (DanceGRPO: num_generations)."""

    def watch(self, batch_sampler, every=1, repeat=None):
        """Records every `every`-th batch `batch_sampler` yields (step = count // every), each id
        `repeat` times (default: the probe's own, num_generations for Probe.dance_grpo), by giving the
        object a subclass whose __iter__ records: the DataLoader keeps the same object and order.
        `batch_sampler` may be a DataLoader: its batch_sampler is watched. Call it before iterating."""
        if hasattr(batch_sampler, "batch_sampler") and hasattr(batch_sampler, "dataset"):
            batch_sampler = batch_sampler.batch_sampler  # a DataLoader
        if batch_sampler is None:
            raise TypeError("grpo_sandbox_probe.watch: this DataLoader has no batch_sampler (batch_size=None); watch the sampler that yields batches")
        probe, base = self, type(batch_sampler)
        repeat = self.repeat if repeat is None else int(repeat)
        count = [0]

        def __iter__(obj):
            for batch in base.__iter__(obj):
                if not hasattr(batch, "__len__") or getattr(batch, "ndim", 1) == 0:
                    # A per-index sampler (DistributedSampler): its items are not steps.
                    raise TypeError(
                        f"grpo_sandbox_probe.watch: {base.__name__} yields single indices, not batches; "
                        "watch the DataLoader (probe.watch(train_dataloader)) so each record is one batch"
                    )
                if count[0] % every == 0:
                    ids = batch.tolist() if hasattr(batch, "tolist") else list(batch)
                    probe.record(count[0] // every, [i for i in ids for _ in range(repeat)])
                count[0] += 1
                yield batch

        batch_sampler.__class__ = type(f"Probed{base.__name__}", (base,), {"__iter__": __iter__})
        return batch_sampler

    @classmethod
    def flow_grpo(cls, path, sampler, config, version="unknown", dataloader=None):
        """flow_grpo: reads the DistributedKRepeatSampler and config.sample.* (the scatter sampler; diff
        a run of the lcm one with --sampler flow-grpo-lcm). version: your checkout's commit. dataloader: the
        train DataLoader (after accelerator.prepare, if the script prepares it), for the loader settings."""
        read = {
            "config.sample.train_batch_size": sampler.batch_size,
            "config.sample.num_image_per_prompt": sampler.k,
            "config.sample.num_batches_per_epoch": config.sample.num_batches_per_epoch,
            "config.train.num_inner_epochs": getattr(config.train, "num_inner_epochs", 1),
            "config.train.gradient_accumulation_steps": getattr(config.train, "gradient_accumulation_steps", 1),
            "num_replicas": sampler.num_replicas,
            "seed": sampler.seed,
            "len(dataset)": len(sampler.dataset),
        }
        settings = {
            "sampler": "flow-grpo",
            "ranks": sampler.num_replicas,
            "batch": sampler.batch_size,
            "k": sampler.k,
            "batchesPerEpoch": config.sample.num_batches_per_epoch,
            "datasetSize": len(sampler.dataset),
            "seed": sampler.seed,
            "numIterations": read["config.train.num_inner_epochs"],
            "gradientAccumulationSteps": read["config.train.gradient_accumulation_steps"],
        }
        if dataloader is not None:
            # accelerate's prepared loaders (DataLoaderShard, ...) live in accelerate.data_loader and proxy num_workers.
            prepared = type(dataloader).__module__.startswith("accelerate")
            workers = int(getattr(dataloader, "num_workers", 0) or 0)
            prefetch = getattr(dataloader, "prefetch_factor", None)
            read.update({"DataLoader.num_workers": workers, "DataLoader.prefetch_factor": prefetch, "accelerator.prepare": prepared})
            settings.update({"numWorkers": workers, "acceleratePrepare": 1 if prepared else 0})
            if prefetch is not None:
                settings["prefetchFactor"] = int(prefetch)
        return cls(path, "flow_grpo", version, settings, read)

    @classmethod
    def dance_grpo(cls, path, sampler, args, version="unknown"):
        """DanceGRPO: reads its DistributedSampler and argparse args. watch(train_dataloader) logs each
        prompt id num_generations times (as train_one_step repeat_interleaves them); record() takes the
        ids already repeated so."""
        read = {
            "--train_batch_size": args.train_batch_size,
            "--num_generations": args.num_generations,
            "--sampler_seed": sampler.seed,
            "--gradient_accumulation_steps": getattr(args, "gradient_accumulation_steps", 1),
            "num_replicas": sampler.num_replicas,
            "len(dataset)": len(sampler.dataset),
        }
        settings = {
            "sampler": "dance-grpo",
            "ranks": sampler.num_replicas,
            "batch": args.train_batch_size * args.num_generations,
            "k": args.num_generations,
            "datasetSize": len(sampler.dataset),
            "seed": sampler.seed,
            "gradientAccumulationSteps": read["--gradient_accumulation_steps"],
        }
        probe = cls(path, "DanceGRPO", version, settings, read)
        probe.repeat = args.num_generations
        return probe

    @classmethod
    def verl(cls, path, trainer, version="unknown", ranks=None):
        """verl (RayPPOTrainer, on the driver): call after the trainer built its dataloader (after
        _create_dataloader), before fit(). Reads the config; watches the StatefulDataLoader's batch
        sampler (each step's prompt ids) and wraps trainer._balance_batch to read the reorder index,
        then logs what each data-parallel rank gets: the ids repeated rollout.n times (interleave),
        in the balanced order, cut into equal contiguous chunks. ranks: the DP size (default
        trainer.n_gpus_per_node × nnodes, i.e. no tensor/sequence parallelism). version: the commit."""
        cfg = trainer.config
        n = cfg.actor_rollout_ref.rollout.n
        prompts = cfg.data.get("gen_batch_size", cfg.data.train_batch_size)
        ranks = ranks or cfg.trainer.n_gpus_per_node * cfg.trainer.nnodes
        seed = cfg.data.get("seed")
        actor = cfg.actor_rollout_ref.actor
        read = {
            "data.train_batch_size": cfg.data.train_batch_size,
            "actor_rollout_ref.rollout.n": n,
            "data.seed": seed,
            "data.dataloader_num_workers": cfg.data.get("dataloader_num_workers", 8),
            "trainer.balance_batch": bool(cfg.trainer.balance_batch),
            "dp size": ranks,
            "len(train_dataset)": len(trainer.train_dataset),
        }
        settings = {
            "sampler": "verl",
            "ranks": ranks,
            "batch": prompts * n // ranks,
            "k": n,
            "datasetSize": len(trainer.train_dataset),
            # data.seed null leaves torch.Generator() at its default seed.
            "seed": 67280421310721 if seed is None else int(seed),
            "epochs": cfg.trainer.total_epochs,
            "numIterations": actor.get("ppo_epochs", 1),
            "ppoMiniBatchSize": actor.get("ppo_mini_batch_size", 0),
            "ppoMicroBatchSizePerGpu": actor.get("ppo_micro_batch_size_per_gpu") or 0,
            "balanceBatch": bool(cfg.trainer.balance_batch),
            "dataloaderNumWorkers": read["data.dataloader_num_workers"],
        }
        probe = cls(path, "verl", version, settings, read)
        probe._verl_drawn, probe._verl_steps, probe._verl_n, probe._verl_ranks = [], 0, n, ranks
        probe._watch_verl_loader(trainer.train_dataloader, emit_now=not settings["balanceBatch"])
        if settings["balanceBatch"]:
            balance = trainer._balance_batch

            def _balance_batch(batch, *args, **kwargs):
                seen = {}
                reorder = batch.reorder

                def recording_reorder(idx):
                    seen["order"] = [int(i) for i in idx.tolist()]
                    return reorder(idx)

                batch.reorder = recording_reorder
                try:
                    return balance(batch, *args, **kwargs)
                finally:
                    del batch.reorder
                    probe._verl_emit(seen["order"])

            trainer._balance_batch = _balance_batch
        return probe

    def _watch_verl_loader(self, loader, emit_now):
        """Keeps each batch of prompt ids the loader's batch sampler yields (FIFO: workers draw ahead).
        Its __iter__ stays eager (torchdata builds and drops iterators; each build draws a permutation)."""
        batch_sampler = loader.batch_sampler
        probe, base = self, type(batch_sampler)

        class Recording:
            def __init__(self, inner):
                self.inner = inner

            def __iter__(self):
                return self

            def __next__(self):
                ids = [int(i) for i in next(self.inner)]
                probe._verl_drawn.append(ids)
                if emit_now:
                    probe._verl_emit(list(range(len(ids) * probe._verl_n)))
                return ids

            def state_dict(self):
                return self.inner.state_dict()

            def load_state_dict(self, state):
                return self.inner.load_state_dict(state)

        batch_sampler.__class__ = type(f"Probed{base.__name__}", (base,), {"__iter__": lambda obj: Recording(base.__iter__(obj))})

    def _verl_emit(self, order):
        ids = self._verl_drawn.pop(0)
        repeated = [i for i in ids for _ in range(self._verl_n)]  # DataProto.repeat(n, interleave=True)
        per = len(repeated) // self._verl_ranks
        for r in range(self._verl_ranks):  # DataProto.chunk(dp size): equal contiguous chunks
            self.rank = r
            self.record(self._verl_steps, [repeated[j] for j in order[r * per:(r + 1) * per]])
        self.rank = 0
        self._verl_steps += 1

    @classmethod
    def trl(cls, path, args, dataset_size, world_size):
        """TRL: the settings GRPOConfig resolved (after __post_init__) and the process count."""
        read = {
            "per_device_train_batch_size": args.per_device_train_batch_size,
            "num_generations": args.num_generations,
            "steps_per_generation": args.steps_per_generation,
            "num_iterations": args.num_iterations,
            "gradient_accumulation_steps": args.gradient_accumulation_steps,
            "seed": args.seed,
            "num_processes": world_size,
            "len(train_dataset)": dataset_size,
        }
        settings = {
            "sampler": "trl",
            "ranks": world_size,
            "batch": args.per_device_train_batch_size,
            "k": args.num_generations,
            "datasetSize": dataset_size,
            "seed": args.seed,
            "stepsPerGeneration": args.steps_per_generation,
            "numIterations": args.num_iterations,
            "gradientAccumulationSteps": args.gradient_accumulation_steps,
        }
        return cls(path, "trl", _version("trl"), settings, read)

    def watch_trl(self, dataloader, args):
        """Wraps the batch sampler of TRL's (accelerate-prepared) train dataloader."""
        return self.watch(dataloader.batch_sampler, every=args.steps_per_generation * args.num_iterations)


_step_probes = {}


def log_step(path, step, rank, prompt_ids, framework, version="unknown", settings=None):
    """Logs what data-parallel rank `rank` trains on at training step `step` (0-based over the run): the prompt
    id (dataset index) of each of its samples, in order (a list, tensor or array). The first call for a (path,
    rank, framework) in this process writes that rank's header (framework, version, settings: the framework's
    own keys or the sandbox's flags for them); `grpo-sandbox diff --log path --sampler FRAMEWORK` reads the file."""
    key = (os.path.abspath(path), int(rank), framework)
    probe = _step_probes.get(key)
    if probe is None:
        probe = _step_probes[key] = Probe(path, framework, version, dict(settings or {}), rank=int(rank))
    probe.record(step, prompt_ids)


try:
    from transformers import TrainerCallback
except ImportError:  # not a TRL run: the callback is not needed
    TrainerCallback = object


class TrlProbeCallback(TrainerCallback):
    """TRL: pass in `callbacks=[...]`; logs the layout of every generation batch to `path`."""

    def __init__(self, path):
        self.path = path
        self.probe = None

    def on_train_begin(self, args, state, control, train_dataloader=None, **kwargs):
        if self.probe is None and train_dataloader is not None:
            self.probe = Probe.trl(self.path, args, len(train_dataloader.dataset), args.world_size)
            self.probe.watch_trl(train_dataloader, args)

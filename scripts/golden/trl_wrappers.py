"""Writes test/fixtures/golden-trl-wrappers.json: how TRL 0.18.2, Unsloth (on TRL 0.24.0) and ms-swift
read a GRPO run's batch settings, by running each one's own config code from checkouts.

    python scripts/golden/trl_wrappers.py TRL_CHECKOUT UNSLOTH_CHECKOUT MS_SWIFT_CHECKOUT [out.json]

TRL_CHECKOUT is a clone of huggingface/trl (any commit that has the tags v0.18.2 and v0.24.0; the files are
read with `git show TAG:path`), UNSLOTH_CHECKOUT unslothai/unsloth at 015bdef, MS_SWIFT_CHECKOUT
modelscope/ms-swift at 3602360. Made with those (each checkout's commit is recorded in the fixture) and
torch 2.13 CPU. trl 0.18.2 is not in the local package index (only 1.13.0 is), so nothing is pip-installed:
every piece below is its source, AST-extracted and exec'd.

What runs as the frameworks' code:
- TRL v0.18.2 and v0.24.0 trl/trainer/grpo_config.py GRPOConfig.__post_init__, exec'd on a stand-in `self`
  holding the batch fields (its `super().__post_init__()`, transformers' TrainingArguments, is left out:
  it does not touch these fields; world_size is the stand-in's attribute, as TrainingArguments gives it);
- TRL v0.24.0 trl/trainer/utils.py RepeatSampler (the class ms-swift imports under trl<1.0), for the
  sequence-parallel sampler ms-swift builds in swift/rlhf_trainers/grpo_trainer.py _get_train_sampler
  (repeat_count = num_iterations * steps_per_generation * sequence_parallel world size);
- Unsloth 015bdef unsloth/models/rl.py: the `check_num_generations` source template it pastes into
  UnslothGRPOConfig.__init__ (the first branch, taken when TRL's GRPOConfig has steps_per_generation and
  generation_batch_size, i.e. every TRL Unsloth allows: trl>=0.18.2,<=0.24.0), extracted as the string
  constant and exec'd with WORLD_SIZE set, its print captured; then TRL 0.24.0's __post_init__ on the result;
- ms-swift 3602360 swift/rlhf_trainers/args_mixin.py RolloutTrainerArgumentsMixin._init_generation_batch_params.
Transcribed: nothing of the rules. The dataloader's length for the sequence-parallel sampler is
len(RepeatSampler) / (per_device_train_batch_size * steps_per_generation * processes), as accelerate's
BatchSamplerShard gives it when it divides (accelerate is not installed here).
"""
import ast
import contextlib
import io
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import torch


def git(checkout, *args):
    return subprocess.check_output(["git", "-C", checkout, *args], text=True).strip()


def method_source(source, cls, name):
    tree = ast.parse(source)
    klass = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    return next(n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == name)


def without_super_call(fn):
    """The method with its `super().__post_init__()` statement removed (TrainingArguments' own checks)."""
    def is_super(stmt):
        return (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and isinstance(stmt.value.func.value, ast.Call)
            and getattr(stmt.value.func.value.func, "id", None) == "super"
        )
    fn.body = [s for s in fn.body if not is_super(s)]
    return fn


def load_method(source, cls, name, path, strip_super=False):
    fn = method_source(source, cls, name)
    if strip_super:
        fn = without_super_call(fn)
    g = {"__name__": "golden_exec"}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), path, "exec"), g)
    return g[name]


def load_class(source, name, path):
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    from typing import Optional, Sized
    from torch.utils.data import Sampler
    g = {"__name__": "golden_exec", "torch": torch, "Sampler": Sampler, "Optional": Optional, "Sized": Sized}
    exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), g)
    return g[name]


def unsloth_snippet(rl_py):
    """The source template Unsloth pastes into UnslothGRPOConfig.__init__ for the num_generations check (first branch)."""
    tree = ast.parse(open(rl_py).read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "check_num_generations" for t in node.targets):
            text = ast.literal_eval(node.value)
            if "steps_per_generation is None and generation_batch_size is None" in text:
                return text
    raise SystemExit(f"{rl_py}: no check_num_generations template")


def stand_in(**fields):
    base = dict(eval_strategy="no", do_eval=False, delta=None, use_liger_loss=False, bf16=False, fp16=False, scale_rewards=True)
    base.update(fields)
    return SimpleNamespace(**base)


def run_config(post_init, c, world):
    self = stand_in(
        per_device_train_batch_size=c["batch"],
        gradient_accumulation_steps=c["ga"],
        num_generations=c["k"],
        steps_per_generation=c.get("spg"),
        generation_batch_size=c.get("gbs"),
        world_size=world,
    )
    try:
        post_init(self)
    except ValueError as e:
        return {"error": f"ValueError: {e}"}
    return {"stepsPerGeneration": self.steps_per_generation, "generationBatchSize": self.generation_batch_size}


def run_unsloth(snippet, post_init, c):
    env = {"per_device_train_batch_size": c["batch"], "gradient_accumulation_steps": c["ga"], "num_generations": c["k"],
           "steps_per_generation": c.get("spg"), "generation_batch_size": c.get("gbs"), "os": os}
    out = io.StringIO()
    os.environ["WORLD_SIZE"] = str(c["ranks"])
    with contextlib.redirect_stdout(out):
        exec(snippet, env)
    rewritten = dict(c, batch=env["per_device_train_batch_size"])
    return {"printed": out.getvalue().rstrip("\n") or None, "batch": env["per_device_train_batch_size"],
            **run_config(post_init, rewritten, c["ranks"])}


def run_ms_swift(init_params, c):
    self = stand_in(
        per_device_train_batch_size=c["batch"], gradient_accumulation_steps=c["ga"], num_generations=c["k"],
        steps_per_generation=c.get("spg"), generation_batch_size=c.get("gbs"), world_size=c["ranks"],
    )
    try:
        init_params(self)
    except ValueError as e:
        return {"error": f"ValueError: {e}"}
    return {"stepsPerGeneration": self.steps_per_generation, "generationBatchSize": self.generation_batch_size}


def cases():
    out = []
    for ranks in (1, 2, 3, 4):
        for batch in (1, 2, 3, 4, 8):
            for k in (1, 2, 3, 4, 8, 16):
                for ga in (1, 2, 3):
                    out.append({"ranks": ranks, "batch": batch, "k": k, "ga": ga})
    # steps_per_generation / generation_batch_size given (Unsloth then leaves the batch alone).
    for ranks, batch, k, spg, gbs in [
        (2, 4, 8, 1, None), (2, 4, 8, 2, None), (2, 3, 4, 2, None), (1, 6, 4, 2, None), (4, 2, 8, 3, None),
        (2, 4, 8, None, 16), (2, 4, 8, None, 24), (2, 4, 8, None, 12), (3, 2, 4, None, 18), (2, 2, 3, None, 12),
        (2, 4, 8, 2, 16), (2, 4, 8, 2, 24), (1, 4, 6, None, 8), (4, 3, 8, None, 36), (2, 3, 2, None, 9),
        # TRL 0.18.2 reads `gbs % pd * W` as (gbs % pd) * W: a multiple of pd that is not one of pd * W passes.
        (2, 2, 2, None, 6), (3, 2, 2, None, 8), (2, 4, 4, None, 12),
    ]:
        c = {"ranks": ranks, "batch": batch, "k": k, "ga": 2}
        if spg is not None:
            c["spg"] = spg
        if gbs is not None:
            c["gbs"] = gbs
        out.append(c)
    return out


def sp_cases(RepeatSampler):
    """ms-swift's sequence-parallel RepeatSampler: the stream and the dataloader length per process."""
    out = []
    for dataset, k, spg, mu, sp, ranks, batch, seed in [
        (12, 4, 1, 1, 2, 2, 4, 42), (20, 2, 2, 1, 2, 4, 2, 7), (9, 2, 1, 2, 4, 4, 3, 3407),
        (40, 8, 2, 1, 2, 2, 8, 0), (30, 4, 1, 1, 3, 6, 2, 1),
    ]:
        prompts = batch * ranks * spg // k
        s = RepeatSampler(data_source=list(range(dataset)), mini_repeat_count=k, batch_size=prompts,
                          repeat_count=mu * spg * sp, shuffle=True, seed=seed)
        stream = list(s)
        out.append({"input": {"datasetSize": dataset, "k": k, "stepsPerGeneration": spg, "numIterations": mu,
                              "sequenceParallelSize": sp, "ranks": ranks, "batch": batch, "seed": seed},
                    "stream": stream, "batchesPerProcess": len(stream) // (batch * spg * ranks)})
    return out


def main():
    trl, unsloth, swift = sys.argv[1:4]
    out_path = sys.argv[4] if len(sys.argv) > 4 else "test/fixtures/golden-trl-wrappers.json"
    cfg = "trl/trainer/grpo_config.py"
    post_init_018 = load_method(git(trl, "show", f"v0.18.2:{cfg}"), "GRPOConfig", "__post_init__", cfg, strip_super=True)
    post_init_024 = load_method(git(trl, "show", f"v0.24.0:{cfg}"), "GRPOConfig", "__post_init__", cfg, strip_super=True)
    trainer_024 = git(trl, "show", "v0.24.0:trl/trainer/utils.py")
    RepeatSampler = load_class(trainer_024, "RepeatSampler", "trl/trainer/utils.py")
    snippet = unsloth_snippet(os.path.join(unsloth, "unsloth/models/rl.py"))
    mixin = os.path.join(swift, "swift/rlhf_trainers/args_mixin.py")
    init_params = load_method(open(mixin).read(), "RolloutTrainerArgumentsMixin", "_init_generation_batch_params", mixin)
    rows = []
    for c in cases():
        rows.append({
            "input": c,
            "trl-0.18.2": run_config(post_init_018, c, c["ranks"]),
            "trl-0.24.0": run_config(post_init_024, c, c["ranks"]),
            "unsloth-015bdef": run_unsloth(snippet, post_init_024, c),
            "ms-swift-3602360": run_ms_swift(init_params, c),
        })
    fixture = {
        "source": "TRL v0.18.2 / v0.24.0 GRPOConfig.__post_init__, Unsloth 015bdef unsloth/models/rl.py check_num_generations "
                  "template, ms-swift 3602360 _init_generation_batch_params and TRL v0.24.0 RepeatSampler, each exec'd from "
                  "its source (scripts/golden/trl_wrappers.py); the dataloader length formula is transcribed",
        "commits": {"trl": {"v0.18.2": git(trl, "rev-parse", "v0.18.2^{commit}"), "v0.24.0": git(trl, "rev-parse", "v0.24.0^{commit}")},
                    "unsloth": git(unsloth, "rev-parse", "HEAD"), "ms-swift": git(swift, "rev-parse", "HEAD")},
        "torch": torch.__version__,
        "cases": rows,
        "sequenceParallel": sp_cases(RepeatSampler),
    }
    with open(out_path, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")
    print(f"{out_path}: {len(rows)} cases, {len(fixture['sequenceParallel'])} sequence-parallel streams")


if __name__ == "__main__":
    main()

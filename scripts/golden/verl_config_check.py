"""Runs verl's own config validation on what `grpo-sandbox layout --emit verl --json` prints; writes
test/fixtures/golden-verl-config.json.

    python scripts/golden/verl_config_check.py /path/to/verl-checkout OUT.json CASE.json ...

Each CASE.json is {"args": [the layout flags], "emitted": <layout --emit verl --json>}. Made with verl
b178a3cd56f58b2d502255daba591e92833930a7 and omegaconf 2.3 (antlr4 4.9 from Debian's python3-antlr4); the two
--ulysses-sequence-parallel-size cases were added with Debian's python3-omegaconf 2.2.2, which gives the first four
cases byte for byte as before.
What runs as verl's code (exec'd from the checkout's files): verl/utils/config.py validate_config,
verl/workers/config/actor.py ActorConfig / FSDPActorConfig (__post_init__ and validate) over
verl/base_config.py BaseConfig, on verl/trainer/config/_generated_ppo_trainer.yaml (every default)
merged with the emitted keys. Stand-ins, because importing verl needs ray, tensordict and hydra:
omega_conf_to_dataclass (hydra.instantiate) builds FSDPActorConfig from the config's scalar fields;
the nested config classes it holds (checkpoint, profiler, engine, optimizer, model) are empty.
Each case also runs with ppo_mini_batch_size left at verl's default, as the emitter did before.
"""
import ast, json, sys, os, dataclasses, collections
from dataclasses import dataclass, field, fields, is_dataclass, FrozenInstanceError
from typing import Any, Optional
from omegaconf import OmegaConf, DictConfig, ListConfig, MISSING
checkout = sys.argv[1]
def src(path, names=None, cls_names=None, g=None):
    tree = ast.parse(open(os.path.join(checkout, path)).read())
    keep = [n for n in tree.body
            if (isinstance(n, ast.FunctionDef) and names and n.name in names) or (isinstance(n, ast.ClassDef) and cls_names and n.name in cls_names)]
    exec(compile(ast.Module(body=keep, type_ignores=[]), path, "exec"), g)
    return g
g = {"collections": collections, "dataclass": dataclass, "field": field, "fields": fields, "FrozenInstanceError": FrozenInstanceError,
     "Any": Any, "Optional": Optional, "MISSING": MISSING, "__name__": "verl_exec"}
src("verl/base_config.py", cls_names=["BaseConfig"], g=g)
for stub in ["CheckpointConfig", "ProfilerConfig", "FSDPEngineConfig", "McoreEngineConfig", "HFModelConfig", "OptimizerConfig"]:
    g[stub] = dataclass(type(stub, (g["BaseConfig"],), {}))
src("verl/workers/config/actor.py", cls_names=["RouterReplayConfig", "PolicyLossConfig", "ActorConfig", "FSDPActorConfig"], g=g)
FSDPActorConfig = g["FSDPActorConfig"]
names = {f.name for f in fields(FSDPActorConfig)}
def omega_conf_to_dataclass(cfg):  # stand-in for hydra.instantiate(_target_=FSDPActorConfig): the scalar fields
    d = OmegaConf.to_container(cfg, resolve=True)
    return FSDPActorConfig(**{k: v for k, v in d.items() if k in names and not isinstance(v, dict) and k != "_target_"})
v = {"DictConfig": DictConfig, "ListConfig": ListConfig, "OmegaConf": OmegaConf, "is_dataclass": is_dataclass, "Optional": Optional,
     "Any": Any, "__name__": "verl_exec"}
src("verl/utils/config.py", names=["validate_config"], g=v)
v["omega_conf_to_dataclass"] = omega_conf_to_dataclass
base = OmegaConf.load(os.path.join(checkout, "verl/trainer/config/_generated_ppo_trainer.yaml"))
def check(values):
    dot = [f"{x['key']}={x['value'] if not isinstance(x['value'], bool) else str(x['value']).lower()}" for x in values]
    cfg = OmegaConf.merge(base, OmegaConf.from_dotlist(dot))
    use_ref = cfg.actor_rollout_ref.actor.use_kl_loss or cfg.algorithm.use_kl_in_reward
    try:
        v["validate_config"](cfg, use_reference_policy=use_ref, use_critic=cfg.algorithm.adv_estimator == "gae")
        return "ok"
    except (AssertionError, ValueError) as ex:
        return f"{type(ex).__name__}: {ex}"


import subprocess
commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip() or os.environ.get("VERL_COMMIT", "unknown")
cases = []
for path in sys.argv[3:]:
    case = json.load(open(path))
    values = case["emitted"]["values"]
    without_mini = [x for x in values if not x["key"].endswith("actor.ppo_mini_batch_size")]
    cases.append({"args": case["args"], "values": values, "result": check(values), "withoutMiniBatch": check(without_mini)})
with open(sys.argv[2], "w") as f:
    json.dump({"source": {"verl": commit, "files": ["verl/utils/config.py", "verl/workers/config/actor.py", "verl/base_config.py",
               "verl/trainer/config/_generated_ppo_trainer.yaml"]}, "cases": cases}, f, indent=1)
    f.write("\n")
print(f"wrote {sys.argv[2]}: {[c['result'] for c in cases]}")

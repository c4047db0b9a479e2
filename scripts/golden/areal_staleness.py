"""Writes test/fixtures/golden-areal-staleness.json: AReaL's StalenessManager on scripted event traces.

    /work/golden-venv/bin/python scripts/golden/areal_staleness.py /work/checkouts/areal [out.json]

Made with inclusionAI/AReaL 4aef98d8d818af55b43621aaadba047ae10f4e77 (recorded in the fixture).
What runs as AReaL's code: areal/infra/staleness_manager.py StalenessManager (the whole class) and
areal/api/io_struct.py RolloutStat, exec'd from the checkout; the version provider is a stand-in holding an int.
Each trace is a seeded random sequence of enqueue / submit / accept / reject / version (set_version) / recover
(on_version_recovered) events; after every event the fixture records get_capacity(), get_pending_limit() and the stats.
Transcribed: nothing.
"""
import json
import os
import random
import sys
import threading
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import areal_exec  # noqa: E402


def main():
    checkout = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-areal-staleness.json")
    io = areal_exec.exec_file(f"{checkout}/areal/api/io_struct.py", names=["RolloutStat"])
    sm = areal_exec.exec_file(f"{checkout}/areal/infra/staleness_manager.py", names=["VersionProvider", "StalenessManager"],
                              extra={"Lock": threading.Lock, "RolloutStat": io["RolloutStat"], "Protocol": object})
    traces = []
    for seed in range(20):
        rng = random.Random(seed)
        cfg = {"maxConcurrentRollouts": rng.choice([0, 1, 4, 8, 16, 64]), "consumerBatchSize": rng.choice([0, 1, 4, 8, 16]),
               "maxStaleness": rng.choice([0, 1, 2, 4])}
        provider = types.SimpleNamespace(version=0)
        provider.get_version = lambda p=provider: p.version
        m = sm["StalenessManager"](provider, cfg["maxConcurrentRollouts"], cfg["consumerBatchSize"], cfg["maxStaleness"])
        events = []
        for _ in range(50):
            kind = rng.choices(["enqueue", "submit", "accept", "reject", "version", "recover"], [6, 6, 5, 1, 1, 0.2])[0]
            ev = {"event": kind}
            if kind == "enqueue":
                m.on_rollout_enqueued()
            elif kind == "submit":
                m.on_rollout_submitted()
            elif kind == "accept":
                m.on_rollout_accepted()
            elif kind == "reject":
                m.on_rollout_rejected()
            elif kind == "version":
                provider.version += 1
                ev["version"] = provider.version
            else:
                provider.version = rng.randint(0, 6)
                ev["version"] = provider.version
                m.on_version_recovered(provider.version)
            st = m.get_stats()
            ev.update(capacity=m.get_capacity(), pendingLimit=m.get_pending_limit(),
                      stats={"accepted": st.accepted, "enqueued": st.enqueued, "rejected": st.rejected, "running": st.running})
            events.append(ev)
        traces.append({**cfg, "events": events})
    fixture = {
        "source": "AReaL's StalenessManager and RolloutStat exec'd from the checkout on seeded event traces "
                  "(scripts/golden/areal_staleness.py); transcribed: nothing",
        "commit": areal_exec.commit_of(checkout), **areal_exec.versions(), "traces": traces,
    }
    with open(out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
    print(out, len(traces), "traces", os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()

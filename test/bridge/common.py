"""Makes the probe importable for the scripts of test/bridge (it is the file a user copies next to their script)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "probe"))
from grpo_sandbox_probe import Probe  # noqa: E402

__all__ = ["Probe"]

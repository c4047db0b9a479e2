// The flow_grpo commit a probe log names, against the range the sandbox's flow-grpo sampler models.
import { COMMIT, sameCommit, type VersionRule } from '../../bridge/version-types.ts';
import { FLOW_GRPO_VERSION } from '../../samplers/framework-errors.ts';

export const versionRule: VersionRule = {
  probeName: 'flow_grpo',
  check(version, logged, unknown) {
    const name = this.probeName;
    // The modelled version is a range (every commit before 74db691), which a commit alone cannot be placed in:
    // the note says so rather than claim a match; only 74db691 itself is known to be outside it.
    const rewrite = COMMIT.exec(FLOW_GRPO_VERSION)![0].toLowerCase();
    const commit = COMMIT.exec(version)?.[0].toLowerCase();
    const models = `the sandbox's flow-grpo sampler models ${FLOW_GRPO_VERSION}`;
    const verdict = unknown
      ? ''
      : commit && sameCommit(commit, rewrite)
        ? `, and that commit has the rewritten lcm sampler (flow_grpo/sampler.py): diff with --sampler flow-grpo-lcm`
        : `: check that this checkout's scripts/train_sd3.py defines DistributedKRepeatSampler itself ` +
          `(if it imports flow_grpo/sampler.py's, diff with --sampler flow-grpo-lcm)`;
    return {
      name,
      version,
      modelled: FLOW_GRPO_VERSION,
      note: `framework_version: ${logged('which flow_grpo commit it ran')}; ${models}${verdict}`,
    };
  },
};

// The DanceGRPO commit a probe log names, against the commit the sandbox's dance-grpo sampler models.
import { COMMIT, sameCommit, type VersionRule } from '../../bridge/version-types.ts';
import { DANCE_GRPO_VERSION } from '../../samplers/framework-errors.ts';

export const versionRule: VersionRule = {
  probeName: 'DanceGRPO',
  check(version, logged) {
    const name = this.probeName;
    // A checkout, no __version__: the user passes its commit; any abbreviation of the modelled commit matches.
    const modelled = COMMIT.exec(DANCE_GRPO_VERSION)![0].toLowerCase();
    const commit = COMMIT.exec(version)?.[0].toLowerCase();
    if (commit && sameCommit(commit, modelled)) return { name, version, modelled: DANCE_GRPO_VERSION };
    return {
      name,
      version,
      modelled: DANCE_GRPO_VERSION,
      note: `framework_version: ${logged('which DanceGRPO commit it ran')}; the sandbox's dance-grpo sampler models ${DANCE_GRPO_VERSION}`,
    };
  },
};

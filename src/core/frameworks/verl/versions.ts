// The verl commit a probe log names, against the commit the sandbox's verl sampler models.
import { COMMIT, sameCommit, type VersionRule } from '../../bridge/version-types.ts';
import { VERL_VERSION } from '../../samplers/framework-errors.ts';

export const versionRule: VersionRule = {
  probeName: 'verl',
  check(version, logged) {
    const name = this.probeName;
    // verl has __version__, but the data path changes between commits: the user passes the commit.
    const modelled = COMMIT.exec(VERL_VERSION)![0].toLowerCase();
    const commit = COMMIT.exec(version)?.[0].toLowerCase();
    if (commit && sameCommit(commit, modelled)) return { name, version, modelled: VERL_VERSION };
    return {
      name,
      version,
      modelled: VERL_VERSION,
      note: `framework_version: ${logged('which verl commit it ran')}; the sandbox's verl sampler models ${VERL_VERSION}`,
    };
  },
};

// The TRL version a probe log names, against the release the sandbox's trl sampler models.
import type { VersionRule } from '../../bridge/version-types.ts';
import { TRL_VERSION } from '../../samplers/framework-errors.ts';

export const versionRule: VersionRule = {
  probeName: 'trl',
  check(version, logged) {
    const name = this.probeName;
    // TRL has __version__ and the probe reads it: an exact release, compared as such.
    if (version === TRL_VERSION) return { name, version, modelled: TRL_VERSION };
    return {
      name,
      version,
      modelled: TRL_VERSION,
      note: `framework_version: ${logged("TRL's version")}; the sandbox's trl sampler models TRL ${TRL_VERSION}`,
    };
  },
};

// The framework version a probe log names, against the version the sandbox's sampler for that
// framework was read from: `diff` prints a note when they differ, because another version may lay
// data out differently and the diff would then blame the run. Each framework's reading is declared
// in its home (src/core/frameworks/<name>/versions.ts); this registry reads them from the sampler homes'
// list (a home without one says why) and finds one by the probe's name.
import { SAMPLER_HOMES } from '../frameworks/sampler-homes.ts';
import type { VersionCheck, VersionRule } from './version-types.ts';

export type { VersionCheck } from './version-types.ts';

const RULES: readonly VersionRule[] = SAMPLER_HOMES.flatMap((home) => ('absent' in home.versionRule ? [] : [home.versionRule]));

export function versionNote(name: string, version: string): VersionCheck {
  const unknown = version.trim() === '' || version === 'unknown';
  const logged = (what: string) =>
    unknown ? `the run did not log ${what} (pass version= to the probe)` : `the run logged ${name} ${JSON.stringify(version)}`;
  const rule = RULES.find((r) => r.probeName === name);
  return rule ? rule.check(version, logged, unknown) : { name, version, modelled: null };
}

// The framework version a probe log names, against the version the sandbox's sampler for that
// framework was read from: `diff` prints a note when they differ, because another version may lay
// data out differently and the diff would then blame the run. Each framework's reading is declared
// in its home (src/core/frameworks/<name>/versions.ts); this registry finds it by the probe's name.
import { versionRule as danceGrpo } from '../frameworks/dance-grpo/versions.ts';
import { versionRule as flowGrpo } from '../frameworks/flow-grpo/versions.ts';
import { versionRule as trl } from '../frameworks/trl/versions.ts';
import { versionRule as verl } from '../frameworks/verl/versions.ts';
import type { VersionCheck } from './version-types.ts';

export type { VersionCheck } from './version-types.ts';

const RULES = [trl, verl, danceGrpo, flowGrpo];

export function versionNote(name: string, version: string): VersionCheck {
  const unknown = version.trim() === '' || version === 'unknown';
  const logged = (what: string) =>
    unknown ? `the run did not log ${what} (pass version= to the probe)` : `the run logged ${name} ${JSON.stringify(version)}`;
  const rule = RULES.find((r) => r.probeName === name);
  return rule ? rule.check(version, logged, unknown) : { name, version, modelled: null };
}

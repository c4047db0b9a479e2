// The framework and version a probe log names, against the framework home the prediction is built from
// (src/core/frameworks/<name>/, pinned to one commit): `diff --sampler HOME` prints a note when the run
// logged another framework, no version, or a version that is not the pinned commit, because another
// version may lay data out differently and the diff would then blame the run.
import type { FrameworkHome } from '../frameworks/types.ts';
import { COMMIT, sameCommit, type VersionCheck } from './version-types.ts';
import { homeOfFramework } from './probe-log.ts';

/** The modelled version, as a note names it: 'NVIDIA-NeMo/RL @ 7ea279a (2026-08-22)'. */
export const homePinned = (home: FrameworkHome) => `${home.pinned.repo} @ ${home.pinned.commit.slice(0, 7)} (${home.pinned.date})`;

/** The logged framework against `home`: a note when it is another framework. */
export function homeFrameworkNote(home: FrameworkHome, framework: string): string | undefined {
  if (homeOfFramework(framework) === home) return undefined;
  return `framework: the run logged ${JSON.stringify(framework)}, the prediction is ${home.title}'s (--sampler ${home.name})`;
}

/** The logged version against the home's pinned commit: a note unless the run logged that commit. */
export function homeVersionNote(home: FrameworkHome, framework: string, version: string): VersionCheck {
  const modelled = homePinned(home);
  const unknown = version.trim() === '' || version === 'unknown';
  const commit = COMMIT.exec(version)?.[0].toLowerCase();
  if (!unknown && commit && sameCommit(commit, home.pinned.commit.toLowerCase())) return { name: framework, version, modelled };
  const logged = unknown
    ? `the run did not log which ${home.title} commit it ran (pass version= to the probe)`
    : `the run logged ${framework} ${JSON.stringify(version)}`;
  return {
    name: framework,
    version,
    modelled,
    note: `framework_version: ${logged}; the sandbox's ${home.name} home models ${modelled}, and another version may lay data out differently`,
  };
}

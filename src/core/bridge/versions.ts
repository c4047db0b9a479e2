// The framework version a probe log names, against the version the sandbox's sampler for that
// framework was read from (src/core/samplers/framework-errors.ts): `diff` prints a note when they
// differ, because another version may lay data out differently and the diff would then blame the run.
import { DANCE_GRPO_VERSION, FLOW_GRPO_VERSION, TRL_VERSION, VERL_VERSION } from '../samplers/framework-errors.ts';

export interface VersionCheck {
  /** The framework as the probe names it (trl, flow_grpo, DanceGRPO). */
  name: string;
  /** The version the run logged. */
  version: string;
  /** The version the sandbox models for that framework; null for a framework it has no sampler for. */
  modelled: string | null;
  /** One sentence when the logged version is not (or cannot be shown to be) the modelled one. */
  note?: string;
}

/** A git commit as people write it: 7 to 40 hex digits. */
const COMMIT = /\b[0-9a-f]{7,40}\b/i;

const sameCommit = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);

export function versionNote(name: string, version: string): VersionCheck {
  const unknown = version.trim() === '' || version === 'unknown';
  const logged = (what: string) =>
    unknown ? `the run did not log ${what} (pass version= to the probe)` : `the run logged ${name} ${JSON.stringify(version)}`;
  if (name === 'trl') {
    // TRL has __version__ and the probe reads it: an exact release, compared as such.
    if (version === TRL_VERSION) return { name, version, modelled: TRL_VERSION };
    return {
      name,
      version,
      modelled: TRL_VERSION,
      note: `framework_version: ${logged("TRL's version")}; the sandbox's trl sampler models TRL ${TRL_VERSION}`,
    };
  }
  if (name === 'verl') {
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
  }
  if (name === 'DanceGRPO') {
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
  }
  if (name === 'flow_grpo') {
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
  }
  return { name, version, modelled: null };
}

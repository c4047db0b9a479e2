// What a framework home declares about the version a probe log names (src/core/frameworks/<name>/versions.ts):
// how it reads the logged version and compares it with the one the sandbox models. The registry
// (versions.ts) lists the homes' rules; a home imports this file, never the registry.

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

/** One framework's reading of a logged version. */
export interface VersionRule {
  /** The framework's name as the probe logs it (trl, flow_grpo, DanceGRPO). */
  probeName: string;
  /** The check of `version` as this run logged it; `logged(what)` says what the run logged, or that it did not log `what`. */
  check(version: string, logged: (what: string) => string, unknown: boolean): VersionCheck;
}

/** A git commit as people write it: 7 to 40 hex digits. */
export const COMMIT = /\b[0-9a-f]{7,40}\b/i;

export const sameCommit = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);

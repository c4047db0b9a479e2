// Compares a real run's logged layout (probe-log.ts) with a framework home's prediction
// (src/core/frameworks/<name>/: `layout --sampler NAME`'s steps[i].ranks[r]) by the comparison and
// diagnosis diff.ts uses for the sandbox's samplers, in the home's words.
import { ConfigError } from '../errors.ts';
import type { FrameworkHome, FrameworkLayout, FrameworkSettings } from '../frameworks/types.ts';
import { compareSteps, type DiagnosisWords, type Divergence, loggedRanks, loggedSteps } from './diff.ts';
import { homeFrameworkNote, homeVersionNote } from './home-version.ts';
import type { ProbeLog } from './probe-log.ts';

/** The settings the prediction was read from (`layout --sampler NAME`'s reader: defaults, --config or --preset, flags). */
export interface HomePrediction {
  settings: FrameworkSettings;
  /** `--config FILE`'s path, or `--preset NAME (source)`: where the settings came from besides flags and defaults. */
  config?: string;
  /** The home's shipped example `--preset` named, if any. */
  preset?: string;
}

export interface HomeDiffResult {
  identical: boolean;
  /** The home the prediction is built from (`--sampler NAME`). */
  sampler: string;
  preset: string | null;
  /** Where the settings came from besides flags and defaults (--config's path, a preset's source); null: neither. */
  config: string | null;
  settings: FrameworkSettings;
  steps: number;
  /** Ranks the run logged. */
  ranks: number;
  matchingSteps: number;
  first?: Divergence;
  diagnosis?: string;
  /** Settings the run logged whose value differs from the prediction's, one sentence each. */
  settingsDiffer: string[];
  /** The framework and version the run logged, and the commit the home models. */
  framework: { name: string; version: string; modelled: string };
  /** Set when the logged version is not (or may not be) the modelled one. */
  versionNote?: string;
  /** Every note, as the text report prints them: settingsDiffer, the framework, then versionNote. */
  notes: string[];
}

/** A home's words for a diagnosis: its loader has no look-ahead lag to diagnose; its dispatch is its own. */
function homeWords(home: FrameworkHome): DiagnosisWords {
  const at = `${home.title} ${home.pinned.commit.slice(0, 7)}`;
  return {
    repeats: `the run's loader hands out the same batch again (a loader or sampler that is not advanced between steps)`,
    epochRepeats: `each epoch replays epoch 0's order, where ${at} with these settings draws another one (a loader rebuilt with the same seed each epoch?)`,
    loader: null,
    placement:
      `a different dispatch to the data-parallel ranks than ${at}'s (rank order, chunking, balancing), ` +
      `or other token counts (--seqlens) where its dispatch balances them`,
    drift: `the run's loop differs from ${at}'s there (a different version, or a setting the prediction does not have: give the run's --config)`,
  };
}

/**
 * Compares every logged (step, rank) with `layout` (the home's steps for `prediction.settings`); throws ConfigError for a
 * rank missing at some step, or a log with more steps than the settings give.
 */
export function diffHomeLog(log: ProbeLog, home: FrameworkHome, prediction: HomePrediction, layout: FrameworkLayout): HomeDiffResult {
  const W = loggedRanks(log);
  const found = loggedSteps(log, W);
  if (found.length > layout.steps.length) {
    throw new ConfigError(
      `the log has ${found.length} steps (0 … ${log.lastStep}) but ${home.title} with these settings trains ${layout.steps.length}: ` +
        `give the run's own config (--config FILE) or its epochs and step limits`,
    );
  }
  const expected = found.map((_, s) => layout.steps[s]!.ranks);
  const places = found.map((_, s) => ({ epoch: layout.steps[s]!.epoch, stepInEpoch: layout.steps[s]!.step }));
  const compared = compareSteps(expected, found, places, homeWords(home));
  const settingsDiffer: string[] = [];
  // A home log's settings are the home's own; another framework's log says nothing about them.
  const logged = log.header.home === home.name ? (log.header.homeSettings ?? {}) : {};
  for (const [flag, value] of Object.entries(logged)) {
    const predicted = prediction.settings[flag];
    if (predicted === value) continue;
    const key = home.keys.find((k) => k.flag === flag)!.key;
    settingsDiffer.push(`${flag}${key === flag ? '' : ` (${key})`}: the run read ${value}, the prediction uses ${predicted}`);
  }
  const frameworkNote = homeFrameworkNote(home, log.header.framework);
  const { name, version, modelled, note } = homeVersionNote(home, log.header.framework, log.header.frameworkVersion);
  const result: HomeDiffResult = {
    identical: !compared.first,
    sampler: home.name,
    preset: prediction.preset ?? null,
    config: prediction.config ?? null,
    settings: prediction.settings,
    steps: found.length,
    ranks: W,
    matchingSteps: compared.matchingSteps,
    settingsDiffer,
    framework: { name, version, modelled: modelled! },
    notes: [...settingsDiffer, ...(frameworkNote ? [frameworkNote] : []), ...(note ? [note] : [])],
  };
  if (note) result.versionNote = note;
  if (compared.first) {
    result.first = compared.first;
    result.diagnosis = compared.diagnosis;
  }
  return result;
}

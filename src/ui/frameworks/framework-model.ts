// What <grpo-framework> draws, read from the core (no DOM): the framework its attributes name (a home of
// the registry), its settings read by the CLI's one reader (src/core/frameworks/reading.ts) from the
// attributes (named like the CLI's flags), a shipped preset or a pasted config, then the layout's steps
// from `step` on, one step's micro-batches where the framework packs, the budget they are packed under,
// and where the copies of one prompt sit.
import { ConfigError } from '../../core/errors.ts';
import { packingBudget, type TokenBudget } from '../../core/frameworks/budget.ts';
import { FRAMEWORK_HOMES, frameworkHome } from '../../core/frameworks/index.ts';
import { activePacker, packedStep } from '../../core/frameworks/packed.ts';
import { type FrameworkSettingsReading, frameworkSettingsFrom } from '../../core/frameworks/reading.ts';
import type { FrameworkHome, FrameworkLayout, FrameworkStep, PackedStep, PackerDef } from '../../core/frameworks/types.ts';
import { type ConfigParsers, pastedConfig } from './config-text.ts';

/** The page's own attributes, beside every framework's flags. */
export const VIEW_KEYS = ['framework', 'preset', 'step', 'prompt'] as const;

/** Every attribute the element reads: its own, then each home's flags (a flag two homes share is listed once). */
export const FRAMEWORK_ATTRIBUTES: readonly string[] = [
  ...new Set([...VIEW_KEYS, ...FRAMEWORK_HOMES.flatMap((h) => h.keys.map((k) => k.flag))]),
];

/** Steps the layout figure shows side by side. */
export const SHOWN_STEPS = 4;

/** The name the reader gives pasted text in its messages ("pasted config is not valid YAML: …"). */
export const PASTED = 'pasted config';

export interface FrameworkRequest {
  home: FrameworkHome;
  reading: FrameworkSettingsReading;
  /** The `defaults:` parent files a pasted NeMo RL config names, which the page does not read. */
  parents: string[];
}

/** The home an attribute names (the registry's first without one). */
export function homeOf(name: string | null | undefined): FrameworkHome {
  if (!name) return FRAMEWORK_HOMES[0]!;
  const home = frameworkHome(name);
  if (!home) throw new ConfigError(`--framework ${name} has no home; the frameworks are ${FRAMEWORK_HOMES.map((h) => h.name).join(', ')}`);
  return home;
}

/** The settings the attributes and the pasted text (null: none; read with the parsers) ask for; a ConfigError in the framework's words. */
export function frameworkRequest(
  attrs: Record<string, string | null | undefined>,
  pasted: { text: string; parsers: ConfigParsers } | null,
): FrameworkRequest {
  const home = homeOf(attrs.framework);
  const values: Record<string, unknown> = {};
  if (attrs.preset) values.preset = attrs.preset;
  const paste = pasted ? pastedConfig(pasted.text, pasted.parsers) : { read: () => ({}), parents: [] };
  if (pasted !== null) values.config = PASTED;
  for (const k of home.keys) {
    const v = attrs[k.flag];
    if (v !== null && v !== undefined) values[k.flag] = v;
  }
  const reading = frameworkSettingsFrom(home, values, paste.read);
  return { home, reading, parents: paste.parents };
}

/** Where one prompt's copies sit in one step: each rank holding any, with how many. */
export interface CopiesAt {
  step: number;
  total: number;
  ranks: { rank: number; copies: number }[];
}

/** prompt's copies in each of `steps` that has any (a rank's samples counted whether or not the figure shows them all). */
export function copiesOf(steps: readonly FrameworkStep[], first: number, prompt: number): CopiesAt[] {
  const out: CopiesAt[] = [];
  steps.forEach((s, i) => {
    const ranks = s.ranks.map((ids, rank) => ({ rank, copies: ids.filter((id) => id === prompt).length })).filter((r) => r.copies > 0);
    if (ranks.length) out.push({ step: first + i, total: ranks.reduce((a, r) => a + r.copies, 0), ranks });
  });
  return out;
}

/** The prompt id of each sample of a step (generation order), where a rank trains on it. */
export function promptOfSample(step: FrameworkStep): Map<number, number> {
  const out = new Map<number, number>();
  step.sources.forEach((src, r) => src.forEach((i, j) => out.set(i, step.ranks[r]![j]!)));
  return out;
}

export interface FrameworkPicture {
  layout: FrameworkLayout;
  /** Index of the first step shown. */
  first: number;
  /** The steps shown (at most SHOWN_STEPS from `first`). */
  steps: FrameworkStep[];
  /** The framework's packer where these settings pack by it, else null. */
  packer: PackerDef | null;
  /** Step `first`'s micro-batches per rank (null: no packer, or the step has no token counts). */
  packed: PackedStep | null;
  budget: TokenBudget | null;
}

/** The picture of a request from step `first` on (clamped to the run). */
export function frameworkPicture(request: FrameworkRequest, first: number): FrameworkPicture {
  const { home, reading } = request;
  const layout = home.layout(reading.settings);
  if (layout.steps.length === 0)
    throw new ConfigError(`${home.title} trains no step with these settings; give more prompts (--dataset-size) or fewer per step`);
  const at = Math.max(0, Math.min(layout.steps.length - 1, Number.isSafeInteger(first) ? first : 0));
  const steps = layout.steps.slice(at, at + SHOWN_STEPS);
  const packer = activePacker(home, reading.settings);
  const packed = packedStep(home, steps[0]!, reading.settings);
  return {
    layout,
    first: at,
    steps,
    packer,
    packed,
    budget: packed ? packingBudget(home, reading.settings, steps[0]!.seqlens ?? []) : null,
  };
}

/** The framework's switches that turn its packing on or off: its boolean keys among those its packer reads. */
export function packingSwitches(home: FrameworkHome) {
  const packing = home.packing;
  if ('absent' in packing) return [];
  return home.keys.filter((k) => k.kind === 'bool' && packing.flags.includes(k.flag));
}

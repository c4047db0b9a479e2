// Everything the explorer shows lives in the URL (as in TensorFlow Playground), so any view
// is a link: the configuration, the phase of the story, the regrouping, the reward source,
// the selected prompt, plus `embed` and per-control `<name>_hide=true` flags for course pages.
import type { LayoutConfig, RegroupMethod } from '../core/layout/types.ts';
import type { RewardSource } from '../core/grpo/toy-rewards.ts';
import type { ScaleRewards } from '../core/grpo/advantages.ts';
import { frameworkDefaults } from '../core/grpo/framework-defaults.ts';
import { layoutSettingsFrom, paramGetter } from '../core/samplers/settings.ts';
import { LAYOUT_SETTINGS } from '../core/settings.ts';
import { phaseIds, type PhaseId } from './story.ts';
import { lang, M } from './i18n/index.ts';
import { PROJECTOR_ZOOMS } from './projector.ts';
import type { Where } from './i18n/en.ts';

/** The explorer's whole state; `config` may be invalid (the UI then shows the core's error). */
export interface ExplorerState {
  config: LayoutConfig;
  /** The preset the configuration came from, if it still equals it (without `preset=`: the preset it equals, if any). */
  preset: string | null;
  phase: PhaseId;
  /** Index into the layout's gathers (which all-gather the story follows). */
  gather: number;
  regroup: RegroupMethod;
  /** Predict, then reveal: a question before the scatter moves the tiles. */
  quiz: boolean;
  /** A second regrouping of the same draws shown side by side, or null. */
  compare: RegroupMethod | null;
  rewards: RewardSource;
  scale: ScaleRewards;
  /** Animation speed factor (1 = normal). */
  speed: number;
  /** Projector mode (`zoom=`): the whole page at this many times its size (projector.ts; 1 = normal). */
  zoom: number;
  /** The highlighted prompt id, or null. */
  prompt: number | null;
  embed: boolean;
  /** Controls hidden with `<name>_hide=true`. */
  hidden: ReadonlySet<string>;
  /** What in the link could not be read, and what is shown instead (never written back to the URL). */
  notices: string[];
}

/** URL parameter name of each config field (from the settings table, src/core/settings.ts). */
export const configParams = Object.fromEntries(LAYOUT_SETTINGS.map((s) => [s.field, s.param])) as Record<keyof LayoutConfig, string>;

/** Names accepted in `<name>_hide=true`: every config param plus these parts of the page. */
export const hideableParts = [
  'presets',
  'stats',
  'copies',
  'controls',
  'caption',
  'regroup',
  'compare',
  'rewards',
  'scale',
  'speed',
  'gather',
] as const;

export const regroupMethods: readonly RegroupMethod[] = ['prompt-id', 'view', 'uid', 'local'];
export const rewardSources: readonly RewardSource[] = ['random', 'model'];
export const scaleOptions: readonly ScaleRewards[] = ['group', 'batch', 'none'];
export const speeds = [0.25, 0.5, 1, 2, 4] as const;
/** The page scales `zoom=` takes (projector mode, projector.ts; the header's projector button toggles 1 and 2). */
export const zooms = PROJECTOR_ZOOMS;

/** `value` when it is one of `allowed`; otherwise `fallback`, with a notice when the link gave something else. */
function pick<T extends string>(
  value: string | null,
  allowed: readonly T[],
  fallback: T,
  param: string,
  notices: string[],
  where: Where,
): T {
  if (value === null) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  notices.push(M().notices.notOneOf(where, param, value, allowed.join(', '), fallback));
  return fallback;
}

function num(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** The preset whose settings all equal `config` (a link with no `preset=`, such as `/`, still says it shows seed-000). */
function presetEqualTo(config: LayoutConfig, presets: Record<string, { config: LayoutConfig }>): string | null {
  const same = (c: LayoutConfig) => LAYOUT_SETTINGS.every(({ field }) => c[field] === config[field]);
  return Object.keys(presets).find((name) => same(presets[name]!.config)) ?? null;
}

/**
 * Reads a state from a query string. `presets` resolves `preset=`; explicit settings
 * override the preset's. Unknown or malformed values fall back to defaults, each with a
 * notice saying so (a number that is out of range is kept, so the UI can show the core's
 * error about it).
 */
export function parseState(
  search: string,
  defaults: LayoutConfig,
  presets: Record<string, { config: LayoutConfig }>,
  where: Where = 'link',
): ExplorerState {
  const p = new URLSearchParams(search);
  const notices: string[] = [];
  // The layout's one reader (the CLI's and every element's), reading a link: what does not read is a notice.
  const { config, preset } = layoutSettingsFrom(
    paramGetter((key) => p.get(key)),
    {
      defaults,
      presets,
      link: {
        unreadable: (s, raw, kept) =>
          notices.push(
            s.kind === 'bool'
              ? M().notices.notOneOf(where, s.param, raw, 'true, false', String(kept))
              : M().notices.notNumber(where, s.param, raw, String(kept)),
          ),
        unknownPreset: (name) => notices.push(M().notices.notPreset(where, name, Object.keys(presets).join(', '))),
      },
    },
  );
  const presetName = p.get('preset');
  const base = preset !== undefined ? presets[preset]!.config : null;
  const overridden = base !== null && LAYOUT_SETTINGS.some(({ field }) => config[field] !== base[field]);
  const hidden = new Set<string>();
  for (const [key, value] of p) if (key.endsWith('_hide') && value !== 'false') hidden.add(key.slice(0, -'_hide'.length));
  const speed = num(p.get('speed'));
  const speedOk = speed !== null && speed > 0 && speed <= 8;
  if (p.get('speed') !== null && !speedOk) notices.push(M().notices.speed(where, p.get('speed')!));
  const zoom = num(p.get('zoom'));
  const zoomOk = zoom !== null && (zooms as readonly number[]).includes(zoom);
  if (p.get('zoom') !== null && !zoomOk) notices.push(M().notices.zoom(where, p.get('zoom')!, zooms.join(', ')));
  const prompt = num(p.get('prompt'));
  const promptOk = prompt !== null && Number.isInteger(prompt) && prompt >= 0;
  if (p.get('prompt') !== null && !promptOk) notices.push(M().notices.prompt(where, p.get('prompt')!));
  const gather = num(p.get('gather'));
  const gatherOk = gather !== null && Number.isInteger(gather) && gather >= 0;
  if (p.get('gather') !== null && !gatherOk) notices.push(M().notices.gather(where, p.get('gather')!));
  return {
    config,
    preset: presetName !== null ? (base !== null && !overridden ? presetName : null) : presetEqualTo(config, presets),
    phase: pick(p.get('phase'), phaseIds, 'sample', 'phase', notices, where),
    gather: gatherOk ? gather : 0,
    // Without a choice in the link, the regrouping is the one the sampler's framework uses.
    regroup: pick(p.get('regroup'), regroupMethods, frameworkDefaults[config.sampler]?.regroup ?? 'prompt-id', 'regroup', notices, where),
    quiz: p.has('quiz') && p.get('quiz') !== '0' && p.get('quiz') !== 'false',
    compare: p.get('compare') === null ? null : pick(p.get('compare'), regroupMethods, 'view', 'compare', notices, where),
    rewards: pick(p.get('rewards'), rewardSources, 'random', 'rewards', notices, where),
    scale: pick(p.get('scale'), scaleOptions, 'group', 'scale', notices, where),
    speed: speedOk ? speed : 1,
    zoom: zoomOk ? zoom : 1,
    prompt: promptOk ? prompt : null,
    embed: p.has('embed') && p.get('embed') !== '0' && p.get('embed') !== 'false',
    hidden,
    notices,
  };
}

/** Writes a state as a query string (without `?`): every setting, so the link is exact. */
export function stateToSearch(s: ExplorerState): string {
  const p = new URLSearchParams();
  if (s.preset) p.set('preset', s.preset);
  // A setting absent from the config (verl's, in a config saved before them) stays absent from the link.
  for (const { field, param } of LAYOUT_SETTINGS) if (s.config[field] !== undefined) p.set(param, String(s.config[field]));
  p.set('phase', s.phase);
  p.set('gather', String(s.gather));
  p.set('regroup', s.regroup);
  if (s.compare !== null) p.set('compare', s.compare);
  if (s.quiz) p.set('quiz', '1');
  p.set('rewards', s.rewards);
  p.set('scale', s.scale);
  p.set('speed', String(s.speed));
  if (s.zoom !== 1) p.set('zoom', String(s.zoom));
  if (s.prompt !== null) p.set('prompt', String(s.prompt));
  if (s.embed) p.set('embed', '1');
  for (const name of [...s.hidden].sort()) p.set(`${name}_hide`, 'true');
  // The page's language rides along (absent for English, so English links are as they were).
  if (lang() !== 'en') p.set('lang', lang());
  return p.toString();
}

// <grpo-dynamic>'s request: its attributes read by dynamic sampling's one parse function
// (src/core/dynamic/settings.ts), with what only the page adds: it tells seed-002's story unless
// told otherwise (the CLI's default is no preset), and its drawing budget. Pure: no DOM.
import { ConfigError } from '../../core/errors.ts';
import { DYNAMIC_SETTINGS, type DynamicRequest, dynamicSettingsFrom } from '../../core/dynamic/settings.ts';
import { attributeGetter } from '../setting-attributes.ts';

export type { DynamicRequest };

/** The element's settings: every row of dynamic sampling's table (the CLI's flags). */
export const DYNAMIC_ATTRIBUTES: readonly string[] = DYNAMIC_SETTINGS.map((s) => s.key);

/** What the page draws: every group a box, every sample a cell (the CLI allows 4096 samples a step). */
export const VIEW_LIMITS = { ranks: 16, samples: 1024 };

/** The page's preset when the attributes name none. */
export const VIEW_PRESET = 'seed-002';

export function dynamicRequest(attrs: Record<string, string | null | undefined>): DynamicRequest {
  const get = attributeGetter(attrs);
  const request = dynamicSettingsFrom((key) => (key === 'preset' ? (get(key) ?? VIEW_PRESET) : get(key)));
  const { config } = request;
  if (config.ranks > VIEW_LIMITS.ranks)
    throw new ConfigError(
      `ranks = ${config.ranks} is more rows than this view draws (${VIEW_LIMITS.ranks}); use \`grpo-sandbox dynamic\` in a terminal`,
    );
  if (config.ranks * config.perRank > VIEW_LIMITS.samples)
    throw new ConfigError(
      `ranks × per-rank must be at most ${VIEW_LIMITS.samples} samples in this view, ` +
        `got ${config.ranks} × ${config.perRank} = ${config.ranks * config.perRank}; ` +
        'use `grpo-sandbox dynamic` in a terminal for more',
    );
  return request;
}

// <grpo-schedule>'s request: its attributes read by the schedule's one parse function
// (src/core/schedule/settings.ts), then what only the page adds: its drawing budget and the policy
// it can have (uniform, or a trained run given to it; the CLI takes a path instead). Pure: no DOM.
import { ConfigError } from '../../core/errors.ts';
import { SCHEDULE_SETTINGS, scheduleSettingsFrom, type ScheduleSettings } from '../../core/schedule/settings.ts';
import { type ControllerPolicy, validateScheduleConfig } from '../../core/schedule/index.ts';
import { attributeGetter } from '../setting-attributes.ts';

/** The element's attributes: the preset and every setting of the schedule's table (the CLI's flags). */
export const SCHEDULE_ATTRIBUTES: readonly string[] = ['preset', ...SCHEDULE_SETTINGS.map((s) => s.key)];

/**
 * What the page draws without freezing: every interval is one SVG group, every rank one row.
 * (The CLI's budget is about memory and time of a process; the page's is about the DOM.)
 */
export const VIEW_LIMITS = { ranks: 256, configurations: 4096 };

export interface ScheduleRequest extends ScheduleSettings {
  /** The policy the page uses: uniform, or the trained run it was given. */
  policy: 'uniform' | 'trained';
}

/** The request the attributes make; `trained` is the policy read from a run the page was given, if any. */
export function scheduleRequest(attrs: Record<string, string | null | undefined>, trained: ControllerPolicy | null): ScheduleRequest {
  const s = scheduleSettingsFrom(attributeGetter(attrs));
  const { config } = s;
  if (config.ranks > VIEW_LIMITS.ranks)
    throw new ConfigError(
      `ranks = ${config.ranks} is more rows than this view draws (${VIEW_LIMITS.ranks}); use \`grpo-sandbox schedule\` in a terminal`,
    );
  if (config.batch * config.k > VIEW_LIMITS.configurations)
    throw new ConfigError(
      `batch × k = ${config.batch * config.k} configurations is more than this view draws (${VIEW_LIMITS.configurations}); ` +
        'lower batch or k, or use `grpo-sandbox schedule` in a terminal',
    );
  const given = s.policy?.trim();
  if (given !== undefined && given !== 'uniform' && given !== 'trained')
    throw new ConfigError(`policy must be uniform or trained (a checkpoint.json given to the page), got '${given}'`);
  const policy = given === 'trained' ? 'trained' : 'uniform';
  if (config.latency.kind === 'controller' && policy === 'trained') {
    if (trained === null)
      throw new ConfigError('policy trained needs a run of `grpo-sandbox train`: give its checkpoint.json and config.json');
    config.latency = { kind: 'controller', policy: trained };
  }
  validateScheduleConfig(config);
  return { ...s, policy };
}

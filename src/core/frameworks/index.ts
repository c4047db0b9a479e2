// The frameworks that have a home (src/core/frameworks/<name>/): one line each. The CLI's
// `--sampler` / `--framework` and `advantages --scheme` find them here and nowhere else.
import { home as areal } from './areal/index.ts';
import { home as easyr1 } from './easyr1/index.ts';
import { home as nemoRl } from './nemo-rl/index.ts';
import { home as openInstruct } from './open-instruct/index.ts';
import { home as openrlhf } from './openrlhf/index.ts';
import { home as primeRl } from './prime-rl/index.ts';
import { home as roll } from './roll/index.ts';
import { home as skyrl } from './skyrl/index.ts';
import { home as slime } from './slime/index.ts';
import { home as trlAsync } from './trl-async/index.ts';
import type { AdvantageDef, FrameworkHome } from './types.ts';

export const FRAMEWORK_HOMES: readonly FrameworkHome[] = [nemoRl, easyr1, skyrl, slime, areal, roll, openrlhf, openInstruct, primeRl];

/** Homes `steps --framework NAME` also reads: a trainer model without a config-file layout of their own elsewhere (explorer, diff). */
export const TRAINER_HOMES: readonly FrameworkHome[] = [trlAsync];

/** The home named `name` (its CLI name), if it has one. */
export function frameworkHome(name: string): FrameworkHome | undefined {
  return FRAMEWORK_HOMES.find((h) => h.name === name);
}

/** Every home with a trainer model, the nine and the trainer-only ones (`steps --framework NAME`, `train --framework NAME`). */
export const TRAINED_HOMES: readonly FrameworkHome[] = [...FRAMEWORK_HOMES, ...TRAINER_HOMES].filter((h) => h.trainer);

/** Every home's advantage schemes, each with the home it belongs to. */
export function homeAdvantageSchemes(): { home: FrameworkHome; def: AdvantageDef }[] {
  return FRAMEWORK_HOMES.flatMap((home) => home.advantages.map((def) => ({ home, def })));
}

export type * from './types.ts';

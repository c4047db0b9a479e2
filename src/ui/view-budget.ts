// What the explorer's page can hold and draw, checked by arithmetic before any layout is built:
// a link with giant numbers gets a sentence with the arithmetic and fixes, never a frozen or
// crashed tab. These are limits of the page (main-thread memory, canvas size, frame time), not
// of the training run: the CLI draws the same layouts up to the core's own limits.
import { ConfigError } from '../core/errors.ts';
import type { LayoutConfig } from '../core/layout/types.ts';
import { validateConfig } from '../core/samplers/index.ts';
import { layoutSize, type LayoutSize } from '../core/samplers/size.ts';

export const viewBudget = {
  /** Tiles of one gather drawn one by one (64 ranks × 32 × 8 steps = 16,384 stays smooth). */
  tiles: 20_000,
  /** Samples of the whole layout built and analysed on the page's main thread. */
  samples: 250_000,
  /** Rank rows of the scatter picture (at the smallest tile, 1,024 rows are 4,096 px tall). */
  ranks: 1_024,
};

// Not toLocaleString: its first call loads the locale data, a few hundred ms before the first picture on a slow machine.
const fmt = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Why a valid configuration is too big for the page, with its arithmetic; null when it fits. */
function overBudget(size: LayoutSize): string | null {
  if (size.ranks > viewBudget.ranks) return `${fmt(size.ranks)} ranks are more rows than the page draws (at most ${fmt(viewBudget.ranks)})`;
  if (size.samplesPerGather > viewBudget.tiles) {
    const perGather =
      `${fmt(size.ranks)} rank${size.ranks === 1 ? '' : 's'} × ${fmt(size.perRankPerStep)} samples per rank per step` +
      (size.stepsPerGather > 1 ? ` × ${fmt(size.stepsPerGather)} steps per gather` : '') +
      ` = ${fmt(size.samplesPerGather)} tiles in one gather`;
    return `${perGather}, more than the ${fmt(viewBudget.tiles)} tiles the page draws`;
  }
  if (size.samples > viewBudget.samples)
    return (
      `${fmt(size.gathers)} gathers × ${fmt(size.samplesPerGather)} = ${fmt(size.samples)} samples in the whole layout, more than the ` +
      `${fmt(viewBudget.samples)} the page builds`
    );
  return null;
}

/** Smaller values of the fields that set the size, each giving a valid configuration within budget. */
function fixes(config: LayoutConfig, size: LayoutSize): Record<string, number>[] {
  const out: Record<string, number>[] = [];
  const ratio = Math.min(viewBudget.tiles / size.samplesPerGather, viewBudget.samples / size.samples, viewBudget.ranks / size.ranks);
  for (const field of ['ranks', 'batch', 'batchesPerEpoch', 'epochs'] as const) {
    const v = config[field];
    const guess = Math.max(1, Math.floor(v * ratio));
    const candidates = new Set<number>();
    for (let d = 0; d < 24; d++) if (guess - d >= 1) candidates.add(guess - d);
    for (let p = 1; p <= v; p *= 2) candidates.add(p);
    for (const c of [...candidates].filter((c) => c < v).sort((a, b) => b - a)) {
      const candidate = { ...config, [field]: c };
      if (validateConfig(candidate) === null && overBudget(layoutSize(candidate)) === null) {
        out.push({ [field]: c });
        break;
      }
    }
  }
  return out;
}

/** Whether a configuration is valid but too big to draw tile by tile (it then gets the overview). */
export function needsOverview(config: LayoutConfig): boolean {
  return validateConfig(config) === null && overBudget(layoutSize(config)) !== null;
}

/**
 * The core's complaint about a configuration, or the page's when it is valid but too big to
 * build or draw here; null when the explorer can show it.
 */
export function checkView(config: LayoutConfig): ConfigError | null {
  const invalid = validateConfig(config);
  if (invalid) return invalid;
  const size = layoutSize(config);
  const why = overBudget(size);
  return why === null
    ? null
    : new ConfigError(
        `Too big for this page: ${why}. The overview shows it as a heatmap; for tiles, pick smaller numbers.`,
        fixes(config, size),
      );
}

// What the explorer's page can hold and draw, checked by arithmetic before any layout is built:
// a link with giant numbers gets a sentence with the arithmetic and fixes, never a frozen or
// crashed tab. These are limits of the page (main-thread memory, canvas size, frame time), not
// of the training run: the CLI draws the same layouts up to the core's own limits.
import { ConfigError } from '../core/errors.ts';
import type { LayoutConfig } from '../core/layout/types.ts';
import { validateConfig } from '../core/samplers/index.ts';
import { layoutSize, type LayoutSize } from '../core/samplers/size.ts';
import { type Catalogue, en } from './i18n/en.ts';

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

/** A page fact (src/ui/i18n: pageFacts) for why a valid configuration is too big for the page, with its arithmetic; null when it fits. */
function overBudget(size: LayoutSize): { id: keyof Catalogue['pageFacts']; params: Record<string, unknown> } | null {
  if (size.ranks > viewBudget.ranks) return { id: 'view.too-many-ranks', params: { ranks: fmt(size.ranks), most: fmt(viewBudget.ranks) } };
  if (size.samplesPerGather > viewBudget.tiles) {
    const params = {
      ranks: fmt(size.ranks),
      one: size.ranks === 1,
      perRank: fmt(size.perRankPerStep),
      stepsPerGather: size.stepsPerGather > 1 ? fmt(size.stepsPerGather) : null,
      tiles: fmt(size.samplesPerGather),
      most: fmt(viewBudget.tiles),
    };
    return { id: 'view.too-many-tiles', params };
  }
  if (size.samples > viewBudget.samples) {
    const params = {
      gathers: fmt(size.gathers),
      perGather: fmt(size.samplesPerGather),
      samples: fmt(size.samples),
      most: fmt(viewBudget.samples),
    };
    return { id: 'view.too-many-samples', params };
  }
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
  if (why === null) return null;
  // Its English is the English catalogue's (the page shows it through src/ui/core-text.ts in the page's language).
  const english = (en.pageFacts[why.id] as (p: unknown) => string)(why.params);
  return new ConfigError(english, fixes(config, size), [why]);
}

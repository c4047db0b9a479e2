// The second half of a flow_grpo preset's description: what the published script's loader does to
// the selected settings, beside what the seed-000 document's loop expected (a new draw at every
// step). The numbers come from the layouts themselves (frameworks/flow-grpo/loader-facts.ts), so the sentence stays
// true when the loader settings change the groups (and says nothing when they change nothing).
import type { Layout } from '../core/layout/types.ts';
import { buildLayout } from '../core/samplers/index.ts';
import { loaderFacts } from '../core/frameworks/flow-grpo/loader-facts.ts';
import { M } from './i18n/index.ts';

/** Group sizes per epoch, as "how many groups of each size", largest size first: [[8, 4]] = four groups of 8. */
export function groupSizes(layout: Layout): [size: number, groups: number][] {
  const counts = new Map<string, number>();
  for (const s of layout.steps) for (const id of s.ranks.flat()) counts.set(`${s.epoch}:${id}`, (counts.get(`${s.epoch}:${id}`) ?? 0) + 1);
  const bySize = new Map<number, number>();
  for (const size of counts.values()) bySize.set(size, (bySize.get(size) ?? 0) + 1);
  const epochs = layout.config.epochs;
  return [...bySize].sort((a, b) => b[0] - a[0]).map(([size, n]) => [size, n / epochs]);
}

/** The sentence for a flow_grpo layout whose loader changes what the steps receive; null otherwise. */
export function loaderNote(layout: Layout): string | null {
  const facts = loaderFacts(layout);
  if (!facts || facts.idealised) return null;
  const ideal = buildLayout({ ...layout.config, numWorkers: 0, acceleratePrepare: 0 });
  const S = M().story;
  const text = S.loaderText(layout.config.numWorkers, layout.config.prefetchFactor, layout.config.acceleratePrepare === 1);
  const pairs = facts.repeats.map((r) => S.loaderPair(r.step, r.sameAs));
  return M().config.loaderNote(text, groupSizes(ideal), groupSizes(layout), pairs);
}

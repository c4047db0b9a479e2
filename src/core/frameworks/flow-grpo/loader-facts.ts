// What flow_grpo's loader (loader.ts) did to a layout, beside the idealised loop the seed-000
// document assumes (the loop reads each batch as set_epoch seeds it): which steps receive an
// earlier step's batch, and which prompt groups PerPromptStatTracker sees with more than k
// samples. The layout text, the seed-000 explanation and the explorer's story restate these.
import type { Layout } from '../../layout/types.ts';
import { loaderText } from './sampler.ts';
import { buildLayout } from '../../samplers/index.ts';
import { lookAhead } from '../../samplers/loader.ts';

export interface BigGroup {
  epoch: number;
  promptId: number;
  /** Samples of this prompt in the epoch's gather (k per draw). */
  size: number;
}

export interface LoaderFacts {
  /** The loader in flow_grpo's words ("DataLoader(num_workers=1, prefetch_factor=2) through accelerator.prepare"). */
  loader: string;
  /** Index batches drawn ahead of their set_epoch call (0: the idealised loop). */
  lookAhead: number;
  /** The layout is the idealised loop's. */
  idealised: boolean;
  /** Steps (global, epoch-major) that receive the same batch on every rank as an earlier step. */
  repeats: { step: number; sameAs: number }[];
  /** Prompt groups of more than k samples in an epoch, under this loader and under the idealised loop. */
  bigGroups: BigGroup[];
  idealBigGroups: BigGroup[];
}

/** Groups of more than k samples of one prompt per epoch (flow_grpo gathers an epoch and groups by prompt). */
function bigGroups(layout: Layout): BigGroup[] {
  const out: BigGroup[] = [];
  for (let e = 0; e < layout.config.epochs; e++) {
    const count = new Map<number, number>();
    for (const s of layout.steps) if (s.epoch === e) for (const id of s.ranks.flat()) count.set(id, (count.get(id) ?? 0) + 1);
    for (const [promptId, size] of [...count].sort((a, b) => a[0] - b[0]))
      if (size > layout.config.k) out.push({ epoch: e, promptId, size });
  }
  return out;
}

const memo = new WeakMap<Layout, LoaderFacts | null>();

/** The loader's effect on a flow_grpo layout; null for the other samplers. Memoised per layout object. */
export function loaderFacts(layout: Layout): LoaderFacts | null {
  if (!memo.has(layout)) memo.set(layout, computeFacts(layout));
  return memo.get(layout)!;
}

function computeFacts(layout: Layout): LoaderFacts | null {
  if (layout.sampler !== 'flow-grpo' && layout.sampler !== 'flow-grpo-lcm') return null;
  const { config } = layout;
  const ideal = buildLayout({ ...config, numWorkers: 0, acceleratePrepare: 0 });
  const key = (ranks: number[][]) => JSON.stringify(ranks);
  const first = new Map<string, number>();
  const repeats: LoaderFacts['repeats'] = [];
  layout.steps.forEach((s, t) => {
    const k = key(s.ranks);
    const j = first.get(k);
    if (j === undefined) first.set(k, t);
    else repeats.push({ step: t, sameAs: j });
  });
  return {
    loader: loaderText(config),
    // The lcm script makes a new iterator after every set_epoch, so nothing drawn ahead reaches the loop.
    lookAhead: layout.sampler === 'flow-grpo' ? lookAhead({ ...config, acceleratePrepare: config.acceleratePrepare === 1 }) : 0,
    idealised: JSON.stringify(layout.steps.map((s) => s.ranks)) === JSON.stringify(ideal.steps.map((s) => s.ranks)),
    repeats,
    bigGroups: bigGroups(layout),
    idealBigGroups: bigGroups(ideal),
  };
}

/** "steps 1, 2 and 3 repeat step 0" style list of the repeats, grouped by the step they repeat. */
export function repeatsText(facts: LoaderFacts, perEpoch: number): string {
  const bySource = new Map<number, number[]>();
  for (const r of facts.repeats) bySource.set(r.sameAs, [...(bySource.get(r.sameAs) ?? []), r.step]);
  const name = (t: number) => `step ${t} (epoch ${Math.floor(t / perEpoch)}, batch ${t % perEpoch})`;
  return [...bySource]
    .map(([src, steps]) => `${steps.map(name).join(', ')} ${steps.length === 1 ? 'receives' : 'receive'} the batch of ${name(src)}`)
    .join('; ');
}

const groupsText = (groups: BigGroup[]) =>
  groups
    .slice(0, 8)
    .map((g) => `p${g.promptId} (epoch ${g.epoch}: ${g.size})`)
    .join(', ') + (groups.length > 8 ? ', …' : '');

/**
 * Plain sentences: what the published script's loader does to this configuration, next to what the
 * seed-000 document (the idealised loop) expected. Empty for samplers without a loader model.
 */
export function loaderSentences(layout: Layout): string[] {
  const facts = loaderFacts(layout);
  if (!facts) return [];
  const { config } = layout;
  const k = config.k;
  const script = layout.sampler === 'flow-grpo' ? 'train_sd3.py (ac4c86e)' : 'train_sd3.py (74db691)';
  if (facts.idealised) {
    return [
      layout.sampler === 'flow-grpo' && facts.lookAhead === 0
        ? `The loop reads each batch as set_epoch seeds it (${facts.loader}): the idealised loop the seed-000 document describes. ` +
          `flow_grpo's published ${script} puts DataLoader(num_workers=1) through accelerator.prepare in between; the defaults show that run.`
        : `As flow_grpo's ${script} runs it (${facts.loader}), the loader changes nothing here: every step receives the batch its ` +
          `set_epoch call seeds, as the seed-000 document expects.`,
    ];
  }
  const expected = facts.idealBigGroups.length
    ? `the document's loop would give groups of more than ${k} only by chance: ${groupsText(facts.idealBigGroups)}`
    : `the document's loop gives every prompt a group of exactly ${k}`;
  const lines = [
    `What the real run gets: ${script} reads the sampler with ${facts.loader}` +
      (facts.lookAhead > 0
        ? `, one iterator made before the loop, so ${facts.lookAhead} index batch(es) are drawn before the set_epoch call meant for them. `
        : '. ') +
      (facts.repeats.length ? `In this run ${repeatsText(facts, config.batchesPerEpoch)}. ` : '') +
      `The seed-000 document expected every batch to be a new draw (set_epoch(epoch × ${config.batchesPerEpoch} + i) before each).`,
  ];
  lines.push(
    facts.bigGroups.length
      ? `So PerPromptStatTracker, grouping the epoch's gather by prompt, sees groups of more than k=${k}: ${groupsText(facts.bigGroups)}; ` +
          `${expected}. --num-workers 0 --accelerate-prepare 0 shows the document's loop.`
      : `PerPromptStatTracker still sees groups of k=${k} (${expected}). --num-workers 0 --accelerate-prepare 0 shows the document's loop.`,
  );
  return lines;
}

// What <grpo-advantages> reads from its attributes, pure (the view and its tests share it): the
// default batch and the comma-separated lists of rewards and prompt ids.

/**
 * The default batch, chosen to show where the frameworks differ: prompt 0's four rewards are equal (a
 * flat group), prompt 1 has one success in four, prompts 2 and 3 have three completions and one (so
 * the batch is not k × prompts, and a run of k by position holds two prompts).
 */
export const DEFAULT_BATCH = {
  rewards: '1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 0',
  prompts: '0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3',
  k: '4',
  /** Completion tokens: none, so the weights use the seeded ones (and say so). */
  lengths: '',
} as const;

/** The element's attributes (named like the URL keys of `?view=advantages`). */
export const ADVANTAGES_ATTRIBUTES = ['rewards', 'prompts', 'k', 'schemes', 'lengths'] as const;

/** Numbers from "1, 0 0.5": each word, or the first that is not a number. */
export function parseList(text: string): { values: number[] } | { bad: string } {
  const words = text.split(/[\s,]+/).filter(Boolean);
  const values = words.map(Number);
  const bad = values.findIndex((v) => !Number.isFinite(v));
  return bad >= 0 ? { bad: words[bad]! } : { values };
}

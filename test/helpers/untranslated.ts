// Finds English words left in text meant to be Chinese (the i18n tests: the page in a browser,
// the catalogues in Node). What may stay English: technical terms practitioners keep in English
// (ALLOWED), identifiers (flag and URL names, code: anything with - _ . = / # or a digit, calls
// like view(-1, k), camelCase, ACRONYMS) and CLI commands (grpo-sandbox dynamic).

/** English words that stay English inside Chinese text, as Chinese practitioners write them. */
const ALLOWED = new Set([
  // GRPO and distributed-training terms (plurals pass too)
  'rank',
  'batch',
  'gather',
  'step',
  'epoch',
  'prompt',
  'reward',
  'advantage',
  'loss',
  'clip',
  'std',
  'uid',
  'sampler',
  'worker',
  'web',
  'launch',
  'makespan',
  'nats',
  'completion',
  'min',
  'max',
  'pairwise',
  // the controller's heads (src/core/env/controller.ts), named as in its code and the CLI's output
  'tier',
  'insertion',
  'top',
  'knob',
  // framework, library and browser names
  'verl',
  'numpy',
  'accelerate',
  'adam',
  'chrome',
  'edge',
  'firefox',
  'safari',
  'https',
  'localhost',
  // the CLI's --policy values (the dynamic view's buttons and the sweep's legend)
  'fallback',
  'pad',
  'rebalance',
  'raise',
  'stream',
  'naive',
  'short',
  // the CLI's --sampler values that are one word (the others have a hyphen)
  'trl',
  'contiguous',
  // the schedule's one-word scheme name (the CLI's --schemes value; the others have a hyphen)
  'spread',
  // a response header's value, and an HTML element
  'credentialless',
  'iframe',
  // a key's name, as printed on the keyboard
  'esc',
  // a boolean setting's values, as typed on the CLI and in a link (--balance-batch false)
  'true',
  'false',
]);

/** The English words of a text that are not identifiers or allowed terms. */
export function untranslatedWords(text: string): string[] {
  const words: string[] = [];
  // Calls and indexing are code: view(-1, k), randperm(32), gathered[r·4, (r+1)·4).
  // CLI commands are names too: grpo-sandbox dynamic, grpo-sandbox train; `code spans` are shown as code.
  const prose = text
    .replace(/`[^`]*`/g, ' ')
    .replace(/grpo-sandbox [a-z]+/g, ' ')
    .replace(/[A-Za-z_][\w.]*\((?:[^()]|\([^()]*\))*\)/g, ' ')
    .replace(/[A-Za-z_][\w.]*\[[^\]]*[\])]/g, ' ');
  for (const token of prose.split(/[\s,;:!?，。；：（）()「」“”'‘’·—–…→←↓×≥≤+<>[\]{}|]+/)) {
    // Identifiers: flag/URL/file/code names and numbers-with-units (k=4, flow_grpo, rewards.view, 1e-4, P13, --fix, Config1-1).
    if (/[-_.=/#@$\\\d]/.test(token)) continue;
    // camelCase and ACRONYMS (SharedArrayBuffer, WebGPU, KL, TRL, GRPO, DanceGRPO).
    if (/[a-z][A-Z]|[A-Z]{2,}[a-z]/.test(token) || /^[A-Z]{2,}s?$/.test(token)) continue;
    for (const word of token.match(/[A-Za-z]{3,}/g) ?? []) {
      const w = word.toLowerCase();
      if (!ALLOWED.has(w) && !ALLOWED.has(w.replace(/s$/, ''))) words.push(word);
    }
  }
  return words;
}

// Every string the training dashboard shows, in one place (a later en/zh catalogue takes them
// over), plus the two decisions that produce text: what is missing for cross-origin isolation,
// and which notice the device choice gets. Pure, so unit tests check them without a browser.

export const MSG = {
  title: 'Train the controller in the page',
  intro:
    'The same loop as grpo-sandbox train: every rank is a Web Worker of this page (with its own WebGPU device when the backend ' +
    'asks for one and the browser has it); rewards and prompt ids are all-gathered, gradients all-reduced, Adam applied.',
  start: 'Start',
  stop: 'Stop',
  reset: 'Reset',
  preset: 'preset',
  noPreset: '(none)',
  exportJsonl: 'metrics.jsonl',
  exportCsv: 'metrics.csv',
  runLink: 'link to this run',
  idle: 'Not started.',
  starting: (ranks: number) => `Starting ${ranks} rank worker${ranks === 1 ? '' : 's'}…`,
  running: (step: number, steps: number, device: string) => `Training: step ${step} of ${steps} on ${device}.`,
  stopping: 'Stopping after this step…',
  done: (step: number, steps: number, stopped: boolean) => (stopped ? `Stopped at step ${step} of ${steps}.` : `Done: ${steps} steps.`),
  failed: (message: string) => `The run failed: ${message}`,
  last: (step: number, reward: number, fraction: number) =>
    `step ${step}: reward ${reward.toFixed(4)}, ${(100 * fraction).toFixed(1)}% of optimum`,
  stepsPerSecond: (rate: number) => `${rate.toFixed(1)} steps/s`,
  device: (ranks: number, device: string) => `${ranks} rank worker${ranks === 1 ? '' : 's'} on ${device}`,
  cpuFallback: (reason: string) => `WebGPU unavailable (${reason}): training on the CPU instead.`,
  charts: {
    reward: 'reward (mean, std)',
    optimum: '% of the optimum',
    loss: 'loss',
    kl: 'KL to the initial policy',
    klOff: 'KL to the initial policy (beta = 0: no reference, not logged)',
    entropy: 'entropy per head (nats)',
    zeroStd: 'zero-std fraction (tied groups)',
    clip: 'clip fraction',
    budget: 'reward per budget band: greedy policy vs optimum',
  },
  policyTitle: 'Learned policy per latency budget (greedy) next to the optimum',
  policyPending: 'Evaluating the learned policy on every prompt of the bank (in a worker)…',
  policyNone: 'Shown when a run ends or is stopped.',
  policyHead: [
    'budget',
    'prompts',
    'policy: most common choice',
    'latency ms',
    'reward',
    'optimum: most common choice',
    'latency ms',
    'reward',
  ],
  randomFraction: (f: number) => `The uniform random policy reaches ${(100 * f).toFixed(1)}% of the optimum on this bank.`,
  isolation: {
    title: 'Training needs cross-origin isolation',
    insecure: 'the page is not a secure context (serve it over https or from localhost)',
    coop: (got: string | null) =>
      `the page was served ${got ? `with Cross-Origin-Opener-Policy: ${got}` : 'without a Cross-Origin-Opener-Policy header'} (needs same-origin)`,
    coep: (got: string | null) =>
      `the page was served ${got ? `with Cross-Origin-Embedder-Policy: ${got}` : 'without a Cross-Origin-Embedder-Policy header'} ` +
      '(needs require-corp or credentialless)',
    unread:
      "the page's headers could not be read; it needs Cross-Origin-Opener-Policy: same-origin and " +
      'Cross-Origin-Embedder-Policy: require-corp (or credentialless)',
    frame: 'an embedding page or frame is not cross-origin isolated itself (each ancestor needs the same two headers)',
    why: 'The ranks share their collectives through a SharedArrayBuffer, which browsers only give a cross-origin isolated page. ',
    fix: '`npm start` and `npm run preview` send both headers (vite.config.ts).',
  },
} as const;

/** What the page can tell about its isolation: the flags and the headers its own URL is served with. */
export interface IsolationFacts {
  isSecureContext: boolean;
  crossOriginIsolated: boolean;
  /** The response headers of the page's URL (null: not sent, undefined: could not be read). */
  coop?: string | null;
  coep?: string | null;
}

/** Null when training can run; else one sentence saying precisely what is missing. */
export function isolationProblem(f: IsolationFacts): string | null {
  if (f.crossOriginIsolated) return null;
  const missing: string[] = [];
  if (!f.isSecureContext) missing.push(MSG.isolation.insecure);
  const coopOk = f.coop?.trim().toLowerCase() === 'same-origin';
  const coepOk = ['require-corp', 'credentialless'].includes(f.coep?.trim().toLowerCase() ?? '');
  if (f.coop !== undefined && !coopOk) missing.push(MSG.isolation.coop(f.coop));
  if (f.coep !== undefined && !coepOk) missing.push(MSG.isolation.coep(f.coep));
  // Both headers right and still not isolated: an ancestor frame is what breaks it.
  if (missing.length === 0) missing.push(f.coop === undefined || f.coep === undefined ? MSG.isolation.unread : MSG.isolation.frame);
  return `${MSG.isolation.why}Missing: ${missing.join('; ')}. ${MSG.isolation.fix}`;
}

/**
 * The visible notice for the device a run trains on: the fallback line when `--backend auto`
 * found no WebGPU device (train() reports it through onNotice), else null. A `--backend cpu`
 * run has no notice: the CPU is what was asked for.
 */
export function deviceNotice(backend: string, notices: readonly string[]): string | null {
  const fallback = notices.find((n) => n.startsWith('WebGPU unavailable'));
  if (backend !== 'auto' || !fallback) return null;
  const reason = /^WebGPU unavailable \((.*)\); training on the CPU instead$/.exec(fallback)?.[1] ?? fallback;
  return MSG.cpuFallback(reason);
}

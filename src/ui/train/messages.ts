// The training dashboard's words (MSG: its section of the en/zh catalogues in src/ui/i18n), plus
// the two decisions that produce text: what is missing for cross-origin isolation, and which
// notice the device choice gets. Pure, so unit tests check them without a browser.
import { readsSetting } from '../../core/samplers/index.ts';
import { stepsPerGenerationOf, type TrainConfig } from '../../train/config.ts';
import type { RunNotice } from '../../train/run.ts';
import { factText } from '../core-text.ts';
import { section } from '../i18n/index.ts';

/** The dashboard's words: a live view of the current language's catalogue section. */
export const MSG = section('train');

/**
 * What a form field's value stands for in run `c`, shown under the field (a derived value as derived:
 * "0 = gradient accumulation (4), as TRL does"), or null when the value is what it says.
 */
export function derivedNote(flag: string, c: TrainConfig): string | null {
  if (flag === 'steps-per-generation') {
    if (!readsSetting(c.sampler, 'stepsPerGeneration')) return MSG.derived.spgNotRead(c.sampler);
    return c.stepsPerGeneration === 0 ? MSG.derived.spgFromGa(c.gradientAccumulationSteps) : null;
  }
  if (flag === 'framework') {
    const micro = c.gradientAccumulationSteps * c.numIterations * Math.max(1, stepsPerGenerationOf(c) / c.gradientAccumulationSteps);
    return micro <= 1 ? MSG.derived.frameworkIdle : MSG.derived.frameworkUsed(Math.round(micro));
  }
  return null;
}

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
  return `${MSG.isolation.why}${MSG.isolation.missing(missing)}${MSG.isolation.fix}`;
}

/**
 * The visible notice for the device a run trains on, from train()'s notices (facts): the fallback
 * when `--backend auto` found no WebGPU device, or the setting the fused WebGPU step does not run;
 * else null. A `--backend cpu` run has no notice: the CPU is what was asked for.
 */
export function deviceNotice(backend: string, notices: readonly RunNotice[]): string | null {
  if (backend === 'cpu') return null;
  const fallback = notices.find((n) => n.id === 'run.webgpu-unavailable');
  if (fallback) return backend === 'auto' ? MSG.cpuFallback(fallback.params.reason) : null;
  const fused = notices.find((n) => n.id === 'run.fused-unsupported');
  return fused ? factText(fused, true) : null;
}

// Why SharedArrayBuffer is missing on this page, in words a teacher embedding a view can act on.
// The layout views need nothing of this; the views that run ranks on shared memory (training,
// dynamic sampling on real ranks) call isolationProblem() and show its sentence instead of failing.
// Browsers give no way to read the page's own response headers, so the message names what the
// page can observe: not isolated, inside a frame or not, secure context or not.

import { section } from './i18n/index.ts';
/** What the page can observe about its isolation (a parameter so the wording can be tested without a browser). */
export interface IsolationFacts {
  crossOriginIsolated: boolean;
  sharedArrayBuffer: boolean;
  secureContext: boolean;
  inFrame: boolean;
}

/** The sentences (the isolation section of the en/zh catalogues). */
export const MSG = section('isolation');

/** The facts of the current page. */
export function isolationFacts(g: typeof globalThis = globalThis): IsolationFacts {
  let inFrame = false;
  try {
    inFrame = g.self !== g.top;
  } catch {
    inFrame = true; // a cross-origin parent cannot even be compared
  }
  return {
    crossOriginIsolated: g.crossOriginIsolated === true,
    sharedArrayBuffer: typeof g.SharedArrayBuffer === 'function',
    secureContext: g.isSecureContext !== false,
    inFrame,
  };
}

/** Null when SharedArrayBuffer is usable here; otherwise one sentence saying precisely what is missing. */
export function isolationProblem(facts: IsolationFacts = isolationFacts()): string | null {
  if (facts.crossOriginIsolated && facts.sharedArrayBuffer) return null;
  if (!facts.secureContext) return MSG.insecure;
  if (facts.crossOriginIsolated) return MSG.noSab;
  return facts.inFrame ? MSG.frame : MSG.page;
}

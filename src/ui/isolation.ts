// Why SharedArrayBuffer is missing on this page, in words a teacher embedding a view can act on.
// The layout views need nothing of this; the views that run ranks on shared memory (training,
// dynamic sampling on real ranks) call isolationProblem() and show its sentence instead of failing.
// Browsers give no way to read the page's own response headers, so the message names what the
// page can observe: not isolated, inside a frame or not, secure context or not.

/** What the page can observe about its isolation (a parameter so the wording can be tested without a browser). */
export interface IsolationFacts {
  crossOriginIsolated: boolean;
  sharedArrayBuffer: boolean;
  secureContext: boolean;
  inFrame: boolean;
}

export const MSG = {
  insecure:
    'This view needs SharedArrayBuffer, which browsers give only to secure pages: open it over https (or from localhost), ' +
    'and serve it with the headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp.',
  frame:
    'This view needs SharedArrayBuffer, but it runs inside an iframe that is not cross-origin isolated. The page around the frame must be ' +
    'served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp, the framed page with ' +
    'Cross-Origin-Embedder-Policy: require-corp (and Cross-Origin-Resource-Policy: cross-origin when it comes from another site), and the ' +
    '<iframe> tag needs allow="cross-origin-isolated".',
  page:
    'This view needs SharedArrayBuffer, but this page is not cross-origin isolated: serve it with the headers ' +
    'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp (every script and image it loads from ' +
    'another site then needs Cross-Origin-Resource-Policy or CORS).',
  noSab:
    'This view needs SharedArrayBuffer, which this browser does not provide even though the page is cross-origin isolated; ' +
    'try a current Chrome, Edge, Firefox or Safari.',
} as const;

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

// Where the explorer page is, for an embedded view's "open in the explorer" link: the library
// entry sets it from its own URL (the built grpo-sandbox.js sits next to index.html).
let base = '/';

export function setExplorerBase(url: string): void {
  base = url;
}

/** The explorer page's URL (without a query). */
export function explorerUrl(): string {
  return base;
}

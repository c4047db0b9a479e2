// The embeddable library: `npm run build` emits it as dist/grpo-sandbox.js, and one
// <script type="module" src=".../grpo-sandbox.js"> on any page defines the grpo elements. Each
// starts when it scrolls near and pauses off screen (embed/lazy.ts). Besides the elements it
// exports the figure export and the isolation check, for pages that script the views.
import { setExplorerBase } from './embed/base.ts';
import { watchTags } from './embed/lazy.ts';
import './embed/layout-view.ts';
import { VIEWS } from './views.ts';
import { catalogueReady } from './i18n/index.ts';

// Every view of the page (views.ts lists them), defined before the elements are watched.
// The page's language's words (a chunk of their own unless English) before any element renders.
await Promise.all([catalogueReady, ...Object.values(VIEWS).map((v) => v.load())]);

// The built file sits next to the explorer's index.html; under the dev server this module is /src/ui/lib.ts.
setExplorerBase(new URL(import.meta.url.includes('/src/ui/') ? '/' : './', import.meta.url).href);

/** The elements of this bundle: the explorer's picture and comparison, and every view. */
export const elements: readonly string[] = ['grpo-layout', 'grpo-compare', ...Object.values(VIEWS).map((v) => v.tag)];

watchTags(elements);

export { exportFigure, svgText, download } from './figure-export.ts';
export { isolationProblem, isolationFacts } from './isolation.ts';
export { watch, unwatch } from './embed/lazy.ts';

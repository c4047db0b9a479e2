// Projector mode: `zoom=1.5|2|3` in any view's link (the explorer's "⤢ projector" button toggles 1
// and 2) scales the whole page, as a browser's own zoom does: text, labels, buttons, the Gantt
// bars, the charts and the figures, so a room reads them from its back row (at zoom 2 the
// smallest text of every view is at least 20 px). The page is laid out for the width it has left
// (1280 px at zoom 2 is laid out as 640). Canvases draw at the zoomed pixel size (crisp, not
// stretched): layout-canvas.ts multiplies its device pixel ratio by the element's `currentCSSZoom`.

/** The page scales `zoom=` takes (the explorer's url-state reads the same list). */
export const PROJECTOR_ZOOMS = [1, 1.5, 2, 3] as const;

/** The page scale a link asks for: one of PROJECTOR_ZOOMS, else 1 (the explorer says why in a notice). */
export function projectorZoom(search: string): number {
  const z = Number(new URLSearchParams(search).get('zoom'));
  return (PROJECTOR_ZOOMS as readonly number[]).includes(z) ? z : 1;
}

/** Scales the page by `zoom` (1: as designed); `data-projector` on <html> marks the mode for the views' styles. */
export function applyProjector(zoom: number): void {
  const root = document.documentElement;
  const value = zoom > 1 ? String(zoom) : '';
  if (root.style.zoom !== value) root.style.zoom = value;
  root.toggleAttribute('data-projector', zoom > 1);
}

/** The scale the page's CSS zoom gives `el` (1 where the browser has no `currentCSSZoom`). */
export function cssZoomOf(el: Element): number {
  return (el as Element & { currentCSSZoom?: number }).currentCSSZoom ?? 1;
}

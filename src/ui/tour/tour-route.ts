// Opens a guided tour when the address names one (`?tour=seed-002&step=3`): the panel's module
// loads on demand (the explorer's first picture never waits for it) and mounts over the page;
// the panel then shows the view its step needs. Back or Forward onto a tour entry reopens it.
import { whenCatalogue } from '../i18n/index.ts';

export function routeTour(): void {
  if (!new URLSearchParams(location.search).has('tour') || document.querySelector('grpo-tour-panel')) return;
  void import('./tour-panel.ts').then(() => {
    if (!document.querySelector('grpo-tour-panel')) document.body.append(document.createElement('grpo-tour-panel'));
  });
}

whenCatalogue(routeTour);
window.addEventListener('popstate', routeTour);

// ElementWidth (src/ui/element-width.ts) under Chromium's own ResizeObserver, on a bare host that keeps Lit's
// controller contract (addController, requestUpdate, hostConnected/hostDisconnected from its connected callbacks):
// the initial value until the first measurement, the content box's width in whole pixels, one host update a change
// of what the view keeps (none for a width that reads the same), another element measured when given, a width of 0
// (no box) not taken, and nothing read while the host is off the page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withPage } from './harness.ts';

test('ElementWidth: initial value, whole pixels of the content box, one update a change, a given target, none off the page', async () => {
  await withPage('/test/browser/pages/blank.html', async (page) => {
    // tsx keeps function names with a __name helper, which the page does not have.
    await page.evaluate('window.__name ??= (f) => f');
    const seen = await page.evaluate(async () => {
      const { ElementWidth } = await import('/src/ui/element-width.ts' as string);
      type Controller = { hostConnected?(): void; hostDisconnected?(): void };
      class Host extends HTMLElement {
        controllers: Controller[] = [];
        updates = 0;
        addController(c: Controller): void {
          this.controllers.push(c);
        }
        removeController(): void {}
        requestUpdate(): void {
          this.updates++;
        }
        get updateComplete(): Promise<boolean> {
          return Promise.resolve(true);
        }
        connectedCallback(): void {
          for (const c of this.controllers) c.hostConnected?.();
        }
        disconnectedCallback(): void {
          for (const c of this.controllers) c.hostDisconnected?.();
        }
      }
      customElements.define('width-host', Host);
      const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const host = (css: string) => {
        const h = document.createElement('width-host') as Host;
        h.style.cssText = `display: block; box-sizing: content-box; ${css}`;
        return h;
      };

      /** The controller's value and the host's updates after `change` and the layout that follows it. */
      const after = async (change: () => void, h: Host, c: { value: unknown }) => {
        change();
        await frames();
        return [c.value, h.updates];
      };
      const width = (el: HTMLElement, px: string) => () => {
        el.style.width = px;
      };
      const onPage = (el: HTMLElement) => () => document.body.append(el);

      const out: Record<string, unknown> = {};
      // The host's own width, padding excluded, floored.
      const a = host('width: 333.7px; padding: 0 20px;');
      const own = new ElementWidth(a, 960);
      out.before = own.value;
      out.measured = await after(onPage(a), a, own);
      out.sameWholePx = await after(width(a, '333.2px'), a, own);
      out.wider = await after(width(a, '500px'), a, own);

      // What the view keeps of the width: an update only when that changes.
      const b = host('width: 1200px;');
      const columns = new ElementWidth(b, 3, (px: number) => (px >= 1100 ? 3 : px >= 700 ? 2 : 1));
      out.columnsWide = await after(onPage(b), b, columns);
      out.columns800 = await after(width(b, '800px'), b, columns);
      out.columns900 = await after(width(b, '900px'), b, columns);

      // Another element than the host, measured while the host is on the page.
      const c = host('width: 600px;');
      const other = document.createElement('div');
      other.style.width = '250px';
      document.body.append(other);
      const otherWidth = new ElementWidth(c, 0, undefined, other);
      out.target = await after(onPage(c), c, otherWidth);
      c.remove();
      out.targetHostGone = await after(width(other, '300px'), c, otherWidth);

      // No box (display: none): a width of 0 is not a measurement.
      const d = host('display: none;');
      const hidden = new ElementWidth(d, 960);
      out.hidden = await after(onPage(d), d, hidden);

      // Off the page: nothing is read (no update, the last width kept); back on it, measured again.
      await after(() => a.remove(), a, own);
      out.removed = await after(width(a, '420px'), a, own);
      out.back = await after(onPage(a), a, own);
      return out;
    });
    assert.equal(seen.before, 960, 'the initial value until the first measurement');
    assert.deepEqual(seen.measured, [333, 1], 'the content box (padding excluded) in whole pixels, one update');
    assert.deepEqual(seen.sameWholePx, [333, 1], 'a width that floors to the same pixels updates nothing');
    assert.deepEqual(seen.wider, [500, 2]);
    assert.deepEqual(seen.columnsWide, [3, 0], 'the same value as the initial one: no update');
    assert.deepEqual(seen.columns800, [2, 1]);
    assert.deepEqual(seen.columns900, [2, 1], 'a width that reads the same updates nothing');
    assert.deepEqual(seen.target, [250, 1], 'the element given, not the host');
    assert.deepEqual(seen.targetHostGone, [250, 1], 'not measured once the host has left the page');
    assert.deepEqual(seen.hidden, [960, 0], 'a width of 0 is not a measurement');
    assert.deepEqual(seen.removed, [500, 2], 'nothing read off the page');
    assert.deepEqual(seen.back, [420, 3], 'measured again once back on the page');
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, MOBILE, siteUrl } from './helpers';

// Lighthouse-style figures of the two public entry pages, measured in Chromium with the browser's
// own PerformanceObserver: Largest Contentful Paint, Cumulative Layout Shift (the sum of layout
// shifts not caused by input), and the first-load JavaScript/CSS bytes on the wire. CLS is held
// to Google's "good" threshold (≤ 0.1): layout does not depend on the machine. LCP is printed for
// the record, not asserted: on a shared CI machine it measures the machine's load as much as the
// page (it was 1.1-1.9 s here alone, 2.6-3.2 s with other suites running).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Vitals {
  lcpMs: number;
  cls: number;
  transferKb: number;
}

async function measure(path: string, viewport: { width: number; height: number }): Promise<Vitals> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  // Observers registered before any page script runs, with buffered entries.
  await page.addInitScript(() => {
    const w = window as unknown as { __vitals: { lcp: number; cls: number } };
    w.__vitals = { lcp: 0, cls: 0 };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__vitals.lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!e.hadRecentInput) w.__vitals.cls += e.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(siteUrl('localhost', path), { waitUntil: 'networkidle' });
  // Late shifts (fonts, images, data arriving) count too: give the page a moment to settle.
  await page.waitForTimeout(1000);
  // The observer's callback is asynchronous: wait until it has reported the paint.
  await page.waitForFunction(
    () => (window as unknown as { __vitals: { lcp: number } }).__vitals.lcp > 0,
    null,
    {
      timeout: 10_000,
    },
  );
  const v = await page.evaluate(() => {
    const w = window as unknown as { __vitals: { lcp: number; cls: number } };
    const bytes = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((r) => /\.(js|css)$/.test(new URL(r.name).pathname))
      .reduce((n, r) => n + r.encodedBodySize, 0);
    return { lcpMs: Math.round(w.__vitals.lcp), cls: w.__vitals.cls, transferKb: bytes / 1024 };
  });
  await context.close();
  return v;
}

describe('web vitals (LCP, CLS) on / and /market', () => {
  for (const path of ['/', '/market']) {
    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['mobile', MOBILE],
    ] as const) {
      it(`${path} at ${label} width: largest paint measured, layout shift ≤ 0.1`, async () => {
        const v = await measure(path, viewport);
        console.log(
          `web vitals ${path} ${label}: LCP ${v.lcpMs} ms, CLS ${v.cls.toFixed(3)}, JS+CSS ${v.transferKb.toFixed(1)} kB transferred`,
        );
        expect(v.lcpMs).toBeGreaterThan(0);
        expect(v.cls).toBeLessThanOrEqual(0.1);
      });
    }
  }
});

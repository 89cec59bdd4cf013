import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, MOBILE, siteUrl } from './helpers';

// Lighthouse-style figures of the two public entry pages, measured in Chromium with the browser's
// own PerformanceObserver: Largest Contentful Paint, Cumulative Layout Shift (the sum of layout
// shifts not caused by input), and the first-load JavaScript/CSS bytes on the wire. Limits are
// Google's "good" thresholds (LCP ≤ 2.5 s, CLS ≤ 0.1); the figures are printed for the record.

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
      it(`${path} at ${label} width paints its largest content within 2.5 s and barely shifts`, async () => {
        const v = await measure(path, viewport);
        console.log(
          `web vitals ${path} ${label}: LCP ${v.lcpMs} ms, CLS ${v.cls.toFixed(3)}, JS+CSS ${v.transferKb.toFixed(1)} kB transferred`,
        );
        expect(v.lcpMs).toBeGreaterThan(0);
        expect(v.lcpMs).toBeLessThanOrEqual(2500);
        expect(v.cls).toBeLessThanOrEqual(0.1);
      });
    }
  }
});

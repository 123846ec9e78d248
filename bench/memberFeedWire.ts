// A member's first page as a browser receives it (issue 39): the demo member signs in through the
// embedded identity provider's form and lands on the feed; then, signed in and with the cache
// disabled, the feed is opened again and every response counted until its Large cards in view have
// drawn and the network is idle. bench/bundle.ts sums the JS and CSS (the target is about code).
//
// Run alone it prints its report as JSON (bench/bundle.ts runs it so):
// node --import tsx bench/memberFeedWire.ts <distDir>
import path from 'node:path';
import { DEMO } from '../server/seed';
import { measureOnWire, type WireReport } from './firstRouteWire';

export function measureMemberFeedOnWire(distDir: string): Promise<WireReport> {
  return measureOnWire(distDir, {
    seedDemo: true,
    drive: async (page, baseUrl, count) => {
      await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/idp\//);
      await page.getByLabel('Email').fill(DEMO.member.email);
      await page.getByLabel('Password').fill(DEMO.member.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => /\/feed$/.test(url.pathname), { timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      // The measured visit: the signed-in member opens the feed with an empty cache.
      count();
      await page.reload({ waitUntil: 'load' });
      const figures = page.getByRole('figure', { name: /^Visualisation of / });
      await figures.first().waitFor({ timeout: 60_000 });
      // The cards in view read their rows and draw. Without Meltano here the demo's query-backed
      // datasets have no rows ('No data to display'), so the member scrolls down to the first card
      // drawn from its own data (a chart): the chart renderer is counted as with a loaded store.
      const chart = page.locator('[data-card-visual="shown"] canvas').first();
      for (let index = 0; !(await chart.isVisible()); index += 1) {
        if (index === (await figures.count())) throw new Error('no Large card on the feed drew a chart');
        await figures.nth(index).scrollIntoViewIfNeeded();
        await page.getByText('Loading data').first().waitFor({ state: 'detached', timeout: 60_000 });
        await page.waitForLoadState('networkidle');
      }
      await page.waitForLoadState('networkidle');
      if (process.env.BENCH_SCREENSHOT) await page.screenshot({ path: process.env.BENCH_SCREENSHOT });
    },
  });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, 'memberFeedWire.ts')) {
  const distDir = path.resolve(process.argv[2] ?? 'dist');
  process.stdout.write(`${JSON.stringify(await measureMemberFeedOnWire(distDir))}\n`);
}

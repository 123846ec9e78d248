// Screenshots of every gallery case at 1280 and 375 px from the harness build:
//   npx vite build --config tests/visual-harness/vite.config.ts && npx tsx tests/visual-harness/shoot.ts [case...]
// Pictures go to tests/e2e/screenshots/visualisation-<case>-<width>.png; page errors are printed
// and make the run fail.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium } from '@playwright/test';

const root = process.env.HARNESS_OUT ?? '/tmp/visual-harness';
const out = path.resolve(import.meta.dirname, '../e2e/screenshots');
const CASES = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['bar', 'bar-compact', 'horizontalBar', 'bar-long-labels', 'line', 'line-many-series', 'area', 'scatter', 'bubble', 'pie', 'doughnut', 'treemap', 'google-chart', 'html-table', 'table', 'html-metric', 'mermaid', 'mermaid-error', 'carousel', 'image', 'handsontable', 'handsontable-key', 'error-no-metadata', 'error-carousel', 'error-malformed'];
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.map': 'application/json' };

const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const file = path.join(root, path.normalize(url.pathname === '/' ? '/index.html' : url.pathname));
  if (!file.startsWith(root) || !fs.existsSync(file)) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(response);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as { port: number }).port;

fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
let failures = 0;
try {
  for (const name of CASES) {
    for (const width of [1280, 375]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      page.on('pageerror', (error) => {
        failures += 1;
        console.error(`${name}@${width}: ${error.message}`);
      });
      // handsontable-key: the same case with the evaluation key, to see the real grid
      const query = name === 'handsontable-key' ? 'case=handsontable&hotKey=non-commercial-and-evaluation' : `case=${name}`;
      await page.goto(`http://127.0.0.1:${port}/?${query}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(800); // chart animations (300 ms) and mermaid layout
      await page.screenshot({ path: path.join(out, `visualisation-${name}-${width}.png`), fullPage: true });
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
if (failures > 0) process.exit(1);

// The first route as a browser receives it: our real server (as `npm start` runs it, in a child process,
// serving `distDir`) and Chromium with an empty cache open `/` signed out, wait until the login
// view is up and the network is idle, and add up what Chromium's network stack reports as received
// for every response (Network.loadingFinished encodedDataLength: the bytes on the wire, headers
// included), beside the bodies alone. Measured, not computed from files.
//
// Run alone it prints its report as JSON (bench/bundle.ts runs it so, keeping its own report
// synchronous): node --import tsx bench/firstRouteWire.ts <distDir>
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { freePort } from '../tests/support/server';
import { SERVER_ENTRY, startChild } from './processes';

export interface WireResponse {
  path: string;
  status: number;
  type: string;
  encoding: string;
  /** bytes received for the response, headers included */
  transfer: number;
  /** bytes of the (encoded) body */
  body: number;
}

export interface WireReport {
  acceptEncoding: string;
  responses: WireResponse[];
  transfer: number;
  body: number;
}

/** How a measured visit goes: what the server seeds, and what the browser does before counting starts and until it stops. */
interface WireScenario {
  seedDemo: boolean;
  /** the queue's runner and scheduler on (the demo's data is loaded by its seeded jobs) */
  runner?: boolean;
  /** Drives the page; calls `count()` at the moment from which responses are counted (before it, nothing is). */
  drive: (page: Page, baseUrl: string, count: () => void) => Promise<void>;
}

/**
 * Our real server in a child (serving `distDir`), Chromium with its cache disabled, and the
 * responses of the scenario after it starts counting, as Chromium's network stack saw them.
 */
export async function measureOnWire(distDir: string, scenario: WireScenario): Promise<WireReport> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-wire-'));
  const server = await startChild(
    SERVER_ENTRY,
    { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, DATA_DIR: dataDir, STATIC_DIR: distDir, LOG_LEVEL: 'warn', SEED_DEMO: String(scenario.seedDemo), RUNNER_ENABLED: String(scenario.runner ?? false), SCHEDULER_ENABLED: String(scenario.runner ?? false) },
    `${baseUrl}/config.json`,
    // the demo seed hashes three passwords at start: on a host shared with other work that took over a minute
    180_000,
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const seen = new Map<string, { path: string; status: number; type: string; encoding: string; headers: number }>();
    const finished = new Map<string, number>();
    let counting = false;
    let acceptEncoding = '';
    cdp.on('Network.requestWillBeSentExtraInfo', (event) => {
      const value = Object.entries(event.headers).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];
      if (value !== undefined && acceptEncoding === '') acceptEncoding = String(value);
    });
    cdp.on('Network.responseReceived', (event) => {
      if (!counting) return;
      const { response } = event;
      const header = (name: string) => Object.entries(response.headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? '';
      seen.set(event.requestId, {
        path: new URL(response.url).pathname,
        status: response.status,
        type: event.type,
        encoding: String(header('content-encoding')) || 'identity',
        headers: response.encodedDataLength,
      });
    });
    cdp.on('Network.loadingFinished', (event) => finished.set(event.requestId, event.encodedDataLength));

    await scenario.drive(page, baseUrl, () => {
      counting = true;
    });

    const responses: WireResponse[] = [...seen.entries()]
      .filter(([id]) => finished.has(id))
      .map(([id, r]) => ({ path: r.path, status: r.status, type: r.type, encoding: r.encoding, transfer: finished.get(id)!, body: finished.get(id)! - r.headers }));
    return {
      acceptEncoding,
      responses,
      transfer: responses.reduce((sum, r) => sum + r.transfer, 0),
      body: responses.reduce((sum, r) => sum + r.body, 0),
    };
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Issue 21: `/` signed out, until the login view is up and the network is idle. */
function measureFirstRouteOnWire(distDir: string): Promise<WireReport> {
  return measureOnWire(distDir, {
    seedDemo: false,
    drive: async (page, baseUrl, count) => {
      count();
      await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
      await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
    },
  });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, 'firstRouteWire.ts')) {
  const distDir = path.resolve(process.argv[2] ?? 'dist');
  process.stdout.write(`${JSON.stringify(await measureFirstRouteOnWire(distDir))}\n`);
}

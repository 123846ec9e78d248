// The dataset page's server cost for `npm run bench`: the requests one load of the page makes (the
// dataset, its view, its data, and the side panel's comments, alerts and related datasets), and
// the server CPU they take together, averaged over sequential loads of a seeded dataset with a
// query. CPU time from /proc, so the neighbours' load moves it much less than it moves latency.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO } from '../server/seed';
import { signIn } from '../tests/support/auth';
import { freePort } from '../tests/support/server';
import { cpuSeconds } from './measure';
import { readServerEnv, SERVER_ENTRY, startChild } from './processes';

const LOADS = 200;
const WARM_UP_LOADS = 20;

interface HalBody {
  _links?: Record<string, { href: string } | undefined>;
  _embedded?: Record<string, Array<{ id: string; query?: string | null; _links?: HalBody['_links'] }>>;
}

/** Requests and server CPU µs per load of the dataset page, on PGlite (or `databaseUrl`). */
export async function benchDatasetPage(databaseUrl?: string, entry = SERVER_ENTRY): Promise<{ requests: number; cpuUsPerLoad: number }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-page-'));
  const env = readServerEnv(port, dataDir, databaseUrl);
  const server = await startChild(entry, env, `${baseUrl}/config.json`);
  try {
    const { accessToken } = await signIn(baseUrl, DEMO.member);
    const headers = { authorization: `Bearer ${accessToken}`, accept: 'application/json' };
    const get = async (url: string, method = 'GET') => {
      const response = await fetch(url, { method, headers });
      const text = await response.text();
      return text === '' ? {} : (JSON.parse(text) as HalBody);
    };
    const feed = await get(`${baseUrl}/api/workspaces/${DEMO.workspaceId}/datasets?size=50`);
    const withQuery = Object.values(feed._embedded ?? {})
      .flat()
      .find((dataset) => dataset.query);
    if (!withQuery) throw new Error('the demo workspace has no dataset with a query');
    const load = async () => {
      const dataset = await get(`${baseUrl}/api/datasets/${withQuery.id}`);
      const links = dataset._links ?? {};
      let requests = 1;
      for (const [rel, method] of [
        ['view dataset', 'PUT'],
        ['data', 'GET'],
        ['comments', 'GET'],
        ['alerts', 'GET'],
        ['related', 'GET'],
      ] as const) {
        const href = links[rel]?.href;
        if (href === undefined) continue;
        await get(href, method);
        requests += 1;
      }
      return requests;
    };
    for (let i = 0; i < WARM_UP_LOADS; i += 1) await load();
    const before = cpuSeconds(server.process.pid);
    let requests = 0;
    for (let i = 0; i < LOADS; i += 1) requests = await load();
    const after = cpuSeconds(server.process.pid);
    return { requests, cpuUsPerLoad: before === undefined || after === undefined ? Number.NaN : ((after - before) * 1e6) / LOADS };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { oauthEnv, startFakeOAuthProvider } from '../support/oauthProvider';
import { freePort } from '../support/server';
import { startMeltanoSide } from './meltanoSupport';

// The PostgreSQL on this machine is a store the data-store spec adds, and the deploy spec clones
// repositories it makes in the temporary directory: both are allowed explicitly, as an operator would.
const WORKSPACE_ACCESS = { STORE_ALLOWED_HOSTS: '127.0.0.1', REPOSITORY_LOCAL_ROOTS: os.tmpdir() };

/** Starts `server/main.ts` (the same entry as `npm start`) on a free port with a fresh data directory. */
export default async function globalSetup() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-data-'));
  const baseUrl = `http://localhost:${port}`;
  // OAuth connect goes to a provider this setup starts locally (test code only), as the Google client
  const oauth = await startFakeOAuthProvider();
  // Python plugins: Meltano and the wheels from a machine-level cache, and a source database jobs may reach (meltanoSupport.ts)
  const meltano = await startMeltanoSide();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: baseUrl, LOG_LEVEL: 'warn', DATABASE_URL: '', ...oauthEnv(oauth), ...WORKSPACE_ACCESS, ...meltano.env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitUntilUp(`${baseUrl}/config.json`, child);
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_OAUTH_AUTHORIZATION_URL = oauth.authorizationUrl;
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await oauth.close();
    await meltano.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

async function waitUntilUp(url: string, child: ReturnType<typeof spawn>) {
  const deadline = Date.now() + 120_000; // a loaded two-core CI machine has taken 80 s
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not start at ${url}`);
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cataloguePlugins } from '../../server/plugins/catalogue';
import { loadMeltanoSettings } from '../../server/runner/meltano/settings';
import { machineAddress, startPackageIndex, startTcpForward, wheelhouseFor, type Wheelhouse } from '../support/packageIndex';

// What the e2e server needs to run a Python plugin from the catalogue (tests/e2e/lab-meltano.spec.ts),
// configured as an operator configures a server, never by loosening a default:
// - RUNNER_CACHE_DIR in a machine-level cache that outlives the run, so Meltano is provisioned once
//   per machine and version, not once per run;
// - RUNNER_PACKAGE_INDEX_URL: a package index of this machine's own (tests/support/packageIndex.ts)
//   over wheels kept in the same cache, so Meltano and the tap are downloaded once per machine;
// - RUNNER_ALLOWED_HOSTS: this machine's address, where a forward stands in for a source database
//   on another host of the operator's network. The local PostgreSQL listens on loopback only, which
//   no job's sandbox reaches (issue 17).
// Jobs reach the machine's address and nothing else private; the index and the forward answer this
// machine's processes only.

/** Kept between runs: `runner/` (RUNNER_CACHE_DIR: Meltano's environment) and `wheels/` (the local index). */
const MACHINE_CACHE_DIR = process.env.E2E_MACHINE_CACHE_DIR ?? (process.getuid?.() === 0 ? '/var/cache/workspace-e2e' : path.join(os.homedir(), '.cache', 'workspace-e2e'));

/** The catalogue's Python extractor the spec runs (MeltanoLabs' tap-postgres, not the built-in one). */
export const MELTANO_TAP_POSTGRES = 'extractors/tap-postgres--meltanolabs';

/** The local PostgreSQL, as lab-datastores.spec.ts reaches it. */
export const LOCAL_PG = { host: '127.0.0.1', port: 5432 };

/** Meltano's release and the tap's pip_url as the server will install them, each resolved on its own. */
export function meltanoWheelhouse(): Wheelhouse {
  const { version } = loadMeltanoSettings(os.tmpdir(), process.env);
  const pipUrl = cataloguePlugins().find((p) => p.id === MELTANO_TAP_POSTGRES)?.pipUrl;
  if (!pipUrl) throw new Error(`${MELTANO_TAP_POSTGRES} has no pip_url in the catalogue`);
  return wheelhouseFor(MACHINE_CACHE_DIR, [[`meltano==${version}`], pipUrl.split(/\s+/)]);
}

/**
 * Starts the index and the forward on this machine's address; their settings for the server's
 * environment. Sets E2E_SOURCE_DB_HOST/PORT (the forward) for the spec. Without a non-loopback
 * address nothing is started, and the Meltano spec says why it cannot run.
 */
export async function startMeltanoSide(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  fs.mkdirSync(MACHINE_CACHE_DIR, { recursive: true, mode: 0o755 });
  const runnerCache = { RUNNER_CACHE_DIR: path.join(MACHINE_CACHE_DIR, 'runner') };
  const host = machineAddress();
  if (!host) return { env: runnerCache, close: () => Promise.resolve() };
  const index = await startPackageIndex({ host, dir: meltanoWheelhouse().dir });
  const source = await startTcpForward({ host, target: LOCAL_PG });
  process.env.E2E_SOURCE_DB_HOST = source.host;
  process.env.E2E_SOURCE_DB_PORT = String(source.port);
  return {
    env: { ...runnerCache, RUNNER_PACKAGE_INDEX_URL: index.url, RUNNER_ALLOWED_HOSTS: host },
    close: async () => {
      await source.close();
      await index.close();
    },
  };
}

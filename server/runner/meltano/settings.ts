import path from 'node:path';
import { z } from 'zod';

// The settings of the engine for Python plugins (server/runner/README.md, "Meltano"): which Meltano
// the server provisions, where it keeps what it can rebuild, and which package index installs use.

/** pypi.org's simple index serves its files from this host: an index there needs both. */
const PYPI_FILES_HOST = 'files.pythonhosted.org';

const schema = z.object({
  // a release of PyPI's `meltano`: digits and dots, so it is never more than a version in a pip requirement
  MELTANO_VERSION: z.string().regex(/^\d+(\.\d+){1,3}$/, 'must be a release number such as 4.4.1').default('4.4.1'),
  RUNNER_CACHE_DIR: z.string().optional(),
  RUNNER_PACKAGE_INDEX_URL: z
    .string()
    .url()
    .refine((url) => /^https?:$/.test(new URL(url).protocol), 'must be an http(s) URL')
    .default('https://pypi.org/simple'),
  RUNNER_PACKAGE_INDEX_HOSTS: z.string().optional(),
});

export interface MeltanoSettings {
  /** MELTANO_VERSION: the release provisioned into `{cacheDir}/meltano/{version}` */
  version: string;
  /** RUNNER_CACHE_DIR: what can be rebuilt at any time (Meltano's virtual environment) */
  cacheDir: string;
  /** RUNNER_PACKAGE_INDEX_URL: the index pip and uv install from, outside and inside the sandbox */
  indexUrl: string;
  /** the hosts an installing job may reach: the index's own, and where it serves files from */
  indexHosts: string[];
}

/** The hosts of an index: its own, plus files.pythonhosted.org for pypi.org, whose pages link there. */
export function indexHostsOf(indexUrl: string): string[] {
  const host = new URL(indexUrl).hostname;
  return host === 'pypi.org' ? [host, PYPI_FILES_HOST] : [host];
}

/**
 * pip ignores an index served over plain http unless its host is trusted (`--trusted-host`), save
 * on loopback, so an http index elsewhere (a mirror inside the operator's network, which
 * RUNNER_PACKAGE_INDEX_URL allows) found nothing and Meltano could not be installed; uv does not ask.
 * Only the configured index's own host and port, and only over http: pip's trust also stops it
 * checking a certificate, which an https host must keep.
 */
export function pipTrustedHostEnv(indexUrl: string): { PIP_TRUSTED_HOST?: string } {
  const url = new URL(indexUrl);
  return url.protocol === 'http:' ? { PIP_TRUSTED_HOST: url.host } : {};
}

export function loadMeltanoSettings(dataDir: string, source: NodeJS.ProcessEnv = process.env): MeltanoSettings {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid Meltano configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const env = parsed.data;
  const explicitHosts = env.RUNNER_PACKAGE_INDEX_HOSTS?.split(',').map((h) => h.trim()).filter((h) => h.length > 0);
  return {
    version: env.MELTANO_VERSION,
    cacheDir: path.resolve(env.RUNNER_CACHE_DIR?.trim() || path.join(dataDir, 'cache')),
    indexUrl: env.RUNNER_PACKAGE_INDEX_URL.replace(/\/+$/, ''),
    indexHosts: explicitHosts && explicitHosts.length > 0 ? explicitHosts : indexHostsOf(env.RUNNER_PACKAGE_INDEX_URL),
  };
}

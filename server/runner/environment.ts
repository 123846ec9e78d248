import { settingsEnv } from '../../src/domain/settingEnv';
import type { DataComponentRow } from '../repositories/dataComponents';
import { PLUGIN_BIN_DIR, findCataloguePlugin } from '../plugins/catalogue';
import { JOB_ALLOWED_HOSTS_ENV } from '../security/netPolicy';


interface JobEnvironmentInput {
  jobId: string;
  workspaceId: string;
  pipelineId: string;
  projectDir: string;
  /** the job's temporary directory (the sandbox's private /tmp) */
  tmpDir: string;
  components: readonly DataComponentRow[];
  pipelineProperties: Record<string, unknown>;
  bridgeSocket: string;
  bridgeToken: string;
  /** RUNNER_ALLOWED_HOSTS: the private hosts the job's own clients (tap-postgres) may reach */
  allowedHosts: readonly string[];
}

/** Whether this module runs bundled into dist-server/ (`npm start`), not from its TypeScript source. */
const SERVER_COMPILED = import.meta.url.endsWith('.js');

/**
 * The environment a job sees: a fresh one, not the server's (which holds DATABASE_URL and mail
 * credentials), with the server's PATH followed by the built-in plugins, and every component
 * setting by Meltano's rule, each in its plugin's namespace (settingEnv.ts refuses the system's,
 * the runner's own names included). Paths are where the job sees them (the sandbox's /project).
 * Only the job's own process gets it: the sandbox's launchers start from a fixed environment.
 */
export function jobEnvironment(input: JobEnvironmentInput, serverEnv: NodeJS.ProcessEnv = process.env): { env: Record<string, string>; skipped: string[] } {
  const components = input.components.map((c) => ({ name: c.name, settings: findCataloguePlugin(c.plugin_type, c.plugin_name, c.variant)?.settings ?? [] }));
  const componentProperties = Object.fromEntries(input.components.map((c) => [c.name, c.properties]));
  const { env: settings, skipped } = settingsEnv(components, input.pipelineProperties, componentProperties);
  const env: Record<string, string> = {
    ...settings,
    PATH: `${serverEnv.PATH ?? '/usr/local/bin:/usr/bin:/bin'}:${PLUGIN_BIN_DIR}`,
    HOME: input.projectDir,
    SHELL: '/bin/bash',
    TMPDIR: input.tmpDir,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    JOB_ID: input.jobId,
    PIPELINE_ID: input.pipelineId,
    WORKSPACE_ID: input.workspaceId,
    MELTANO_PROJECT_ROOT: input.projectDir,
    RUNNER_BRIDGE: input.bridgeSocket,
    RUNNER_BRIDGE_TOKEN: input.bridgeToken,
    // the compiled server's jobs run the built-in plugins compiled with it (server/plugins/bin/_launch)
    ...(SERVER_COMPILED ? { BUILTIN_PLUGINS_COMPILED: '1' } : {}),
    [JOB_ALLOWED_HOSTS_ENV]: input.allowedHosts.join(','),
  };
  return { env, skipped };
}

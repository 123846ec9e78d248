import { settingsEnv } from '../../src/domain/settingEnv';
import type { DataComponentRow } from '../repositories/dataComponents';
import { PLUGIN_BIN_DIR, findCataloguePlugin } from '../plugins/catalogue';

/** Variables the runner owns; no setting may set them. */
export const RESERVED_ENV: ReadonlySet<string> = new Set([
  'PATH', 'HOME', 'SHELL', 'TMPDIR', 'LANG', 'TZ', 'NODE_OPTIONS', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'BASH_ENV', 'ENV',
  'JOB_ID', 'PIPELINE_ID', 'WORKSPACE_ID', 'RUNNER_BRIDGE', 'RUNNER_BRIDGE_TOKEN', 'MELTANO_PROJECT_ROOT',
]);

export interface JobEnvironmentInput {
  jobId: string;
  workspaceId: string;
  pipelineId: string;
  projectDir: string;
  components: readonly DataComponentRow[];
  pipelineProperties: Record<string, unknown>;
  bridgeSocket: string;
  bridgeToken: string;
}

/**
 * The environment a job sees: a fresh one, not the server's (which holds DATABASE_URL and mail
 * credentials), with the server's PATH followed by the built-in plugins, and every component
 * setting by Meltano's rule.
 */
export function jobEnvironment(input: JobEnvironmentInput, serverEnv: NodeJS.ProcessEnv = process.env): { env: Record<string, string>; skipped: string[] } {
  const components = input.components.map((c) => ({ name: c.name, settings: findCataloguePlugin(c.plugin_type, c.plugin_name, c.variant)?.settings ?? [] }));
  const componentProperties = Object.fromEntries(input.components.map((c) => [c.name, c.properties]));
  const { env: settings, skipped } = settingsEnv(components, input.pipelineProperties, componentProperties, RESERVED_ENV);
  const env: Record<string, string> = {
    ...settings,
    PATH: `${serverEnv.PATH ?? '/usr/local/bin:/usr/bin:/bin'}:${PLUGIN_BIN_DIR}`,
    HOME: input.projectDir,
    SHELL: '/bin/bash',
    TMPDIR: serverEnv.TMPDIR ?? '/tmp',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    JOB_ID: input.jobId,
    PIPELINE_ID: input.pipelineId,
    WORKSPACE_ID: input.workspaceId,
    MELTANO_PROJECT_ROOT: input.projectDir,
    RUNNER_BRIDGE: input.bridgeSocket,
    RUNNER_BRIDGE_TOKEN: input.bridgeToken,
  };
  return { env, skipped };
}

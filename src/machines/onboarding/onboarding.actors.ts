import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { createOnboardingPipeline, listOnboardingPlugins, makeDefaultWorkspace, saveOnboardingWorkspace } from '../../api/onboarding';
import { listStoreTables } from '../../api/storeTables';
import { getWorkspace } from '../../api/workspaces';
import { jobRunActors } from '../jobRun/jobRun.actors';
import type { Pipeline, StoreTable, Workspace } from '../../domain/resources';
import type { PipelineInput, PluginsInput, PluginsPage, SaveWorkspaceInput, TablesInput, WorkspaceIdInput } from './onboarding.machine';

/** `onboardingMachine.provide({ actors: onboardingActors(client) })`. */
export function onboardingActors(client: ApiClient) {
  // The first run starts and is re-read exactly as a pipeline row's Start job is.
  const run = jobRunActors(client);
  return {
    startRun: run.start,
    readRun: run.refresh,
    loadWorkspace: fromPromise<Workspace, WorkspaceIdInput>(({ input, signal }) => getWorkspace(client, input.workspaceId, { signal, skipErrorHandler: true })),
    saveWorkspace: fromPromise<Workspace, SaveWorkspaceInput>(({ input, signal }) => saveOnboardingWorkspace(client, input.workspace, input.name, { signal })),
    setDefaultWorkspace: fromPromise<unknown, WorkspaceIdInput>(({ input, signal }) => makeDefaultWorkspace(client, input.workspaceId, { signal })),
    listPlugins: fromPromise<PluginsPage, PluginsInput>(({ input, signal }) => listOnboardingPlugins(client, input.workspace, input.search, input.page, { signal })),
    listTables: fromPromise<StoreTable[], TablesInput>(({ input, signal }) => listStoreTables(client, input.workspace, { signal })),
    createPipeline: fromPromise<Pipeline, PipelineInput>(({ input, signal }) => createOnboardingPipeline(client, input.workspace, input.plugin, input.name, { signal, skipErrorHandler: true })),
  };
}

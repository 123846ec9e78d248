import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { deletePlugin, installPlugin, listPlugins } from '../../api/dataPlugins';
import type { PluginInput, PluginListPage, PluginListQuery } from './dataPlugins.machine';

/** `dataPluginsMachine.provide({ actors: dataPluginsActors(client) })`. */
export function dataPluginsActors(client: ApiClient) {
  return {
    loadPlugins: fromPromise<PluginListPage, PluginListQuery>(({ input, signal }) => listPlugins(client, input.workspace, input, { signal })),
    installPlugin: fromPromise<void, PluginInput>(({ input, signal }) => installPlugin(client, input.plugin, { signal })),
    deletePlugin: fromPromise<void, PluginInput>(({ input, signal }) => deletePlugin(client, input.plugin, { signal })),
  };
}

import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { publishDiscovery } from '../../api/dataPlugins';
import type { DataPlugin } from '../../domain/resources';
import type { PublishInput } from './discoveryUpload.machine';

/** `discoveryUploadMachine.provide({ actors: discoveryUploadActors(client) })`: POST the workspace's 'publish discovery.yml'. */
export function discoveryUploadActors(client: ApiClient) {
  return {
    publishDiscovery: fromPromise<DataPlugin[], PublishInput>(({ input, signal }) => publishDiscovery(client, input.workspace, input.yaml, { signal })),
  };
}

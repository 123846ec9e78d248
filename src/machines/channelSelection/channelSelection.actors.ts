import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { channelsOfType } from '../../api/library';
import type { Channel } from '../../domain/resources';
import type { LoadChannelsInput } from './channelSelection.machine';

/** The slider shows the workspace's source channels: the ones datasets are published in. */
export function channelSelectionActors(client: ApiClient) {
  return {
    loadChannels: fromPromise<Channel[], LoadChannelsInput>(({ input, signal }) => channelsOfType(client, input.workspace, 'SOURCE', { signal })),
  };
}

import type { ActorRefFrom } from 'xstate';
import type { apiKeysMachine } from '../../../machines/apiKeys/apiKeys.machine';

/** The running API-keys machine, handed from the page to its parts. */
export type ApiKeysActor = ActorRefFrom<typeof apiKeysMachine>;

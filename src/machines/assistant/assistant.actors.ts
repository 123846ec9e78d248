import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { ask } from '../../api/questions';
import type { QuestionAnswer } from '../../domain/resources';
import type { AskInput } from './assistant.machine';

/** `assistantMachine.provide({ actors: assistantActors(client), actions: { openDataset: (_, { path }) => navigate(path) } })`. */
export function assistantActors(client: ApiClient) {
  return {
    ask: fromPromise<QuestionAnswer | null, AskInput>(({ input, signal }) => ask(client, input.workspace, input.question, { signal })),
  };
}

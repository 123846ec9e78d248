import { assign, setup } from 'xstate';
import { CATALOGUE_TEXTS, discoveryErrorLines } from '../../domain/catalogue';
import type { HalLike } from '../../domain/hal';
import type { DataPlugin } from '../../domain/resources';
import { apiErrorOf } from '../apiError';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The catalogue's Custom tab (spec 001 §2, §5, §8): a discovery.yml typed or read from a .yaml/.yml
// file, Next disabled while it is empty, POSTed as text/x-yaml; 204 reads 'No Meltano plugins
// found', a 400 one line per error 'objectName[index].field - defaultMessage', anything else its
// message. The published plugins are shown until the user starts another upload.

export type PublishInput = { readonly workspace: HalLike; readonly yaml: string };
export type DiscoveryUploadInput = { readonly workspace: HalLike };

export type DiscoveryUploadContext = {
  readonly workspace: HalLike;
  readonly yaml: string;
  readonly errorLines: readonly string[];
  readonly message: string | null;
  readonly published: readonly DataPlugin[];
};

export type DiscoveryUploadEvent =
  | { readonly type: 'user.edit'; readonly yaml: string }
  | { readonly type: 'user.next' }
  | { readonly type: 'user.again' };

export const hasYaml = (context: Pick<DiscoveryUploadContext, 'yaml'>): boolean => context.yaml.trim() !== '';

/** What a refused upload shows: the 400's field errors, one per line, or the failure's message. */
export function uploadFailure(error: unknown): Pick<DiscoveryUploadContext, 'errorLines' | 'message'> {
  const apiError = apiErrorOf(error);
  const errors = apiError.kind === 'response' && apiError.status === 400 ? (apiError.body?.errors ?? []) : [];
  if (errors.length > 0) return { errorLines: discoveryErrorLines(errors), message: null };
  const message = apiError.kind === 'response' && apiError.body?.message ? apiError.body.message : failureText(error);
  return { errorLines: [], message };
}

export const discoveryUploadMachine = setup({
  types: {
    context: {} as DiscoveryUploadContext,
    events: {} as DiscoveryUploadEvent,
    input: {} as DiscoveryUploadInput,
  },
  actors: {
    publishDiscovery: notProvidedActor<DataPlugin[], PublishInput>('publishDiscovery'),
  },
  guards: {
    hasYaml: ({ context }) => hasYaml(context),
    foundNone: (_, { found }: { found: number }) => found === 0,
  },
}).createMachine({
  id: 'discoveryUpload',
  context: ({ input }) => ({ workspace: input.workspace, yaml: '', errorLines: [], message: null, published: [] }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'user.edit': { actions: assign({ yaml: ({ event }) => event.yaml, errorLines: [], message: null }) },
        'user.next': { guard: 'hasYaml', target: 'publishing', actions: assign({ errorLines: [], message: null }) },
      },
    },
    publishing: {
      invoke: {
        id: 'publishDiscovery',
        src: 'publishDiscovery',
        input: ({ context }) => ({ workspace: context.workspace, yaml: context.yaml }),
        onDone: [
          { guard: { type: 'foundNone', params: ({ event }) => ({ found: event.output.length }) }, target: 'editing', actions: assign({ message: CATALOGUE_TEXTS.noPluginsFound }) },
          { target: 'published', actions: assign({ published: ({ event }) => event.output }) },
        ],
        onError: { target: 'editing', actions: assign(({ event }) => uploadFailure(event.error)) },
      },
    },
    published: {
      on: {
        'user.again': { target: 'editing', actions: assign({ yaml: '', published: [], errorLines: [], message: null }) },
      },
    },
  },
});

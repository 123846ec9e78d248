import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { MESSAGES } from '../../domain/errors';
import { datasetRedirect } from '../../domain/landing';
import type { QuestionAnswer, Workspace } from '../../domain/resources';
import { canSubmitQuestion } from '../../domain/validation';
import { failureText } from '../failureText';
import { notProvided, notProvidedActor } from '../notProvided';

// The research assistant (spec 000 section 2.10): a typed question goes to the workspace's
// 'questions' link; a found answer opens its dataset, no answer (204) shows
// 'We found no information related to your request.'. Whether the button shows at all
// (FEATURE_QUESTIONS) is the view's decision through domain questionsEnabled.

export type AssistantInput = { readonly workspace: Workspace };

export type AssistantContext = {
  readonly workspace: Workspace;
  readonly text: string;
  /** The no-answer text or a failure's text, shown under the question. */
  readonly message: string | null;
};

export type AssistantEvent =
  | { readonly type: 'user.open' }
  | { readonly type: 'user.type'; readonly text: string }
  | { readonly type: 'user.submit' }
  | { readonly type: 'user.close' };

export type AskInput = { readonly workspace: Workspace; readonly question: string };

export type OpenDatasetParams = { readonly workspaceId: string; readonly target: string; readonly path: string };

const nonBlank = (text: string | null | undefined): string | undefined =>
  typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined;

/** The dataset an answer points at: its alias, else its id; none for an answer naming neither. */
export function answerTarget(answer: QuestionAnswer | null): string | undefined {
  return answer === null ? undefined : (nonBlank(answer.alias) ?? nonBlank(answer.id));
}

export const assistantMachine = setup({
  types: {
    context: {} as AssistantContext,
    events: {} as AssistantEvent,
    input: {} as AssistantInput,
  },
  actors: {
    ask: notProvidedActor<QuestionAnswer | null, AskInput>('ask'),
  },
  actions: {
    /** Navigates to params.path (/l/{workspaceId}/dataset/{aliasOrId}). */
    openDataset: (_, _params: OpenDatasetParams) => notProvided('openDataset')(),
  },
  guards: {
    canSubmit: ({ context }) => canSubmitQuestion(context.text),
    hasTarget: (_, { answer }: { answer: QuestionAnswer | null }) => answerTarget(answer) !== undefined,
  },
}).createMachine({
  id: 'assistant',
  context: ({ input }) => ({ workspace: input.workspace, text: '', message: null }),
  initial: 'closed',
  states: {
    closed: {
      entry: assign({ text: '', message: null }),
      on: { 'user.open': 'open' },
    },
    open: {
      on: {
        'user.type': { actions: assign({ text: ({ event }) => event.text, message: null }) },
        'user.submit': { guard: 'canSubmit', target: 'asking', actions: assign({ message: null }) },
        'user.close': 'closed',
      },
    },
    asking: {
      on: { 'user.close': 'closed' },
      invoke: {
        id: 'ask',
        src: 'ask',
        input: ({ context }) => ({ workspace: context.workspace, question: context.text.trim() }),
        onDone: [
          {
            guard: { type: 'hasTarget', params: ({ event }) => ({ answer: event.output }) },
            target: 'closed',
            actions: {
              type: 'openDataset',
              params: ({ context, event }) => {
                const target = answerTarget(event.output) ?? '';
                return { workspaceId: context.workspace.id, target, path: datasetRedirect(target, context.workspace.id) };
              },
            },
          },
          { target: 'open', actions: assign({ message: MESSAGES.noAnswer }) },
        ],
        onError: { target: 'open', actions: assign({ message: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type AssistantSnapshot = SnapshotFrom<typeof assistantMachine>;

/** Enter submits only when the question has text. */
export function selectCanSubmit(snapshot: AssistantSnapshot): boolean {
  return snapshot.matches('open') && canSubmitQuestion(snapshot.context.text);
}

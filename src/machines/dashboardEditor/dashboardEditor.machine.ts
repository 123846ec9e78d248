import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { appProperty } from '../../domain/appProperties';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Workspace } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The dashboard page's editor of DASHBOARD_CONTENT: loading (the session's copy of the workspace
// is shown at once while a fresh one is read: another admin or tab may have saved since) →
// viewing; an admin ('update delete workspace') edits a draft with a live preview → saving →
// viewing with the saved workspace, or back to editing with the failure. Cancel drops the draft.

export const DASHBOARD_CONTENT = 'DASHBOARD_CONTENT';

export interface DashboardEditorInput {
  /** the session's copy of the workspace */
  readonly workspace: Workspace;
}

export interface SaveContentInput {
  readonly workspace: Workspace;
  readonly content: string;
}

export interface DashboardEditorContext {
  readonly workspace: Workspace;
  /** null while viewing */
  readonly draft: string | null;
  readonly error: string | null;
}

export type DashboardEditorEvent =
  | { readonly type: 'user.edit' }
  | { readonly type: 'user.change'; readonly value: string }
  | { readonly type: 'user.save' }
  | { readonly type: 'user.cancel' };

export const dashboardContentOf = (workspace: Workspace): string => appProperty(workspace, DASHBOARD_CONTENT) ?? '';

export const dashboardEditorMachine = setup({
  types: {
    context: {} as DashboardEditorContext,
    events: {} as DashboardEditorEvent,
    input: {} as DashboardEditorInput,
  },
  actors: {
    refreshWorkspace: notProvidedActor<Workspace, DashboardEditorInput>('refreshWorkspace'),
    saveContent: notProvidedActor<Workspace, SaveContentInput>('saveContent'),
  },
  actions: {
    startEditing: assign(({ context }) => ({ draft: dashboardContentOf(context.workspace), error: null })),
  },
  guards: {
    canEdit: ({ context }) => hasLink(context.workspace, REL.updateDeleteWorkspace),
  },
}).createMachine({
  id: 'dashboardEditor',
  context: ({ input }) => ({ workspace: input.workspace, draft: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'refreshWorkspace',
        src: 'refreshWorkspace',
        input: ({ context }) => ({ workspace: context.workspace }),
        onDone: { target: 'viewing', actions: assign({ workspace: ({ event }) => event.output }) },
        // the session's copy stays on show: a failed refresh is no reason to hide the dashboard
        onError: 'viewing',
      },
      // editing need not wait for the refresh: the save reads the workspace afresh anyway
      on: { 'user.edit': { guard: 'canEdit', target: 'editing', actions: 'startEditing' } },
    },
    viewing: {
      on: { 'user.edit': { guard: 'canEdit', target: 'editing', actions: 'startEditing' } },
    },
    editing: {
      on: {
        'user.change': { actions: assign({ draft: ({ event }) => event.value }) },
        'user.save': 'saving',
        'user.cancel': { target: 'viewing', actions: assign({ draft: null, error: null }) },
      },
    },
    saving: {
      invoke: {
        id: 'saveContent',
        src: 'saveContent',
        input: ({ context }) => ({ workspace: context.workspace, content: context.draft ?? '' }),
        onDone: { target: 'viewing', actions: assign({ workspace: ({ event }) => event.output, draft: null, error: null }) },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type DashboardEditorSnapshot = SnapshotFrom<typeof dashboardEditorMachine>;

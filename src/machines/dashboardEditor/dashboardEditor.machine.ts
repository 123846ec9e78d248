import { assign, emit, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { appProperty } from '../../domain/appProperties';
import { canMoveBlock, datasetBlock, moveBlock, parseBlocks, removeBlock, serialiseBlocks, setBlockText, textBlock, type DashboardBlock, type DatasetBlockView } from '../../domain/dashboard/blocks';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Workspace } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The dashboard page's editor of DASHBOARD_CONTENT: loading (the session's copy of the workspace
// is shown at once while a fresh one is read: another admin or tab may have saved since) →
// viewing; an admin ('update delete workspace') edits a draft with a live preview → saving →
// viewing with the saved workspace, or back to editing with the failure. Cancel drops the draft.
// While editing, the draft (DASHBOARD_CONTENT) and its blocks (src/domain/dashboard/blocks.ts)
// are kept together: a block event rewrites the draft from the blocks, a source edit re-reads the
// blocks from the draft. 'Add dataset' opens a picker that searches the workspace's datasets
// (debounced by the named delay `searchDelay`) and inserts the chosen one as a block of the
// chosen kind.

export const DASHBOARD_CONTENT = 'DASHBOARD_CONTENT';

export interface DashboardEditorInput {
  /** the session's copy of the workspace */
  readonly workspace: Workspace;
}

export interface SaveContentInput {
  readonly workspace: Workspace;
  readonly content: string;
}

/** A dataset the picker offers: what a block needs and what the card shows. */
export interface PickerDataset {
  readonly alias: string;
  readonly title: string;
}

export interface SearchDatasetsInput {
  readonly workspaceId: string;
  readonly q: string;
}

export interface DatasetPicker {
  readonly q: string;
  readonly view: DatasetBlockView;
  readonly results: readonly PickerDataset[];
  readonly error: string | null;
}

export interface DashboardEditorContext {
  readonly workspace: Workspace;
  /** null while viewing */
  readonly draft: string | null;
  /** the draft as blocks; empty while viewing */
  readonly blocks: readonly DashboardBlock[];
  readonly error: string | null;
  readonly picker: DatasetPicker;
  /** titles of datasets picked in this session, by alias, for the block cards */
  readonly titles: Readonly<Record<string, string>>;
}

export type DashboardEditorEvent =
  | { readonly type: 'user.edit' }
  | { readonly type: 'user.change'; readonly value: string }
  | { readonly type: 'user.addText' }
  | { readonly type: 'user.moveBlock'; readonly index: number; readonly by: -1 | 1 }
  | { readonly type: 'user.removeBlock'; readonly index: number }
  | { readonly type: 'user.blockText'; readonly index: number; readonly value: string }
  | { readonly type: 'user.openPicker' }
  | { readonly type: 'user.closePicker' }
  | { readonly type: 'user.search'; readonly q: string }
  | { readonly type: 'user.pickerView'; readonly view: DatasetBlockView }
  | { readonly type: 'user.pickDataset'; readonly dataset: PickerDataset }
  | { readonly type: 'user.save' }
  | { readonly type: 'user.cancel' };

/** Emitted when a save succeeded, for the page's toast. */
export type DashboardEditorEmitted = { readonly type: 'dashboard.saved' };

/** The picker waits this long after the last keystroke before it searches. */
export const PICKER_SEARCH_DELAY_MS = 300;

const CLOSED_PICKER: DatasetPicker = { q: '', view: 'chart', results: [], error: null };

/** The draft and blocks after a block change: the draft is written from the blocks. */
const withBlocks = (blocks: readonly DashboardBlock[]) => ({ blocks, draft: serialiseBlocks(blocks) });

export const dashboardContentOf = (workspace: Workspace): string => appProperty(workspace, DASHBOARD_CONTENT) ?? '';

export const dashboardEditorMachine = setup({
  types: {
    context: {} as DashboardEditorContext,
    events: {} as DashboardEditorEvent,
    input: {} as DashboardEditorInput,
    emitted: {} as DashboardEditorEmitted,
  },
  actors: {
    refreshWorkspace: notProvidedActor<Workspace, DashboardEditorInput>('refreshWorkspace'),
    saveContent: notProvidedActor<Workspace, SaveContentInput>('saveContent'),
    searchDatasets: notProvidedActor<readonly PickerDataset[], SearchDatasetsInput>('searchDatasets'),
  },
  delays: { searchDelay: PICKER_SEARCH_DELAY_MS },
  actions: {
    startEditing: assign(({ context }) => {
      const draft = dashboardContentOf(context.workspace);
      return { draft, blocks: parseBlocks(draft), error: null, picker: CLOSED_PICKER };
    }),
    stopEditing: assign({ draft: null, blocks: [], error: null, picker: CLOSED_PICKER }),
  },
  guards: {
    canEdit: ({ context }) => hasLink(context.workspace, REL.updateDeleteWorkspace),
    canMove: ({ context, event }) => event.type === 'user.moveBlock' && canMoveBlock(context.blocks, event.index, event.by),
    isBlock: ({ context, event }) => 'index' in event && Number.isInteger(event.index) && event.index >= 0 && event.index < context.blocks.length,
  },
}).createMachine({
  id: 'dashboardEditor',
  context: ({ input }) => ({ workspace: input.workspace, draft: null, blocks: [], error: null, picker: CLOSED_PICKER, titles: {} }),
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
      initial: 'blocks',
      on: {
        // the source stays the expert's way in: its text is kept as typed, the blocks follow it
        'user.change': { actions: assign(({ event }) => ({ draft: event.value, blocks: parseBlocks(event.value) })) },
        'user.addText': { actions: assign(({ context }) => withBlocks([...context.blocks, textBlock()])) },
        'user.moveBlock': { guard: 'canMove', actions: assign(({ context, event }) => withBlocks(moveBlock(context.blocks, event.index, event.by))) },
        'user.removeBlock': { guard: 'isBlock', actions: assign(({ context, event }) => withBlocks(removeBlock(context.blocks, event.index))) },
        'user.blockText': { guard: 'isBlock', actions: assign(({ context, event }) => withBlocks(setBlockText(context.blocks, event.index, event.value))) },
        'user.save': 'saving',
        'user.cancel': { target: 'viewing', actions: 'stopEditing' },
      },
      states: {
        blocks: {
          on: { 'user.openPicker': { target: 'picking', actions: assign({ picker: CLOSED_PICKER }) } },
        },
        picking: {
          // opening lists the newest datasets at once (an empty search), without the typing delay
          initial: 'searching',
          on: {
            'user.search': { target: '.waiting', actions: assign({ picker: ({ context, event }) => ({ ...context.picker, q: event.q }) }) },
            'user.pickerView': { actions: assign({ picker: ({ context, event }) => ({ ...context.picker, view: event.view }) }) },
            'user.pickDataset': {
              target: 'blocks',
              actions: assign(({ context, event }) => ({
                ...withBlocks([...context.blocks, datasetBlock(context.picker.view, event.dataset.alias, event.dataset.title)]),
                titles: { ...context.titles, [event.dataset.alias]: event.dataset.title },
                picker: CLOSED_PICKER,
              })),
            },
            'user.closePicker': { target: 'blocks', actions: assign({ picker: CLOSED_PICKER }) },
            'user.save': { target: '#dashboardEditor.saving', actions: assign({ picker: CLOSED_PICKER }) },
          },
          states: {
            waiting: { after: { searchDelay: 'searching' } },
            searching: {
              invoke: {
                id: 'searchDatasets',
                src: 'searchDatasets',
                input: ({ context }) => ({ workspaceId: context.workspace.id, q: context.picker.q }),
                onDone: { target: 'ready', actions: assign({ picker: ({ context, event }) => ({ ...context.picker, results: event.output, error: null }) }) },
                onError: { target: 'ready', actions: assign({ picker: ({ context, event }) => ({ ...context.picker, results: [], error: failureText(event.error) }) }) },
              },
            },
            ready: {},
          },
        },
      },
    },
    saving: {
      invoke: {
        id: 'saveContent',
        src: 'saveContent',
        input: ({ context }) => ({ workspace: context.workspace, content: context.draft ?? '' }),
        onDone: { target: 'viewing', actions: [assign({ workspace: ({ event }) => event.output }), 'stopEditing', emit({ type: 'dashboard.saved' } as const)] },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type DashboardEditorSnapshot = SnapshotFrom<typeof dashboardEditorMachine>;

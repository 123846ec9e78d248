import { assign, emit, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasLink, type HalLike } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Workspace } from '../../domain/resources';
import { fieldsOf, saveBody, WORKSPACE_FIELD_ERRORS, WORKSPACE_REDIRECT_MS, WORKSPACE_TEXTS, type AppProperty, type WorkspaceFormFields } from '../../domain/workspaceForm';
import { apiErrorOf } from '../apiError';
import { failureText } from '../failureText';
import { notProvided, notProvidedActor } from '../notProvided';

// The workspace form (spec 001 §2 'Workspace create and settings', §5, §7, §8) for /w/new,
// /w/{id} and /lab/{id}/settings. New: the owner's 'new workspace' link initialises an id, and
// Save PUTs its 'create workspace' link, shows 'Workspace created successfully!' and moves on to
// /l/{id}/data/new after 1 s. Existing: Save, Deploy, Regenerate the deployment secret, and
// Delete after 'Remove this workspace...', moving to / after 1 s.

export type WorkspaceFormInput = {
  /** 'new' creates */
  readonly workspaceId: string;
  /** what carries 'new workspace' (the profile): needed for 'new' only */
  readonly owner: HalLike | null;
};

type TextField = Exclude<keyof WorkspaceFormFields, 'appProperties' | 'imageUrl'>;

export type WorkspaceFormContext = WorkspaceFormInput & {
  readonly workspace: Workspace | null;
  readonly fields: WorkspaceFormFields;
  readonly banner: string | null;
  readonly fieldErrors: Readonly<Record<string, string>>;
  readonly notice: string | null;
  readonly loadError: string | null;
};

export type WorkspaceFormEvent =
  | { readonly type: 'user.field'; readonly field: TextField; readonly value: string }
  | { readonly type: 'user.logo'; readonly imageUrl: string | null }
  | { readonly type: 'user.addProperty' }
  | { readonly type: 'user.property'; readonly index: number; readonly property: AppProperty }
  | { readonly type: 'user.removeProperty'; readonly index: number }
  | { readonly type: 'user.save' }
  | { readonly type: 'user.deploy' }
  | { readonly type: 'user.regenerate' }
  | { readonly type: 'user.delete' }
  | { readonly type: 'user.confirm' }
  | { readonly type: 'user.cancel' }
  | { readonly type: 'user.retry' };

export type SaveWorkspaceInput = { readonly workspace: Workspace; readonly body: Record<string, unknown> };
export type WorkspaceInput = { readonly workspace: Workspace };
export type WorkspaceNoticeEmitted = { readonly type: 'workspace.notice'; readonly message: string };

/** Spec §5, §8: 400 errors of name, domains and setRepositoryUrl beside their fields; the rest a banner of their defaultMessage. */
export function saveFailure(error: unknown): { banner: string | null; fieldErrors: Record<string, string> } {
  const apiError = apiErrorOf(error);
  if (apiError.kind === 'response') {
    const inline = new Map<string, string>();
    const others: string[] = [];
    for (const entry of apiError.body?.errors ?? []) {
      if ((WORKSPACE_FIELD_ERRORS as readonly string[]).includes(entry.field)) {
        if (!inline.has(entry.field)) inline.set(entry.field, entry.defaultMessage);
      } else others.push(entry.defaultMessage);
    }
    const message = apiError.body?.message?.trim();
    const banner = others.length > 0 ? others.join(' ') : inline.size > 0 ? null : message !== undefined && message !== '' ? message : WORKSPACE_TEXTS.unexpected;
    return { banner, fieldErrors: Object.fromEntries(inline) };
  }
  const text = failureText(error);
  return { banner: text.trim() === '' ? WORKSPACE_TEXTS.unexpected : text, fieldErrors: {} };
}

const without = (errors: Readonly<Record<string, string>>, key: string) => Object.fromEntries(Object.entries(errors).filter(([k]) => k !== key));
const MAX_PROPERTIES = 200;

export const workspaceFormMachine = setup({
  types: {
    context: {} as WorkspaceFormContext,
    events: {} as WorkspaceFormEvent,
    input: {} as WorkspaceFormInput,
    emitted: {} as WorkspaceNoticeEmitted,
  },
  actors: {
    load: notProvidedActor<Workspace, WorkspaceFormInput>('load'),
    save: notProvidedActor<Workspace, SaveWorkspaceInput>('save'),
    deploy: notProvidedActor<unknown, WorkspaceInput>('deploy'),
    remove: notProvidedActor<unknown, WorkspaceInput>('remove'),
  },
  actions: {
    // The router's moves, provided by the composition root.
    showCreated: (_, _params: { workspaceId: string }) => notProvided('showCreated')(),
    leave: notProvided('leave'),
  },
  delays: { redirect: WORKSPACE_REDIRECT_MS },
  guards: {
    canSave: ({ context }) => selectCanSave(context),
    canDeploy: ({ context }) => context.workspace !== null && hasLink(context.workspace, REL.createDeployment),
    canRegenerate: ({ context }) => context.workspace !== null && hasLink(context.workspace, REL.updateDeleteWorkspace),
    canDelete: ({ context }) => context.workspace !== null && hasLink(context.workspace, REL.updateDeleteWorkspace),
    creating: ({ context }) => context.workspace !== null && hasLink(context.workspace, REL.createWorkspace),
    roomForProperty: ({ context }) => context.fields.appProperties.length < MAX_PROPERTIES,
  },
}).createMachine({
  id: 'workspaceForm',
  context: ({ input }) => ({ ...input, workspace: null, fields: fieldsOf(null), banner: null, fieldErrors: {}, notice: null, loadError: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ workspaceId: context.workspaceId, owner: context.owner }),
        onDone: { target: 'editing', actions: assign(({ event }) => ({ workspace: event.output, fields: fieldsOf(event.output), loadError: null })) },
        onError: { target: 'failed', actions: assign({ loadError: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': 'loading' } },
    editing: {
      on: {
        'user.field': {
          actions: assign(({ context, event }) => ({
            fields: { ...context.fields, [event.field]: event.value },
            fieldErrors: without(context.fieldErrors, event.field === 'repositoryUrl' ? 'setRepositoryUrl' : event.field),
          })),
        },
        'user.logo': { actions: assign(({ context, event }) => ({ fields: { ...context.fields, imageUrl: event.imageUrl } })) },
        'user.addProperty': { guard: 'roomForProperty', actions: assign(({ context }) => ({ fields: { ...context.fields, appProperties: [...context.fields.appProperties, { key: '', value: '' }] } })) },
        'user.property': {
          actions: assign(({ context, event }) => ({
            fields: { ...context.fields, appProperties: context.fields.appProperties.map((p, i) => (i === event.index ? event.property : p)) },
          })),
        },
        'user.removeProperty': {
          actions: assign(({ context, event }) => ({ fields: { ...context.fields, appProperties: context.fields.appProperties.filter((_, i) => i !== event.index) } })),
        },
        'user.save': { guard: 'canSave', target: 'saving', actions: assign({ banner: null, fieldErrors: {}, notice: null }) },
        'user.deploy': { guard: 'canDeploy', target: 'deploying', actions: assign({ banner: null, notice: null }) },
        'user.regenerate': { guard: 'canRegenerate', target: 'regenerating', actions: assign({ banner: null, notice: null }) },
        'user.delete': { guard: 'canDelete', target: 'confirming' },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({ workspace: context.workspace!, body: saveBody(context.fields) }),
        onDone: [
          {
            guard: 'creating',
            target: 'created',
            actions: [
              assign(({ event }) => ({ workspace: event.output, notice: WORKSPACE_TEXTS.created })),
              emit((): WorkspaceNoticeEmitted => ({ type: 'workspace.notice', message: WORKSPACE_TEXTS.created })),
            ],
          },
          {
            target: 'editing',
            actions: [
              assign(({ event }) => ({ workspace: event.output, fields: fieldsOf(event.output), notice: `${event.output.name} Saved` })),
              emit(({ event }): WorkspaceNoticeEmitted => ({ type: 'workspace.notice', message: `${event.output.name} Saved` })),
            ],
          },
        ],
        onError: { target: 'editing', actions: assign(({ event }) => saveFailure(event.error)) },
      },
    },
    // Regenerate (spec §7): the same PUT with name, domains, imageUrl and an empty deploymentSecret.
    regenerating: {
      invoke: {
        id: 'regenerate',
        src: 'save',
        input: ({ context }) => ({
          workspace: context.workspace!,
          body: { name: context.workspace!.name, domains: context.workspace!.domains ?? [], imageUrl: context.workspace!.imageUrl ?? null, deploymentSecret: '' },
        }),
        // Only the secret changes on the page: what the user is typing stays.
        onDone: { target: 'editing', actions: assign(({ event }) => ({ workspace: event.output })) },
        onError: { target: 'editing', actions: assign(({ event }) => ({ banner: saveFailure(event.error).banner ?? WORKSPACE_TEXTS.unexpected })) },
      },
    },
    deploying: {
      invoke: {
        id: 'deploy',
        src: 'deploy',
        input: ({ context }) => ({ workspace: context.workspace! }),
        onDone: {
          target: 'editing',
          actions: [assign({ notice: WORKSPACE_TEXTS.deployStarted }), emit((): WorkspaceNoticeEmitted => ({ type: 'workspace.notice', message: WORKSPACE_TEXTS.deployStarted }))],
        },
        onError: { target: 'editing', actions: assign(({ event }) => ({ banner: saveFailure(event.error).banner ?? WORKSPACE_TEXTS.unexpected })) },
      },
    },
    confirming: {
      on: {
        'user.confirm': 'deleting',
        'user.cancel': 'editing',
      },
    },
    deleting: {
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ workspace: context.workspace! }),
        onDone: {
          target: 'deleted',
          actions: [
            assign(({ context }) => ({ notice: `${context.workspace?.name ?? 'Workspace'} deleted` })),
            emit(({ context }): WorkspaceNoticeEmitted => ({ type: 'workspace.notice', message: `${context.workspace?.name ?? 'Workspace'} deleted` })),
          ],
        },
        onError: { target: 'editing', actions: assign(({ event }) => ({ banner: saveFailure(event.error).banner ?? WORKSPACE_TEXTS.unexpected })) },
      },
    },
    created: {
      after: { redirect: { target: 'done', actions: { type: 'showCreated', params: ({ context }) => ({ workspaceId: context.workspace!.id }) } } },
    },
    deleted: {
      after: { redirect: { target: 'done', actions: 'leave' } },
    },
    done: { type: 'final' },
  },
});

export type WorkspaceFormSnapshot = SnapshotFrom<typeof workspaceFormMachine>;

/** Save needs a name and a link to save by. */
export function selectCanSave(context: WorkspaceFormContext): boolean {
  if (context.fields.name.trim() === '' || context.workspace === null) return false;
  return hasLink(context.workspace, REL.createWorkspace) || hasLink(context.workspace, REL.updateDeleteWorkspace);
}

/** Spec §5: Save is disabled while saving, deploying or deleting (and after, while the page moves on). */
export function selectBusy(snapshot: WorkspaceFormSnapshot): boolean {
  return ['saving', 'regenerating', 'deploying', 'deleting', 'created', 'deleted', 'done'].some((state) => snapshot.matches(state as never));
}

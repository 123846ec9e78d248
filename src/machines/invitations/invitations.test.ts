import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Invitation, Workspace } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { invitationsActors } from './invitations.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { invitationsMachine, selectBusyId, type SendInput, type TargetInput, type WorkspaceInput } from './invitations.machine';
import { deferred } from '../testing/deferred.fixture';

const BASE = 'http://api.test/api';
const workspace: Workspace = {
  id: 'w1',
  name: 'Acme',
  _links: { self: { href: `${BASE}/workspaces/w1` }, invitations: { href: `${BASE}/workspaces/w1/invitations` }, 'create invitation': { href: `${BASE}/workspaces/w1/invitations` } },
};
const pending: Invitation = {
  id: 'i1',
  email: 'ann@example.com',
  status: 'PENDING',
  _links: { self: { href: `${BASE}/invitations/i1` }, 'withdraw invitation': { href: `${BASE}/invitations/i1/withdrawal` }, 'delete invitation': { href: `${BASE}/invitations/i1` } },
};
const accepted: Invitation = { id: 'i2', email: 'bob@example.com', status: 'ACCEPTED', _links: { self: { href: `${BASE}/invitations/i2` }, 'withdraw invitation': { href: `${BASE}/invitations/i2/withdrawal` }, 'add administrator': { href: `${BASE}/invitations/i2/administrator` } } };
/** what a plain member sees: no links to act */
const readOnly: Invitation = { id: 'i3', email: 'cy@example.com', status: 'PENDING', _links: { self: { href: `${BASE}/invitations/i3` } } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.list': [{ output: [pending, accepted, readOnly] }],
  'xstate.error.actor.list': [{ error: offline }],
  'xstate.done.actor.send': [{ output: undefined }],
  'xstate.error.actor.send': [{ error: offline }],
  'xstate.done.actor.resend': [{ output: undefined }],
  'xstate.error.actor.resend': [{ error: offline }],
  'xstate.done.actor.revoke': [{ output: undefined }],
  'xstate.error.actor.revoke': [{ error: offline }],
  'xstate.done.actor.remove': [{ output: undefined }],
  'xstate.error.actor.remove': [{ error: offline }],
  'xstate.done.actor.toggleAdmin': [{ output: undefined }],
  'xstate.error.actor.toggleAdmin': [{ error: offline }],
  'user.invite': [{ text: 'ann@example.com, bob@example.com' }, { text: 'ann@example.com, nope' }],
  'user.resend': [{ invitation: pending }, { invitation: accepted }, { invitation: readOnly }],
  'user.revoke': [{ invitation: pending }, { invitation: readOnly }],
  'user.delete': [{ invitation: pending }, { invitation: accepted }],
  'user.toggleAdmin': [{ invitation: accepted }, { invitation: pending }],
  'user.retry': [{}],
};

describe('the invitations list (model-based)', () => {
  const input = { workspace };
  const options = { input, events, stopWhen: (s: { context: { error: string | null; formError: string | null } }) => s.context.error !== null || s.context.formError !== null };
  const paths = modelPaths(invitationsMachine, options);

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(invitationsMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(invitationsMachine, paths, options)).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(invitationsMachine, path, {
      input,
      states: {
        // Only an invitation carrying the links is acted on; a member's read-only row never is.
        resending: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { invitation: Invitation }).invitation.id).toBe('i1'),
        revoking: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { invitation: Invitation }).invitation.id).toBe('i1'),
        deleting: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { invitation: Invitation }).invitation.id).toBe('i1'),
        togglingAdmin: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { invitation: Invitation }).invitation.id).toBe('i2'),
        sending: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { emails: string[] }).emails).toEqual(['ann@example.com', 'bob@example.com']),
      },
    });
  });
});

describe('invitations scenarios', () => {
  it('the real actors: invite POSTs each address with the toast; resend withdraws then invites; the server message is shown', async () => {
    const page = (items: Invitation[]) => ({ body: { page: { size: 99, totalElements: items.length, totalPages: 1, number: 0 }, _embedded: { invitations: items } } });
    const fake = fakeFetch(
      page([pending]),
      { status: 201, body: pending },
      page([pending]),
      { status: 200, body: { ...pending, status: 'REVOKED' } },
      { status: 201, body: pending },
      page([pending]),
      { status: 409, body: { timestamp: '2026-01-01T00:00:00Z', status: 409, error: 'Conflict', message: 'ann@example.com has already been invited', path: '/api/workspaces/w1/invitations', errors: [] } },
      page([pending]),
    );
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(invitationsMachine.provide({ actors: invitationsActors(client) }), { input: { workspace } }).start();
    const toasts: string[] = [];
    actor.on('invitations.toast', (event) => void toasts.push(event.message));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.invite', text: ' ann@example.com ' });
    await waitFor(actor, (s) => s.matches('ready') && toasts.length === 1);
    actor.send({ type: 'user.resend', invitation: pending });
    await waitFor(actor, (s) => s.matches('ready') && toasts.length === 2);
    actor.send({ type: 'user.invite', text: 'ann@example.com' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.formError !== null);
    expect(toasts).toEqual(['Invitation sent successfully', 'Invitation for ann@example.com was revoked and resent']);
    expect(actor.getSnapshot().context.formError).toBe('ann@example.com has already been invited');
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET ${BASE}/workspaces/w1/invitations?size=99`,
      `POST ${BASE}/workspaces/w1/invitations`,
      `GET ${BASE}/workspaces/w1/invitations?size=99`,
      `PUT ${BASE}/invitations/i1/withdrawal`,
      `POST ${BASE}/workspaces/w1/invitations`,
      `GET ${BASE}/workspaces/w1/invitations?size=99`,
      `POST ${BASE}/workspaces/w1/invitations`,
      `GET ${BASE}/workspaces/w1/invitations?size=99`,
    ]);
    actor.stop();
  });
});

// Independent checks (issue 40): the actors are the test's own, the expected lists are computed
// here, and the texts are the spec's words, not INVITATION_TEXT's.
describe('invitations, checked by hand', () => {
  function start(overrides: { remove?: () => Promise<unknown>; revoke?: () => Promise<unknown>; resend?: () => Promise<unknown> } = {}) {
    const lists: ReturnType<typeof deferred<Invitation[]>>[] = [];
    const calls: string[] = [];
    const actors = {
      list: fromPromise<Invitation[], WorkspaceInput>(() => {
        calls.push('list');
        const next = deferred<Invitation[]>();
        lists.push(next);
        return next.promise;
      }),
      send: fromPromise<unknown, SendInput>(({ input }) => {
        calls.push(`send ${input.emails.join(',')}`);
        return Promise.resolve();
      }),
      resend: fromPromise<unknown, TargetInput>(({ input }) => {
        calls.push(`resend ${input.invitation.id}`);
        return overrides.resend ? overrides.resend() : Promise.resolve();
      }),
      revoke: fromPromise<unknown, TargetInput>(({ input }) => {
        calls.push(`revoke ${input.invitation.id}`);
        return overrides.revoke ? overrides.revoke() : Promise.resolve();
      }),
      remove: fromPromise<unknown, TargetInput>(({ input }) => {
        calls.push(`remove ${input.invitation.id}`);
        return overrides.remove ? overrides.remove() : Promise.resolve();
      }),
      toggleAdmin: fromPromise<unknown, TargetInput>(() => Promise.resolve()),
    };
    const actor = createActor(invitationsMachine.provide({ actors }), { input: { workspace } }).start();
    const toasts: { message: string; intent: string }[] = [];
    actor.on('invitations.toast', ({ message, intent }) => void toasts.push({ message, intent }));
    return { actor, lists, calls, toasts };
  }

  it('a failed resend says why in an error toast (the server\'s words only for a refusal it explains) and reads the list again', async () => {
    const refusal = (status: number, body: object) => new ApiFailure({ kind: 'response', status, message: `[${String(status)}]`, body: body as never });
    const cases: [Error, string][] = [
      [offline, 'Unexpected error while resending invitation'],
      [refusal(403, { message: 'Forbidden' }), 'Unexpected error while resending invitation'],
      [refusal(503, { message: 'Down' }), 'Unexpected error while resending invitation'],
      [refusal(409, { message: 'This address has already joined' }), 'This address has already joined'],
      [refusal(400, { message: 'Validation failed', errors: [{ field: 'email', objectName: 'invitation', defaultMessage: 'is outside the workspace domains' }] }), 'is outside the workspace domains'],
    ];
    for (const [error, said] of cases) {
      const { actor, lists, toasts } = start({ resend: () => Promise.reject(error) });
      lists[0]!.resolve([pending]);
      await waitFor(actor, (s) => s.matches('ready'));
      actor.send({ type: 'user.resend', invitation: pending });
      await waitFor(actor, (s) => s.matches('loading') && lists.length === 2);
      expect(toasts).toEqual([{ message: said, intent: 'error' }]);
      actor.stop();
    }
  });

  it('nothing shows busy once a resend is over: reading, listed, sending, or failed to read', async () => {
    // the list read after a resend fails: the target is still set, and shows nothing busy
    const failing = start();
    failing.lists[0]!.resolve([pending]);
    await waitFor(failing.actor, (s) => s.matches('ready'));
    failing.actor.send({ type: 'user.resend', invitation: pending });
    await waitFor(failing.actor, (s) => s.matches('loading') && failing.lists.length === 2);
    failing.lists[1]!.reject(offline);
    await waitFor(failing.actor, (s) => s.matches('failed'));
    expect(failing.actor.getSnapshot().context.target?.id).toBe('i1');
    expect(selectBusyId(failing.actor.getSnapshot())).toBeNull();
    failing.actor.stop();

    const { actor, lists, calls } = start();
    lists[0]!.resolve([pending]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.resend', invitation: pending });
    expect(selectBusyId(actor.getSnapshot())).toBe('i1');
    await waitFor(actor, (s) => s.matches('loading') && lists.length === 2);
    expect(calls).toEqual(['list', 'resend i1', 'list']);
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    lists[1]!.resolve([pending]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'user.invite', text: 'dee@example.com' });
    expect(actor.getSnapshot().matches('sending')).toBe(true);
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    await waitFor(actor, (s) => s.matches('loading') && lists.length === 3);
    lists[2]!.reject(offline);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    actor.stop();
  });

  it('the real resend withdraws only a pending invitation it may withdraw, then invites the address again', async () => {
    const resend = async (invitation: Invitation, ...replies: Parameters<typeof fakeFetch>) => {
      const fake = fakeFetch(...replies);
      const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
      const actor = createActor(invitationsActors(client).resend, { input: { workspace, invitation } }).start();
      await new Promise((resolve, reject) => actor.subscribe({ complete: () => resolve(undefined), error: reject }));
      return fake.calls.map((c) => `${c.method} ${c.url}`);
    };
    const created = { status: 201, body: { ...pending, status: 'PENDING' } };
    expect(await resend(pending, { status: 204 }, created)).toEqual([`PUT ${BASE}/invitations/i1/withdrawal`, `POST ${BASE}/workspaces/w1/invitations`]);
    const revoked: Invitation = { ...pending, status: 'REVOKED' };
    expect(await resend(revoked, created)).toEqual([`POST ${BASE}/workspaces/w1/invitations`]);
    const { 'withdraw invitation': _, ...others } = pending._links!;
    expect(await resend({ ...pending, _links: others }, created)).toEqual([`POST ${BASE}/workspaces/w1/invitations`]);
  });

  it('takes a deleted invitation off the list at once, before the list is read again', async () => {
    const { actor, lists, calls } = start();
    lists[0]!.resolve([pending, accepted, readOnly]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.delete', invitation: pending });
    // the delete is done and the second read has not answered yet
    await waitFor(actor, (s) => s.matches('loading') && lists.length === 2);
    expect(calls).toEqual(['list', 'remove i1', 'list']);
    expect(actor.getSnapshot().context.invitations?.map((i) => i.id)).toEqual(['i2', 'i3']);
    lists[1]!.resolve([accepted, readOnly]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.invitations?.map((i) => i.id)).toEqual(['i2', 'i3']);
    actor.stop();
  });

  it('keeps a deleted invitation on the list when its delete fails', async () => {
    const { actor, lists } = start({ remove: () => Promise.reject(offline) });
    lists[0]!.resolve([pending, accepted]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.delete', invitation: pending });
    await waitFor(actor, (s) => s.matches('loading') && lists.length === 2);
    expect(actor.getSnapshot().context.invitations?.map((i) => i.id)).toEqual(['i1', 'i2']);
    actor.stop();
  });

  it('says in an error toast that a revoke failed, and reads the list again', async () => {
    const { actor, lists, calls, toasts } = start({ revoke: () => Promise.reject(offline) });
    lists[0]!.resolve([pending]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.revoke', invitation: pending });
    await waitFor(actor, (s) => s.matches('loading') && lists.length === 2);
    expect(calls).toEqual(['list', 'revoke i1', 'list']);
    expect(toasts).toEqual([{ message: 'Error while withdrawing invitation. Please try again.', intent: 'error' }]);
    actor.stop();
  });

  it('says a successful revoke in a success toast naming the address', async () => {
    const { actor, lists, toasts } = start();
    lists[0]!.resolve([pending]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.revoke', invitation: pending });
    await waitFor(actor, (s) => s.matches('loading') && lists.length === 2);
    expect(toasts).toHaveLength(1);
    expect(toasts[0]?.intent).toBe('success');
    expect(toasts[0]?.message).toContain('ann@example.com');
    actor.stop();
  });

  it('shows an error under the form for an invalid address and sends nothing', async () => {
    const { actor, lists, calls, toasts } = start();
    lists[0]!.resolve([]);
    await waitFor(actor, (s) => s.matches('ready'));
    for (const text of ['nope', 'ann@example.com, nope', 'ann@', '@example.com', '']) {
      actor.send({ type: 'user.invite', text });
      expect(actor.getSnapshot().value, text).toBe('ready');
      expect(actor.getSnapshot().context.formError, text).toBe('Enter valid email address');
    }
    expect(calls).toEqual(['list']);
    expect(toasts).toEqual([]);
    // a valid address clears it and is sent
    actor.send({ type: 'user.invite', text: 'dee@example.com' });
    expect(actor.getSnapshot().context.formError).toBeNull();
    await waitFor(actor, (s) => s.matches('loading') && lists.length === 2);
    expect(calls).toEqual(['list', 'send dee@example.com', 'list']);
    actor.stop();
  });
});

describe('invitations, each request cancelled', () => {
  it('cancels each request when the page is left before it answers', async () => {
    // resend withdraws first (the invitation is pending), then invites again: both carry the signal
    const inputs = {
      list: { workspace },
      send: { workspace, emails: ['ann@example.com'] },
      resend: { workspace, invitation: pending },
      revoke: { workspace, invitation: pending },
      remove: { workspace, invitation: pending },
      toggleAdmin: { workspace, invitation: accepted },
    };
    expect(await requestsCancelledOnStop(invitationsActors, inputs)).toEqual({ list: true, send: true, resend: true, revoke: true, remove: true, toggleAdmin: true });
    const revoked = { ...pending, status: 'REVOKED' as const };
    expect(await requestsCancelledOnStop(invitationsActors, { resend: { workspace, invitation: revoked } })).toEqual({ resend: true });
  });

  function held() {
    const pending: Record<string, ReturnType<typeof deferred<unknown>>[]> = {};
    const one = <I,>(id: string) =>
      fromPromise<unknown, I>(() => {
        const next = deferred<unknown>();
        (pending[id] ??= []).push(next);
        return next.promise;
      });
    const actors = { list: one<WorkspaceInput>('list'), send: one<SendInput>('send'), resend: one<TargetInput>('resend'), revoke: one<TargetInput>('revoke'), remove: one<TargetInput>('remove'), toggleAdmin: one<TargetInput>('toggleAdmin') };
    const actor = createActor(invitationsMachine.provide({ actors: actors as never }), { input: { workspace } }).start();
    const toasts: string[] = [];
    actor.on('invitations.toast', ({ message, intent }) => void toasts.push(`${intent}: ${message}`));
    const answer = (id: string) => pending[id]!.at(-1)!;
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    return { actor, answer, toasts, settle };
  }

  it('a failed list says so; retry clears the message and reads again', async () => {
    const { actor, answer, settle } = held();
    answer('list').reject(offline);
    await settle();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('Error loading invitations. Please try again.');
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.stop();
  });

  it("which invitation is busy: the one acted on, and none while the list loads, fails, is shown or an invitation is sent", async () => {
    const { actor, answer, settle } = held();
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    answer('list').resolve([pending, accepted]);
    await settle();
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    for (const [event, id] of [
      [{ type: 'user.revoke', invitation: pending }, 'revoke'],
      [{ type: 'user.toggleAdmin', invitation: accepted }, 'toggleAdmin'],
      [{ type: 'user.delete', invitation: pending }, 'remove'],
    ] as const) {
      actor.send(event);
      expect(selectBusyId(actor.getSnapshot())).toBe(event.invitation.id);
      answer(id).resolve(undefined);
      await settle();
      expect(actor.getSnapshot().value).toBe('loading');
      expect(selectBusyId(actor.getSnapshot())).toBeNull();
      answer('list').resolve([pending, accepted]);
      await settle();
    }
    actor.send({ type: 'user.invite', text: 'new@example.com' });
    expect(actor.getSnapshot().value).toBe('sending');
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    answer('send').resolve(undefined);
    await settle();
    answer('list').reject(offline);
    await settle();
    expect(selectBusyId(actor.getSnapshot())).toBeNull();
    actor.stop();
  });

  it("a failed send or resend says the server's message for a refusal it explains (4xx but 403), else the spec's words", async () => {
    const refusal = (status: number, message?: string) => new ApiFailure({ kind: 'response', status, message: `[${String(status)}]`, ...(message === undefined ? {} : { body: { message } as never }) });
    for (const [error, expected] of [
      [refusal(409, 'Already invited'), 'Already invited'],
      [refusal(499, 'Edge'), 'Edge'],
      [refusal(403, 'Forbidden'), 'Unexpected error while resending invitation'],
      [refusal(500, 'Boom'), 'Unexpected error while resending invitation'],
      [refusal(409), 'Unexpected error while resending invitation'],
      [offline, 'Unexpected error while resending invitation'],
    ] as const) {
      const { actor, answer, toasts, settle } = held();
      answer('list').resolve([pending]);
      await settle();
      actor.send({ type: 'user.resend', invitation: pending });
      expect(actor.getSnapshot().value).toBe('resending');
      answer('resend').reject(error);
      await settle();
      expect(toasts).toEqual([`error: ${expected}`]);
      actor.stop();
    }
    const { actor, answer, settle } = held();
    answer('list').resolve([pending]);
    await settle();
    actor.send({ type: 'user.invite', text: 'new@example.com' });
    answer('send').reject(refusal(400, 'Domain not allowed'));
    await settle();
    expect(actor.getSnapshot().context.formError).toBe('Domain not allowed');
    actor.stop();
  });

  it('a sent invitation is said in a success toast and the form empties; a toggle of admin, done or failed, reads the list again', async () => {
    const { actor, answer, toasts, settle } = held();
    answer('list').resolve([pending, accepted]);
    await settle();
    actor.send({ type: 'user.invite', text: 'new@example.com' });
    expect(actor.getSnapshot().context.emails).toEqual(['new@example.com']);
    answer('send').resolve(undefined);
    await settle();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.emails).toEqual([]);
    expect(toasts).toEqual(['success: Invitation sent successfully']);
    for (const outcome of ['done', 'failed'] as const) {
      answer('list').resolve([pending, accepted]);
      await settle();
      actor.send({ type: 'user.toggleAdmin', invitation: accepted });
      expect(actor.getSnapshot().value).toBe('togglingAdmin');
      if (outcome === 'done') answer('toggleAdmin').resolve(undefined);
      else answer('toggleAdmin').reject(offline);
      await settle();
      expect(actor.getSnapshot().value).toBe('loading');
    }
    actor.stop();
  });
});

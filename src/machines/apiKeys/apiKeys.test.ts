import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { API_KEY_NAME_REQUIRED } from '../../domain/validation';
import type { ApiKey } from '../../domain/resources';
import { COPIED_TOAST_MS } from '../../domain/constants';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ModelStep } from '../testing';
import { apiKeysActors } from './apiKeys.actors';
import { apiKeysMachine, selectCreateEnabled, selectNewEnabled } from './apiKeys.machine';
import type { ApiKeysContext } from './apiKeys.machine';

const API = 'http://api.test/api';
const links = (id: string) => ({ 'update apikey': { href: `${API}/apikeys/${id}` }, 'delete apikey': { href: `${API}/apikeys/${id}` } });
const CI: ApiKey = { id: 'k1', name: 'ci', clientId: 'client-1', _links: links('k1') };
const DEFAULT: ApiKey = { id: 'kd', name: 'default', clientId: 'client-d', _links: links('kd') };
const DRAFT: ApiKey = { id: 'k2', name: null, _links: { 'create apikey': { href: `${API}/apikeys/k2` } } };
const CREATED: ApiKey = { id: 'k2', name: 'deploy', clientId: 'client-2', clientSecret: 's3cret', _links: links('k2') };
const RENAMED: ApiKey = { ...CI, name: 'renamed' };
const boom = new Error('[500] boom');

const loadCases = {
  'xstate.done.actor.loadKeys': [{ output: [CI, DEFAULT] }],
  'xstate.error.actor.loadKeys': [{ error: boom }],
};

// Two models rather than one: creating a key and maintaining the list meet only in `idle`, and
// crossing every list state with every creation state multiplies paths without testing more.
const creation = {
  ...loadCases,
  'user.rename': [],
  'user.delete': [],
  'xstate.done.actor.draftKey': [{ output: DRAFT }],
  'xstate.error.actor.draftKey': [{ error: boom }],
  'user.typeName': [{ name: '' }, { name: '   ' }, { name: ' deploy ' }],
  'xstate.done.actor.createKey': [{ output: CREATED }],
  'xstate.error.actor.createKey': [{ error: boom }],
  'xstate.done.actor.copySecret': [{ output: undefined }],
  'xstate.error.actor.copySecret': [{ error: new Error('Write permission denied') }],
};

const maintenance = {
  ...loadCases,
  'user.new': [],
  // Only the first is worth a call: blank, unchanged and unknown keys are refused by the guard.
  'user.rename': [
    { id: 'k1', name: ' renamed ' },
    { id: 'k1', name: '   ' },
    { id: 'k1', name: 'ci' },
    { id: 'ghost', name: 'x' },
  ],
  'xstate.done.actor.renameKey': [{ output: RENAMED }],
  'xstate.error.actor.renameKey': [{ error: boom }],
  'user.delete': [{ id: 'k1' }, { id: 'kd' }, { id: 'ghost' }],
  'xstate.done.actor.deleteKey': [{ output: undefined }],
  'xstate.error.actor.deleteKey': [{ error: boom }],
};

const input = { canCreate: true };
const models = [
  ['creation', creation],
  ['list maintenance', maintenance],
] as const;
const paths = models.flatMap(([, events]) => modelPaths(apiKeysMachine, { input, events }));

const ids = (keys: readonly ApiKey[]) => keys.map((key) => key.id);

/** The spec's rules for one transition, checked on every step of every generated path. */
function checkStep(before: ModelStep, after: ModelStep): void {
  const event = after.event as { type: string; id?: string; name?: string; output?: unknown };
  const was = before.state.context as ApiKeysContext;
  const now = after.state.context as ApiKeysContext;
  for (const key of now.keys) expect(key.clientSecret).toBeUndefined();
  if (event.type.startsWith('xstate.error.actor.')) {
    expect(now.keys).toEqual(was.keys);
    expect(now.error === boom.message || now.error === 'Write permission denied').toBe(true);
  }
  switch (event.type) {
    case 'user.new':
      expect(was.canCreate).toBe(true);
      break;
    case 'user.create':
      if (was.name.trim() === '') {
        expect(after.state.matches('naming')).toBe(true);
        expect(now.nameError).toBe(API_KEY_NAME_REQUIRED);
      } else expect(after.state.matches('creating')).toBe(true);
      break;
    case 'xstate.done.actor.createKey':
      expect(after.state.matches({ issued: 'shown' })).toBe(true);
      expect(now.secret).toBe('s3cret');
      expect(now.keys.find((k) => k.id === 'k2')?.name).toBe('deploy');
      expect(ids(now.keys).filter((id) => id === 'k2')).toHaveLength(1);
      break;
    case 'user.closeIssued':
      expect(now.secret).toBeNull();
      break;
    case 'user.rename':
      expect(event.name?.trim()).not.toBe('');
      expect(was.keys.find((k) => k.id === event.id)?.name).not.toBe(event.name?.trim());
      break;
    case 'xstate.done.actor.deleteKey': {
      const deleted = was.pendingDelete;
      expect(deleted).not.toBeNull();
      if (deleted?.name === 'default') {
        // Deleting 'default' reloads the list; any other key goes locally.
        expect(after.state.matches('loading')).toBe(true);
        expect(now.keys).toEqual(was.keys);
      } else {
        expect(after.state.matches('idle')).toBe(true);
        expect(ids(now.keys)).toEqual(ids(was.keys).filter((id) => id !== deleted?.id));
      }
      break;
    }
  }
}

describe('apiKeys machine, generated paths', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(apiKeysMachine, paths)).toEqual([]);
    for (const [, events] of models) expect(unwalkedTransitions(apiKeysMachine, paths, { input, events })).toEqual([]);
  });

  it('reaches the spec-critical situations', () => {
    const lastEvents = paths.flatMap((p) => p.steps.map((s) => s.event.type));
    for (const type of ['user.confirmDelete', 'user.closeIssued', 'xstate.after.copiedToast.apiKeys.issued.copied', 'xstate.done.actor.renameKey']) {
      expect(lastEvents).toContain(type);
    }
    const deletedDefault = paths.some((p) =>
      p.steps.some((s, i) => s.event.type === 'xstate.done.actor.deleteKey' && p.steps[i - 1]?.state.context.pendingDelete?.name === 'default'),
    );
    expect(deletedDefault).toBe(true);
  });

  it('keeps the rules on every step', () => {
    for (const path of paths) {
      for (let i = 1; i < path.steps.length; i += 1) checkStep(path.steps[i - 1]!, path.steps[i]!);
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(apiKeysMachine, path, {
      input,
      states: {
        loading: (_s, { invocations }) => expect(invocations.at(-1)).toMatchObject({ id: 'loadKeys', src: 'loadKeys' }),
        drafting: (_s, { invocations }) => expect(invocations.at(-1)).toMatchObject({ id: 'draftKey', src: 'draftKey' }),
        naming: (snapshot) => {
          const context = snapshot.context as ApiKeysContext;
          expect(context.draft).toEqual(DRAFT);
          expect(selectCreateEnabled(snapshot as never)).toBe(context.name.trim() !== '');
        },
        creating: (snapshot, { invocations }) =>
          expect(invocations.at(-1)).toEqual({ id: 'createKey', src: 'createKey', input: { draft: DRAFT, name: (snapshot.context as ApiKeysContext).name.trim() } }),
        issued: (snapshot) => {
          expect(selectCreateEnabled(snapshot as never)).toBe(false);
          expect(selectNewEnabled(snapshot as never)).toBe(false);
        },
        'issued.copying': (_s, { invocations }) => expect(invocations.at(-1)).toEqual({ id: 'copySecret', src: 'copySecret', input: { secret: 's3cret' } }),
        renaming: (snapshot, { invocations }) => {
          const call = invocations.at(-1) as { id: string; input: { key: ApiKey; name: string } };
          expect(call.id).toBe('renameKey');
          expect((snapshot.context as ApiKeysContext).keys).toContainEqual(call.input.key);
          expect(call.input.name).toBe(call.input.name.trim());
          expect(call.input.name).not.toBe(call.input.key.name);
        },
        deleting: (snapshot, { invocations }) => {
          const context = snapshot.context as ApiKeysContext;
          expect(invocations.at(-1)).toEqual({ id: 'deleteKey', src: 'deleteKey', input: { key: context.pendingDelete } });
        },
        idle: (snapshot) => {
          expect(selectNewEnabled(snapshot as never)).toBe(true);
          expect((snapshot.context as ApiKeysContext).secret).toBeNull();
        },
      },
    });
  });
});

describe('apiKeys machine, targeted rules', () => {
  const loaded = (canCreate: boolean) => {
    const actor = createActor(
      apiKeysMachine.provide({ actors: { loadKeys: fromPromise(() => Promise.resolve([CI, DEFAULT])) } }),
      { input: { canCreate } },
    );
    actor.start();
    return actor;
  };

  it('refuses New without the root\'s new apikey link', async () => {
    const actor = loaded(false);
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(selectNewEnabled(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'user.new' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(modelPaths(apiKeysMachine, { input: { canCreate: false }, events: creation }).some((p) => p.steps.some((s) => s.event.type === 'user.new'))).toBe(false);
  });

  it('shows Copied for exactly the named delay', async () => {
    const path = paths.find((p) => p.steps.some((s) => s.event.type.startsWith('xstate.after.copiedToast')));
    expect(path).toBeDefined();
    const log = await replayPath(apiKeysMachine, path!, { input });
    expect(log.clock.now()).toBe(COPIED_TOAST_MS);
  });
});

describe('apiKeys actors against the real client', () => {
  const client = (replies: Parameters<typeof fakeFetch>) => {
    const fake = fakeFetch(...replies);
    return { fake, actors: apiKeysActors(createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch }), { writeText: () => Promise.resolve() }) };
  };

  it('drafts with POST /apikeys, creates with PUT on the draft\'s create apikey link, deletes with the key as body', async () => {
    const { fake, actors } = client([{ status: 200, body: DRAFT }, { status: 200, body: CREATED }, { status: 204 }]);
    const machine = apiKeysMachine.provide({ actors: { ...actors, loadKeys: fromPromise(() => Promise.resolve([DEFAULT])) } });
    const actor = createActor(machine, { input }).start();
    const settle = () => new Promise((r) => setTimeout(r, 0));
    await settle();
    actor.send({ type: 'user.new' });
    await settle();
    actor.send({ type: 'user.typeName', name: 'deploy' });
    actor.send({ type: 'user.create' });
    await settle();
    expect(actor.getSnapshot().context.secret).toBe('s3cret');
    actor.send({ type: 'user.closeIssued' });
    actor.send({ type: 'user.delete', id: 'k2' });
    actor.send({ type: 'user.confirmDelete' });
    await settle();
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST http://api.test/api/apikeys',
      'PUT http://api.test/api/apikeys/k2',
      'DELETE http://api.test/api/apikeys/k2',
    ]);
    expect(fake.calls[1]?.body).toMatchObject({ id: 'k2', name: 'deploy' });
    expect(fake.calls[2]?.body).toMatchObject({ id: 'k2', name: 'deploy' });
    expect(actor.getSnapshot().context.keys.map((k) => k.id)).toEqual(['kd']);
    actor.stop();
  });

  it('keeps the list and shows the mapped message when a call fails', async () => {
    const { actors } = client([{ status: 409, body: 'in use' }]);
    const machine = apiKeysMachine.provide({ actors: { ...actors, loadKeys: fromPromise(() => Promise.resolve([CI])) } });
    const actor = createActor(machine, { input }).start();
    const settle = () => new Promise((r) => setTimeout(r, 0));
    await settle();
    actor.send({ type: 'user.delete', id: 'k1' });
    actor.send({ type: 'user.confirmDelete' });
    await settle();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.keys).toEqual([CI]);
    expect(actor.getSnapshot().context.error).toBe('[409] in use');
    actor.stop();
  });
});

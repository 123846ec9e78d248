import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { ApiFailure } from '../../api/errors';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { API_KEY_NAME_REQUIRED } from '../../domain/validation';
import type { ApiKey } from '../../domain/resources';
import { COPIED_TOAST_MS } from '../../domain/constants';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ModelStep } from '../testing';
import { heldActors } from '../testing/deferred.fixture';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { apiKeysActors } from './apiKeys.actors';
import { apiKeysMachine, selectCreateEnabled, selectNewEnabled } from './apiKeys.machine';
import type { ApiKeysContext, CopySecretInput, CreateKeyInput, DeleteKeyInput, RenameKeyInput } from './apiKeys.machine';

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

describe('apiKeys, checked by hand', () => {
  const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  /** Every actor held until the test answers it; each call recorded as `<actor> <what it was given>`. */
  function start(canCreate = true) {
    const { calls, pending, held } = heldActors();
    const actors = {
      loadKeys: held<unknown, ApiKey[]>('loadKeys', () => ''),
      draftKey: held<unknown, ApiKey>('draftKey', () => ''),
      createKey: held<CreateKeyInput, ApiKey>('createKey', ({ draft, name }) => `${draft.id} '${name}'`),
      renameKey: held<RenameKeyInput, ApiKey>('renameKey', ({ key, name }) => `${key.id} '${name}'`),
      deleteKey: held<DeleteKeyInput, void>('deleteKey', ({ key }) => key.id),
      copySecret: held<CopySecretInput, void>('copySecret', ({ secret }) => secret),
    };
    const actor = createActor(apiKeysMachine.provide({ actors }), { input: { canCreate } }).start();
    const answer = (id: string) => pending[id]!.at(-1)!;
    const context = () => actor.getSnapshot().context;
    return { actor, calls, answer, context };
  }

  async function loadedWith(keys: ApiKey[]) {
    const started = start();
    started.answer('loadKeys').resolve(keys);
    await settle();
    expect(started.actor.getSnapshot().value).toBe('idle');
    return started;
  }

  async function naming(draft: ApiKey = DRAFT) {
    const started = await loadedWith([CI]);
    started.actor.send({ type: 'user.new' });
    started.answer('draftKey').resolve(draft);
    await settle();
    expect(started.actor.getSnapshot().value).toBe('naming');
    return started;
  }

  it('a failed reload keeps the list and shows why; Reload clears the message and asks again', async () => {
    const { actor, calls, answer, context } = await loadedWith([CI, DEFAULT]);
    actor.send({ type: 'user.reload' });
    expect(actor.getSnapshot().value).toBe('loading');
    answer('loadKeys').reject(offline);
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(context().error).toBe('We were unable to connect.');
    expect(context().keys).toEqual([CI, DEFAULT]);
    actor.send({ type: 'user.reload' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(context().error).toBeNull();
    expect(calls).toEqual(['loadKeys ', 'loadKeys ', 'loadKeys ']);
    actor.stop();
  });

  it('New, a rename and a delete each clear the last failure; a failed draft or rename says why and keeps the list', async () => {
    const { actor, calls, answer, context } = await loadedWith([CI, DEFAULT]);
    actor.send({ type: 'user.new' });
    answer('draftKey').reject(offline);
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(context().error).toBe('We were unable to connect.');
    actor.send({ type: 'user.new' });
    expect(actor.getSnapshot().value).toBe('drafting');
    expect(context().error).toBeNull();
    answer('draftKey').reject(offline);
    await settle();
    expect(context().error).toBe('We were unable to connect.');

    actor.send({ type: 'user.rename', id: 'k1', name: ' renamed ' });
    expect(actor.getSnapshot().value).toBe('renaming');
    expect(context().error).toBeNull();
    answer('renameKey').reject(offline);
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(context().error).toBe('We were unable to connect.');
    expect(context().keys).toEqual([CI, DEFAULT]);

    actor.send({ type: 'user.delete', id: 'k1' });
    expect(actor.getSnapshot().value).toBe('confirmingDelete');
    expect(context().error).toBeNull();
    expect(calls).toEqual(['loadKeys ', 'draftKey ', 'draftKey ', "renameKey k1 'renamed'"]);
    actor.stop();
  });

  it('a renamed key takes the place of its row, once', async () => {
    const { actor, calls, answer, context } = await loadedWith([CI, DEFAULT]);
    actor.send({ type: 'user.rename', id: 'k1', name: ' renamed ' });
    answer('renameKey').resolve({ ...CI, name: 'renamed' });
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(context().keys).toEqual([{ ...CI, name: 'renamed' }, DEFAULT]);
    expect(calls).toEqual(['loadKeys ', "renameKey k1 'renamed'"]);
    actor.stop();
  });

  it("a draft without a name starts empty with Create disabled; Create then says 'Name is mandatory' until a name is typed", async () => {
    const { actor, calls, context } = await naming();
    expect(context().name).toBe('');
    expect(context().nameError).toBeNull();
    expect(selectCreateEnabled(actor.getSnapshot())).toBe(false);
    // nothing said before Create is pressed
    actor.send({ type: 'user.typeName', name: ' ' });
    expect(context().nameError).toBeNull();
    actor.send({ type: 'user.create' });
    expect(actor.getSnapshot().value).toBe('naming');
    expect(context().nameError).toBe('Name is mandatory');
    // once shown, it stays while the name is blank
    actor.send({ type: 'user.typeName', name: '   ' });
    expect(context().nameError).toBe('Name is mandatory');
    actor.send({ type: 'user.typeName', name: 'd' });
    expect(context().name).toBe('d');
    expect(context().nameError).toBeNull();
    expect(selectCreateEnabled(actor.getSnapshot())).toBe(true);
    expect(calls).toEqual(['loadKeys ', 'draftKey ']);
    actor.stop();
  });

  it('a draft the server named starts with that name', async () => {
    const { context, actor } = await naming({ ...DRAFT, name: 'suggested' });
    expect(context().name).toBe('suggested');
    expect(selectCreateEnabled(actor.getSnapshot())).toBe(true);
    actor.stop();
  });

  it('a failed Create goes back to the name with the message, draft and name kept; Create again clears it; the issued key shows its secret once', async () => {
    const { actor, calls, answer, context } = await naming();
    actor.send({ type: 'user.typeName', name: ' deploy ' });
    actor.send({ type: 'user.create' });
    expect(actor.getSnapshot().value).toBe('creating');
    answer('createKey').reject(offline);
    await settle();
    expect(actor.getSnapshot().value).toBe('naming');
    expect(context()).toMatchObject({ draft: DRAFT, name: ' deploy ', error: 'We were unable to connect.' });
    actor.send({ type: 'user.create' });
    expect(actor.getSnapshot().value).toBe('creating');
    expect(context().error).toBeNull();
    answer('createKey').resolve(CREATED);
    await settle();
    expect(actor.getSnapshot().value).toEqual({ issued: 'shown' });
    const { clientSecret: _secret, ...listed } = CREATED;
    expect(context()).toEqual({ canCreate: true, keys: [CI, listed], draft: null, name: '', nameError: null, secret: 's3cret', pendingDelete: null, error: null });
    expect(calls).toEqual(['loadKeys ', 'draftKey ', "createKey k2 'deploy'", "createKey k2 'deploy'"]);
    actor.send({ type: 'user.closeIssued' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(context().secret).toBeNull();
    actor.stop();
  });

  it('Cancel while naming drops the draft, the name and both messages', async () => {
    const { actor, answer, context } = await naming();
    actor.send({ type: 'user.typeName', name: 'deploy' });
    actor.send({ type: 'user.create' });
    answer('createKey').reject(offline);
    await settle();
    actor.send({ type: 'user.typeName', name: '' });
    actor.send({ type: 'user.create' });
    expect(context()).toMatchObject({ draft: DRAFT, name: '', nameError: 'Name is mandatory', error: 'We were unable to connect.' });
    actor.send({ type: 'user.typeName', name: 'half' });
    actor.send({ type: 'user.typeName', name: '' });
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(context()).toMatchObject({ draft: null, name: '', nameError: null, error: null });
    actor.send({ type: 'user.typeName', name: 'half' });
    expect(context().name).toBe('');
    actor.stop();
  });

  it('copies the secret, again while Copied shows; a failed copy says why; with no secret Copy does nothing', async () => {
    const { actor, calls, answer, context } = await naming();
    actor.send({ type: 'user.typeName', name: 'deploy' });
    actor.send({ type: 'user.create' });
    answer('createKey').resolve(CREATED);
    await settle();
    actor.send({ type: 'user.copy' });
    expect(actor.getSnapshot().value).toEqual({ issued: 'copying' });
    answer('copySecret').resolve(undefined);
    await settle();
    expect(actor.getSnapshot().value).toEqual({ issued: 'copied' });
    actor.send({ type: 'user.copy' });
    expect(actor.getSnapshot().value).toEqual({ issued: 'copying' });
    answer('copySecret').reject(new Error('Write permission denied'));
    await settle();
    expect(actor.getSnapshot().value).toEqual({ issued: 'shown' });
    expect(context().error).toBe('Write permission denied');
    expect(calls.filter((c) => c.startsWith('copySecret'))).toEqual(['copySecret s3cret', 'copySecret s3cret']);
    actor.stop();

    const bare = await naming();
    bare.actor.send({ type: 'user.typeName', name: 'deploy' });
    bare.actor.send({ type: 'user.create' });
    const { clientSecret: _secret, ...withoutSecret } = CREATED;
    bare.answer('createKey').resolve(withoutSecret);
    await settle();
    expect(bare.context().secret).toBeNull();
    bare.actor.send({ type: 'user.copy' });
    expect(bare.actor.getSnapshot().value).toEqual({ issued: 'shown' });
    expect(bare.calls.filter((c) => c.startsWith('copySecret'))).toEqual([]);
    bare.actor.stop();
  });

  it('Cancel on the delete confirmation deletes nothing; deleting default forgets it and reads the list again', async () => {
    const { actor, calls, answer, context } = await loadedWith([CI, DEFAULT]);
    actor.send({ type: 'user.delete', id: 'k1' });
    expect(context().pendingDelete).toEqual(CI);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(context().pendingDelete).toBeNull();
    expect(context().keys).toEqual([CI, DEFAULT]);

    actor.send({ type: 'user.delete', id: 'kd' });
    actor.send({ type: 'user.confirmDelete' });
    answer('deleteKey').resolve(undefined);
    await settle();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(context().pendingDelete).toBeNull();
    answer('loadKeys').resolve([CI]);
    await settle();
    expect(context().keys).toEqual([CI]);
    expect(calls).toEqual(['loadKeys ', 'deleteKey kd', 'loadKeys ']);
    actor.stop();
  });

  it('cancels each request when the page is left before it answers', async () => {
    const clipboard = { writeText: () => Promise.resolve() };
    const inputs = { loadKeys: undefined, draftKey: undefined, createKey: { draft: DRAFT, name: 'deploy' }, renameKey: { key: CI, name: 'renamed' }, deleteKey: { key: CI } };
    expect(await requestsCancelledOnStop((client) => apiKeysActors(client, clipboard), inputs)).toEqual({ loadKeys: true, draftKey: true, createKey: true, renameKey: true, deleteKey: true });
  });

  it('the real actors list the keys, rename through update apikey, and copy the secret to the clipboard', async () => {
    const fake = fakeFetch({ status: 200, body: { _embedded: { apikeys: [CI, DEFAULT] }, _links: {} } }, { status: 200, body: RENAMED });
    const written: string[] = [];
    const actors = apiKeysActors(createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch }), {
      writeText: (text) => {
        written.push(text);
        return Promise.resolve();
      },
    });
    expect(await toPromise(createActor(actors.loadKeys).start())).toEqual([CI, DEFAULT]);
    expect(await toPromise(createActor(actors.renameKey, { input: { key: CI, name: 'renamed' } }).start())).toEqual(RENAMED);
    await toPromise(createActor(actors.copySecret, { input: { secret: 's3cret' } }).start());
    expect(written).toEqual(['s3cret']);
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${API}/apikeys`, `PUT ${API}/apikeys/k1`]);
    expect(fake.calls[1]?.body).toMatchObject({ id: 'k1', name: 'renamed' });
  });
});

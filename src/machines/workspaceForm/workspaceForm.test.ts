import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Workspace } from '../../domain/resources';
import { WORKSPACE_TEXTS } from '../../domain/workspaceForm';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { workspaceFormActors } from './workspaceForm.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { saveFailure, selectBusy, selectCanSave, workspaceFormMachine, type SaveWorkspaceInput, type WorkspaceFormInput, type WorkspaceInput } from './workspaceForm.machine';
import { heldActors } from '../testing/deferred.fixture';

const BASE = 'http://api.test/api';
const href = (path: string) => ({ href: `${BASE}${path}` });
const profile = { id: 'p1', _links: { 'new workspace': href('/workspaces') } };
const draft: Workspace = { id: 'w9', name: '', _links: { 'create workspace': href('/workspaces/w9') } };
const existing: Workspace = {
  id: 'w1',
  name: 'Acme',
  domains: ['acme.example'],
  deploymentSecret: 'old-secret',
  appProperties: { HOME_PAGE: 'explore' },
  _links: { self: href('/workspaces/w1'), 'update delete workspace': href('/workspaces/w1'), 'create deployment': href('/workspaces/w1/deployments') },
};
const created: Workspace = { ...existing, id: 'w9', name: 'New one', status: 'PROVISIONING' };
const refused = new ApiFailure({
  kind: 'response',
  status: 400,
  message: '[400] Bad Request',
  body: {
    timestamp: '2026-11-23T00:00:00Z',
    status: 400,
    error: 'Bad Request',
    message: "Validation failed for object='workspace'",
    path: '/api/workspaces/w1',
    errors: [
      { field: 'setRepositoryUrl', objectName: 'workspace', defaultMessage: 'is not a repository URL' },
      { field: 'repositoryBranch', objectName: 'workspace', defaultMessage: 'is not a branch name' },
    ],
  },
});
const busyJobs = new ApiFailure({ kind: 'response', status: 409, message: '[409]', body: { timestamp: '2026-11-23T00:00:00Z', status: 409, error: 'Conflict', message: 'This workspace has jobs queued or running', path: '/api/workspaces/w1', errors: [] } });

// The model: a small event set keeps the graph finite. Property edits grow the context without
// bound (they are covered by the scenarios below), so they are left out of the traversal; names
// and logos are two values each, enough to reach Save enabled and disabled.
const logo = 'data:image/png;base64,iVBORw0KGgo=';
const events = {
  'xstate.done.actor.load': [{ output: existing }, { output: draft }],
  'xstate.error.actor.load': [{ error: new ApiFailure({ kind: 'network', message: 'We were unable to connect.' }) }],
  'xstate.done.actor.save': (s: { context: { workspace: Workspace | null } }) => [{ output: s.context.workspace?.id === 'w9' ? created : { ...existing, name: 'Acme 2' } }],
  'xstate.error.actor.save': [{ error: refused }],
  'xstate.done.actor.regenerate': [{ output: { ...existing, deploymentSecret: 'new-secret' } }],
  'xstate.error.actor.regenerate': [{ error: refused }],
  'xstate.done.actor.deploy': [{ output: undefined }],
  'xstate.error.actor.deploy': [{ error: busyJobs }],
  'xstate.done.actor.remove': [{ output: undefined }],
  'xstate.error.actor.remove': [{ error: busyJobs }],
  'user.field': [
    { field: 'name', value: '' },
    { field: 'name', value: 'Acme 2' },
  ],
  'user.logo': [{ imageUrl: logo }],
  'user.addProperty': [],
  'user.property': [],
  'user.removeProperty': [],
};

describe('the workspace form (model-based)', () => {
  const input = { workspaceId: 'w1', owner: profile };
  // Back at the form with a banner or notice is the end of an interesting path: going on from
  // there only repeats the graph with another message.
  const options = {
    input,
    events,
    stopWhen: (s: { matches: (v: 'editing') => boolean; context: { banner: string | null; notice: string | null } }) => s.matches('editing') && (s.context.banner !== null || s.context.notice !== null),
  };
  const paths = modelPaths(workspaceFormMachine, options);

  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(workspaceFormMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(workspaceFormMachine, paths, options)).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(workspaceFormMachine, path, {
      input,
      states: {
        // Save needs a name; what it sends is the form's body to the workspace's own link.
        saving: (s, log: ReplayLog) => {
          const snapshot = s as unknown as { context: { fields: { name: string } } };
          expect(snapshot.context.fields.name.trim()).not.toBe('');
          expect((log.invocations.at(-1)?.input as { body: { name: string } }).body.name).toBe(snapshot.context.fields.name.trim());
        },
        regenerating: (_s, log: ReplayLog) => expect((log.invocations.at(-1)?.input as { body: { deploymentSecret: string } }).body.deploymentSecret).toBe(''),
        created: (s) => expect((s as unknown as { context: { notice: string | null } }).context.notice).toBe(WORKSPACE_TEXTS.created),
        deleted: (s) => expect((s as unknown as { context: { notice: string | null } }).context.notice).toMatch(/deleted$/),
        failed: (s) => expect((s as unknown as { context: { loadError: string | null } }).context.loadError).not.toBeNull(),
      },
    });
  });
});

describe('workspace form scenarios', () => {
  it('shows name, domains and setRepositoryUrl errors beside their fields, any other as a banner of its defaultMessage', () => {
    expect(saveFailure(refused)).toEqual({ banner: 'is not a branch name', fieldErrors: { setRepositoryUrl: 'is not a repository URL' } });
    expect(saveFailure(busyJobs)).toEqual({ banner: 'This workspace has jobs queued or running', fieldErrors: {} });
    const silent = new ApiFailure({ kind: 'response', status: 500, message: '[500]', body: { timestamp: 't', status: 500, error: 'x', message: '', path: '/api', errors: [] } });
    expect(saveFailure(silent).banner).toBe(WORKSPACE_TEXTS.unexpected);
  });

  it('edits app properties, the logo and the repository fields; the body sends what the URL allows', () => {
    const path = pathOf(
      workspaceFormMachine,
      [
        { type: 'xstate.done.actor.load', output: existing },
        { type: 'user.addProperty' },
        { type: 'user.property', index: 1, property: { key: 'APP_SNACKBAR_TIMEOUT', value: '3000' } },
        { type: 'user.removeProperty', index: 0 },
        { type: 'user.logo', imageUrl: 'data:image/png;base64,iVBORw0KGgo=' },
        { type: 'user.field', field: 'repositoryUrl', value: 'https://example.org/a/b' },
        { type: 'user.field', field: 'repositoryBranch', value: 'dev' },
        { type: 'user.field', field: 'sshPrivateKey', value: 'typed key' },
      ],
      { input: { workspaceId: 'w1', owner: null } },
    );
    const fields = path.state.context.fields;
    expect(fields.appProperties).toEqual([{ key: 'APP_SNACKBAR_TIMEOUT', value: '3000' }]);
    expect(fields.imageUrl).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('keeps Save disabled with an empty name', () => {
    const path = pathOf(workspaceFormMachine, [{ type: 'xstate.done.actor.load', output: existing }, { type: 'user.field', field: 'name', value: '  ' }], { input: { workspaceId: 'w1', owner: null } });
    expect(path.state.can({ type: 'user.save' })).toBe(false);
  });

  it('the real actors POST new workspace, PUT create workspace, then PUT update, POST create deployment and DELETE', async () => {
    const fake = fakeFetch({ status: 201, body: draft }, { status: 201, body: created });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const moves: unknown[] = [];
    const actor = createActor(workspaceFormMachine.provide({ actors: workspaceFormActors(client), actions: { showCreated: (_, params) => void moves.push(params) }, delays: { redirect: 0 } }), {
      input: { workspaceId: 'new', owner: profile },
    }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'user.field', field: 'name', value: ' New one ' });
    actor.send({ type: 'user.field', field: 'domains', value: '@acme.example, b.example' });
    actor.send({ type: 'user.save' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`POST ${BASE}/workspaces`, `PUT ${BASE}/workspaces/w9`]);
    expect(fake.calls[1]?.body).toMatchObject({ name: 'New one', domains: ['acme.example', 'b.example'], defaultEnvironment: null, repositoryUrl: null, appProperties: {} });
    expect(moves).toEqual([{ workspaceId: 'w9' }]);

    const more = fakeFetch({ body: existing }, { body: { ...existing, deploymentSecret: 'new' } }, { status: 202, body: { id: 'j1', type: 'WORKSPACE_DEPLOY', status: 'QUEUED', created: '2026-11-23T00:00:00Z', _links: {} } }, { status: 204 });
    const client2 = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: more.fetch, retryDelay: () => 0 });
    let left = false;
    const editor = createActor(workspaceFormMachine.provide({ actors: workspaceFormActors(client2), actions: { leave: () => void (left = true) }, delays: { redirect: 0 } }), { input: { workspaceId: 'w1', owner: null } }).start();
    await waitFor(editor, (s) => s.matches('editing'));
    editor.send({ type: 'user.regenerate' });
    await waitFor(editor, (s) => s.matches('editing') && s.context.workspace?.deploymentSecret === 'new');
    editor.send({ type: 'user.deploy' });
    await waitFor(editor, (s) => s.matches('editing') && s.context.notice === WORKSPACE_TEXTS.deployStarted);
    editor.send({ type: 'user.delete' });
    editor.send({ type: 'user.confirm' });
    await waitFor(editor, (s) => s.status === 'done');
    expect(more.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${BASE}/workspaces/w1`, `PUT ${BASE}/workspaces/w1`, `POST ${BASE}/workspaces/w1/deployments`, `DELETE ${BASE}/workspaces/w1`]);
    expect(more.calls[1]?.body).toEqual({ name: 'Acme', domains: ['acme.example'], imageUrl: null, deploymentSecret: '' });
    expect(left).toBe(true);
  });
});

describe('workspaceForm, checked by hand', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

  function start(input: WorkspaceFormInput = { workspaceId: 'w1', owner: null }) {
    const { calls, pending, held } = heldActors();
    const moves: string[] = [];
    const notices: string[] = [];
    const machine = workspaceFormMachine.provide({
      actors: {
        load: held<WorkspaceFormInput, Workspace>('load', (i) => `${i.workspaceId} ${i.owner === null ? 'no owner' : 'owner'}`),
        save: held<SaveWorkspaceInput, Workspace>('save', (i) => `${i.workspace.id} ${JSON.stringify(i.body)}`),
        deploy: held<WorkspaceInput, unknown>('deploy', (i) => i.workspace.id),
        remove: held<WorkspaceInput, unknown>('remove', (i) => i.workspace.id),
      },
      actions: { showCreated: (_, p) => void moves.push(`showCreated ${p.workspaceId}`), leave: () => void moves.push('leave') },
    });
    const actor = createActor(machine, { input });
    actor.on('workspace.notice', (e) => void notices.push(e.message));
    actor.start();
    const answer = (id: string) => pending[id]!.at(-1)!;
    const context = () => actor.getSnapshot().context;
    const value = () => actor.getSnapshot().value;
    const busy = () => selectBusy(actor.getSnapshot());
    return { actor, calls, moves, notices, answer, context, value, busy };
  }
  const flush = () => vi.advanceTimersByTimeAsync(0);

  it('loads by id and owner; a failed load says why, retry asks again, and the next load clears the message', async () => {
    vi.useFakeTimers();
    const m = start();
    expect(m.context()).toMatchObject({ workspaceId: 'w1', owner: null, workspace: null, banner: null, fieldErrors: {}, notice: null, loadError: null });
    expect(m.calls).toEqual(['load w1 no owner']);
    expect(m.busy()).toBe(false);
    m.answer('load').reject(offline);
    await flush();
    expect(m.value()).toBe('failed');
    expect(m.context().loadError).toBe('We were unable to connect.');
    m.actor.send({ type: 'user.retry' });
    expect(m.value()).toBe('loading');
    m.answer('load').resolve(existing);
    await flush();
    expect(m.value()).toBe('editing');
    expect(m.context().loadError).toBeNull();
    expect(m.context().workspace).toBe(existing);
    expect(m.context().fields.name).toBe('Acme');
  });

  it('a save clears the last messages, sends the form, and says it saved; a refused save puts the errors by their fields', async () => {
    vi.useFakeTimers();
    const m = start();
    m.answer('load').resolve(existing);
    await flush();
    m.actor.send({ type: 'user.field', field: 'name', value: 'Acme 2' });
    m.actor.send({ type: 'user.save' });
    expect(m.value()).toBe('saving');
    expect(m.busy()).toBe(true);
    expect(m.calls.at(-1)).toMatch(/^save w1 \{"name":"Acme 2"/);
    m.answer('save').reject(refused);
    await flush();
    expect(m.value()).toBe('editing');
    expect(m.context().banner).toBe('is not a branch name');
    expect(m.context().fieldErrors).toEqual({ setRepositoryUrl: 'is not a repository URL' });
    // typing in the repository url clears its error, another field leaves it
    m.actor.send({ type: 'user.field', field: 'domains', value: 'a.example' });
    expect(m.context().fieldErrors).toEqual({ setRepositoryUrl: 'is not a repository URL' });
    m.actor.send({ type: 'user.field', field: 'repositoryUrl', value: 'https://example.org/a/b' });
    expect(m.context().fieldErrors).toEqual({});
    m.actor.send({ type: 'user.save' });
    expect(m.context()).toMatchObject({ banner: null, fieldErrors: {}, notice: null });
    m.answer('save').resolve({ ...existing, name: 'Acme 3' });
    await flush();
    expect(m.value()).toBe('editing');
    expect(m.context().notice).toBe('Acme 3 Saved');
    expect(m.context().fields.name).toBe('Acme 3');
    expect(m.notices).toEqual(['Acme 3 Saved']);
  });

  it('a name error from the server sits by the name, and typing the name clears it', async () => {
    vi.useFakeTimers();
    const m = start();
    m.answer('load').resolve(existing);
    await flush();
    m.actor.send({ type: 'user.save' });
    const nameTaken = new ApiFailure({ kind: 'response', status: 400, message: '[400]', body: { timestamp: 't', status: 400, error: 'Bad Request', message: 'x', path: '/api', errors: [{ field: 'name', objectName: 'workspace', defaultMessage: 'is taken' }, { field: 'name', objectName: 'workspace', defaultMessage: 'second' }] } });
    m.answer('save').reject(nameTaken);
    await flush();
    expect(m.context()).toMatchObject({ banner: null, fieldErrors: { name: 'is taken' } });
    m.actor.send({ type: 'user.field', field: 'name', value: 'Other' });
    expect(m.context().fieldErrors).toEqual({});
    // a network failure is a banner
    m.actor.send({ type: 'user.save' });
    m.answer('save').reject(offline);
    await flush();
    expect(m.context()).toMatchObject({ banner: 'We were unable to connect.', fieldErrors: {} });
  });

  it('creating: the new workspace is saved, said created, and shown after a second', async () => {
    vi.useFakeTimers();
    const m = start({ workspaceId: 'new', owner: profile });
    expect(m.calls).toEqual(['load new owner']);
    m.answer('load').resolve(draft);
    await flush();
    expect(selectCanSave(m.context())).toBe(false);
    m.actor.send({ type: 'user.save' });
    expect(m.value()).toBe('editing');
    m.actor.send({ type: 'user.field', field: 'name', value: 'New one' });
    expect(selectCanSave(m.context())).toBe(true);
    m.actor.send({ type: 'user.save' });
    m.answer('save').resolve(created);
    await flush();
    expect(m.value()).toBe('created');
    expect(m.busy()).toBe(true);
    expect(m.context().notice).toBe(WORKSPACE_TEXTS.created);
    expect(m.notices).toEqual([WORKSPACE_TEXTS.created]);
    await vi.advanceTimersByTimeAsync(999);
    expect(m.moves).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.moves).toEqual(['showCreated w9']);
    expect(m.value()).toBe('done');
    expect(m.busy()).toBe(true);
  });

  it('regenerate and deploy: each clears the last messages, a failure is a banner, and the typed fields stay', async () => {
    vi.useFakeTimers();
    const m = start();
    m.answer('load').resolve(existing);
    await flush();
    m.actor.send({ type: 'user.field', field: 'name', value: 'Typed' });
    m.actor.send({ type: 'user.regenerate' });
    expect(m.value()).toBe('regenerating');
    expect(m.busy()).toBe(true);
    expect(m.calls.at(-1)).toBe('save w1 {"name":"Acme","domains":["acme.example"],"imageUrl":null,"deploymentSecret":""}');
    m.answer('save').reject(offline);
    await flush();
    expect(m.value()).toBe('editing');
    expect(m.context().banner).toBe('We were unable to connect.');
    m.actor.send({ type: 'user.regenerate' });
    expect(m.context().banner).toBeNull();
    m.answer('save').resolve({ ...existing, deploymentSecret: 'fresh' });
    await flush();
    expect(m.context().workspace?.deploymentSecret).toBe('fresh');
    expect(m.context().fields.name).toBe('Typed');
    m.actor.send({ type: 'user.deploy' });
    expect(m.value()).toBe('deploying');
    expect(m.busy()).toBe(true);
    expect(m.calls.at(-1)).toBe('deploy w1');
    m.answer('deploy').reject(busyJobs);
    await flush();
    expect(m.context().banner).toBe('This workspace has jobs queued or running');
    m.actor.send({ type: 'user.deploy' });
    expect(m.context()).toMatchObject({ banner: null, notice: null });
    m.answer('deploy').resolve(undefined);
    await flush();
    expect(m.context().notice).toBe(WORKSPACE_TEXTS.deployStarted);
    expect(m.notices).toEqual([WORKSPACE_TEXTS.deployStarted]);
    m.actor.send({ type: 'user.regenerate' });
    expect(m.context().notice).toBeNull();
    m.actor.stop();
  });

  it('delete asks first; cancel keeps the form; a failed delete is a banner; done, it says so and leaves after a second', async () => {
    vi.useFakeTimers();
    const m = start();
    m.answer('load').resolve(existing);
    await flush();
    m.actor.send({ type: 'user.delete' });
    expect(m.value()).toBe('confirming');
    expect(m.busy()).toBe(false);
    m.actor.send({ type: 'user.cancel' });
    expect(m.value()).toBe('editing');
    m.actor.send({ type: 'user.delete' });
    m.actor.send({ type: 'user.confirm' });
    expect(m.value()).toBe('deleting');
    expect(m.busy()).toBe(true);
    expect(m.calls.at(-1)).toBe('remove w1');
    m.answer('remove').reject(busyJobs);
    await flush();
    expect(m.value()).toBe('editing');
    expect(m.context().banner).toBe('This workspace has jobs queued or running');
    m.actor.send({ type: 'user.delete' });
    m.actor.send({ type: 'user.confirm' });
    m.answer('remove').resolve(undefined);
    await flush();
    expect(m.value()).toBe('deleted');
    expect(m.busy()).toBe(true);
    expect(m.context().notice).toBe('Acme deleted');
    expect(m.notices).toEqual(['Acme deleted']);
    await vi.advanceTimersByTimeAsync(999);
    expect(m.moves).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.moves).toEqual(['leave']);
    expect(m.actor.getSnapshot().status).toBe('done');
  });

  it('a refusal without a body, with a blank or padded message, or with reasons the form has no place for', () => {
    const refusal = (body?: object) => new ApiFailure({ kind: 'response', status: 409, message: '[409]', ...(body === undefined ? {} : { body: body as never }) });
    expect(saveFailure(refusal())).toStrictEqual({ banner: WORKSPACE_TEXTS.unexpected, fieldErrors: {} });
    expect(saveFailure(refusal({ errors: [] }))).toStrictEqual({ banner: WORKSPACE_TEXTS.unexpected, fieldErrors: {} });
    expect(saveFailure(refusal({ message: '   ', errors: [] }))).toStrictEqual({ banner: WORKSPACE_TEXTS.unexpected, fieldErrors: {} });
    expect(saveFailure(refusal({ message: '  Name in use  ', errors: [] }))).toStrictEqual({ banner: 'Name in use', fieldErrors: {} });
    const unplaced = refusal({ message: 'Validation failed', errors: [{ field: 'owner', defaultMessage: 'Owner is gone.' }, { field: 'plan', defaultMessage: 'Plan is full.' }] });
    expect(saveFailure(unplaced)).toStrictEqual({ banner: 'Owner is gone. Plan is full.', fieldErrors: {} });
  });

  it('a deleted workspace without a name is called Workspace', async () => {
    vi.useFakeTimers();
    const m = start();
    const { name: _, ...nameless } = existing;
    m.answer('load').resolve(nameless);
    await flush();
    m.actor.send({ type: 'user.delete' });
    m.actor.send({ type: 'user.confirm' });
    m.answer('remove').resolve(undefined);
    await flush();
    expect(m.context().notice).toBe('Workspace deleted');
    expect(m.notices).toEqual(['Workspace deleted']);
    m.actor.stop();
  });

  it('a workspace without its links offers no save, deploy, regenerate or delete', async () => {
    vi.useFakeTimers();
    const m = start();
    m.answer('load').resolve({ ...existing, _links: { self: existing._links!.self! } });
    await flush();
    for (const type of ['user.save', 'user.deploy', 'user.regenerate', 'user.delete'] as const) {
      m.actor.send({ type });
      expect(m.value()).toBe('editing');
    }
    expect(m.calls).toEqual(['load w1 no owner']);
  });

  it('properties: added up to 200, edited and removed by index; the logo is kept', async () => {
    vi.useFakeTimers();
    const m = start();
    m.answer('load').resolve({ ...existing, appProperties: {} });
    await flush();
    for (let i = 0; i < 205; i++) m.actor.send({ type: 'user.addProperty' });
    expect(m.context().fields.appProperties).toHaveLength(200);
    expect(m.context().fields.appProperties[199]).toEqual({ key: '', value: '' });
    m.actor.send({ type: 'user.property', index: 1, property: { key: 'K', value: 'V' } });
    expect(m.context().fields.appProperties.slice(0, 3)).toEqual([{ key: '', value: '' }, { key: 'K', value: 'V' }, { key: '', value: '' }]);
    m.actor.send({ type: 'user.removeProperty', index: 0 });
    expect(m.context().fields.appProperties[0]).toEqual({ key: 'K', value: 'V' });
    expect(m.context().fields.appProperties).toHaveLength(199);
    m.actor.send({ type: 'user.logo', imageUrl: null });
    expect(m.context().fields.imageUrl).toBeNull();
  });

  it('regenerate of a workspace with no domains or logo sends them empty', async () => {
    vi.useFakeTimers();
    const m = start();
    const bare: Workspace = { id: 'w1', name: 'Bare', _links: existing._links };
    m.answer('load').resolve(bare);
    await flush();
    m.actor.send({ type: 'user.regenerate' });
    expect(m.calls.at(-1)).toBe('save w1 {"name":"Bare","domains":[],"imageUrl":null,"deploymentSecret":""}');
    m.actor.stop();
  });

  it('the real load refuses to create without an owner', async () => {
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fakeFetch().fetch, retryDelay: () => 0 });
    const actor = createActor(workspaceFormActors(client).load, { input: { workspaceId: 'new', owner: null } });
    const failed = new Promise<unknown>((resolve) => actor.subscribe({ error: resolve }));
    actor.start();
    expect(await failed).toEqual(new Error('Only owners may create a workspace'));
  });

  it('cancels each request when the form is left before it answers', async () => {
    const inputs = { load: { workspaceId: 'w1', owner: null }, save: { workspace: existing, body: { name: 'Acme 2' } }, deploy: { workspace: existing }, remove: { workspace: existing } };
    expect(await requestsCancelledOnStop(workspaceFormActors, inputs)).toEqual({ load: true, save: true, deploy: true, remove: true });
    // a new workspace is first initialised through the profile's 'new workspace'
    expect(await requestsCancelledOnStop(workspaceFormActors, { load: { workspaceId: 'new', owner: profile } })).toEqual({ load: true });
  });
});

import { onboardingMachine } from '../machines/onboarding/onboarding.machine';
import { setupTasksMachine } from '../machines/setupTasks/setupTasks.machine';
import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock, waitFor, type AnyStateMachine } from 'xstate';
import { createApiClient } from '../api/client';
import { fakeFetch } from '../api/testing/fakeFetch';
import type { Profile } from '../domain/resources';
import { alertRulesMachine } from '../machines/alertRules/alertRules.machine';
import { dashboardEditorMachine } from '../machines/dashboardEditor/dashboardEditor.machine';
import { apiKeysMachine } from '../machines/apiKeys/apiKeys.machine';
import { assistantMachine } from '../machines/assistant/assistant.machine';
import { authMachine } from '../machines/auth/auth.machine';
import { channelSelectionMachine } from '../machines/channelSelection/channelSelection.machine';
import { changePasswordMachine } from '../machines/changePassword/changePassword.machine';
import { commentThreadMachine } from '../machines/commentThread/commentThread.machine';
import { datasetEditorMachine } from '../machines/datasetEditor/datasetEditor.machine';
import { datasetPageMachine } from '../machines/datasetPage/datasetPage.machine';
import { dataPluginsMachine } from '../machines/dataPlugins/dataPlugins.machine';
import { discoveryUploadMachine } from '../machines/discoveryUpload/discoveryUpload.machine';
import { streamPickerMachine } from '../machines/streamPicker/streamPicker.machine';
import { dataStoreFormMachine } from '../machines/dataStoreForm/dataStoreForm.machine';
import { workspaceFormMachine } from '../machines/workspaceForm/workspaceForm.machine';
import { dataStoreListMachine } from '../machines/dataStoreList/dataStoreList.machine';
import { storeBrowserMachine } from '../machines/storeBrowser/storeBrowser.machine';
import { inboxMachine } from '../machines/inbox/inbox.machine';
import { invitationsMachine } from '../machines/invitations/invitations.machine';
import { membersMachine } from '../machines/members/members.machine';
import { feedMachine } from '../machines/feed/feed.machine';
import { tagChipsMachine } from '../machines/tagChips/tagChips.machine';
import { jobRunMachine } from '../machines/jobRun/jobRun.machine';
import { landingMachine } from '../machines/landing/landing.machine';
import { libraryListsMachine } from '../machines/libraryLists/libraryLists.machine';
import { logStreamMachine } from '../machines/logStream/logStream.machine';
import { newsMachine } from '../machines/news/news.machine';
import { latestDeploymentMachine, notificationCountMachine, taskCountMachine } from '../machines/polling/polling.machine';
import { oauthConnectMachine } from '../machines/oauthConnect/oauthConnect.machine';
import { pipelineFormMachine } from '../machines/pipelineForm/pipelineForm.machine';
import { profileFormMachine } from '../machines/profileForm/profileForm.machine';
import { workspaceSwitchMachine } from '../machines/workspaceSwitch/workspaceSwitch.machine';
import { watchMachine } from '../machines/watch/watch.machine';
import { MACHINE_AREAS, provideMachines, type MachineEffects, type Machines } from './machines';

const ORIGINALS: { readonly [K in keyof Machines]: AnyStateMachine } = {
  auth: authMachine,
  landing: landingMachine,
  notificationCount: notificationCountMachine,
  taskCount: taskCountMachine,
  latestDeployment: latestDeploymentMachine,
  workspaceSwitch: workspaceSwitchMachine,
  assistant: assistantMachine,
  changePassword: changePasswordMachine,
  profileForm: profileFormMachine,
  feed: feedMachine,
  tagChips: tagChipsMachine,
  datasetPage: datasetPageMachine,
  apiKeys: apiKeysMachine,
  jobRun: jobRunMachine,
  logStream: logStreamMachine,
  watch: watchMachine,
  pipelineForm: pipelineFormMachine,
  datasetEditor: datasetEditorMachine,
  dataPlugins: dataPluginsMachine,
  discoveryUpload: discoveryUploadMachine,
  streamPicker: streamPickerMachine,
  oauthConnect: oauthConnectMachine,
  dataStoreList: dataStoreListMachine,
  storeBrowser: storeBrowserMachine,
  commentThread: commentThreadMachine,
  invitations: invitationsMachine,
  members: membersMachine,
  inbox: inboxMachine,
  dataStoreForm: dataStoreFormMachine,
  setupTasks: setupTasksMachine,
  onboarding: onboardingMachine,
  channelSelection: channelSelectionMachine,
  news: newsMachine,
  libraryLists: libraryListsMachine,
  workspaceForm: workspaceFormMachine,
  alertRules: alertRulesMachine,
  dashboardEditor: dashboardEditorMachine,
};

function effects(replies: Parameters<typeof fakeFetch> = []) {
  const fake = fakeFetch(...replies);
  const moves: string[] = [];
  const reloads: string[] = [];
  const deps: MachineEffects = {
    client: createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 }),
    reporter: { report: () => undefined },
    config: { auth: { domain: 'id.test', clientId: 'spa', audience: 'http://api.test/api', embedded: true } },
    login: () => undefined,
    navigate: (to) => void moves.push(to),
    reload: (to) => void reloads.push(to),
    clipboard: { writeText: () => Promise.resolve() },
    fetch: fake.fetch,
  };
  return { deps, moves, reloads, calls: fake.calls };
}

// Built-in actions (assign, emit, ...) carry `resolve`; a machine's own effects do not.
const isEffect = (action: unknown) => typeof action === 'function' && !('resolve' in action);

describe('the composition root', () => {
  const machines = provideMachines(effects().deps);

  it.each(Object.keys(ORIGINALS) as (keyof Machines)[])('provides every actor and effect action of %s', (name) => {
    const original = ORIGINALS[name].implementations;
    const provided = machines[name].implementations;
    for (const [actor, implementation] of Object.entries(original.actors)) expect(provided.actors[actor], actor).not.toBe(implementation);
    for (const [action, implementation] of Object.entries(original.actions)) {
      if (isEffect(implementation)) expect(provided.actions[action], action).not.toBe(implementation);
    }
  });

  // provideMachines merges the areas: a name in two of them would hide one machine from the test above
  it('no two areas provide a machine under the same name', () => {
    const owners = new Map<string, string[]>();
    for (const area of MACHINE_AREAS) {
      for (const name of Object.keys(area.provide(effects().deps))) owners.set(name, [...(owners.get(name) ?? []), area.name]);
    }
    expect([...owners].filter(([, areas]) => areas.length > 1)).toEqual([]);
    expect(owners.size + 1).toBe(Object.keys(ORIGINALS).length);
  });

  it('emits the saved profile for the page and the session', async () => {
    const profile: Profile = { id: 'auth0|42', name: 'Ada', email: 'ada@example.com' };
    const { deps } = effects([{ body: { ...profile, name: 'Ada L.' } }]);
    const actor = createActor(provideMachines(deps).profileForm, { input: { profile } }).start();
    const saved: Profile[] = [];
    actor.on('profile.saved', (event) => void saved.push(event.profile));
    actor.send({ type: 'user.change', field: 'name', value: 'Ada L.' });
    actor.send({ type: 'user.save' });
    await waitFor(actor, (s) => s.context.profile.name === 'Ada L.');
    expect(saved.map((p) => p.name)).toEqual(['Ada L.']);
    actor.stop();
  });

  it('the dataset editor publishes through the workspace link and emits the saved dataset', async () => {
    const workspace = { _links: { 'publish dataset': { href: 'http://api.test/api/workspaces/w1/datasets' } } };
    const saved = { id: 'd1', title: 'Revenue', query: 'select 1' };
    const { deps, calls } = effects([{ status: 201, body: saved }]);
    const actor = createActor(provideMachines(deps).datasetEditor, { input: { workspace, datasetId: null } }).start();
    const emitted: string[] = [];
    actor.on('dataset.saved', (event) => void emitted.push(event.dataset.id));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.change', field: 'title', value: 'Revenue' });
    actor.send({ type: 'user.change', field: 'query', value: 'select 1' });
    actor.send({ type: 'user.save' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(emitted).toEqual(['d1']);
    expect(calls.map((call) => [call.method, call.url])).toEqual([['POST', 'http://api.test/api/workspaces/w1/datasets']]);
    actor.stop();
  });

  it('selecting a channel navigates to the channels page with in:{name}; selecting it again clears the search', async () => {
    const workspace = { id: 'w1', _links: { channels: { href: 'http://api.test/api/workspaces/w1/channels' } } };
    const { deps, moves } = effects([{ body: { _embedded: { channels: [{ id: 'c1', name: 'Weekly review' }] } } }]);
    const actor = createActor(provideMachines(deps).channelSelection, { input: { workspace, search: '' } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.select', name: 'Weekly review' });
    actor.send({ type: 'user.select', name: 'Weekly review' });
    expect(moves).toEqual(['/l/w1/channels?search=in%3Aweekly-review', '/l/w1/channels']);
    actor.stop();
  });

  it('switching workspace reloads the app at the root route', async () => {
    const { deps, reloads } = effects([{ body: {} }]);
    const actor = createActor(provideMachines(deps).workspaceSwitch, { input: { profileId: 'p1' } }).start();
    actor.send({ type: 'user.switch', workspaceId: 'w2' });
    await waitFor(actor, () => reloads.length > 0);
    expect(reloads).toEqual(['/']);
    actor.stop();
  });

  it('the dataset page records one view and, after a delete, goes to the workspace feed after 2 s', async () => {
    const dataset = {
      id: 'd1',
      title: 'Sales',
      _links: {
        self: { href: 'http://api.test/api/datasets/d1' },
        'view dataset': { href: 'http://api.test/api/datasets/d1/view' },
        'delete dataset': { href: 'http://api.test/api/datasets/d1' },
      },
    };
    const { deps, moves, calls } = effects([{ body: dataset }, { status: 200 }, { status: 204 }]);
    const clock = new SimulatedClock();
    const actor = createActor(provideMachines(deps).datasetPage, { input: { workspaceId: 'w1', idOrAlias: 'd1', viewer: { id: 'p1' } }, clock }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.delete' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('deleted'));
    expect(moves).toEqual([]);
    clock.increment(2_000);
    expect(moves).toEqual(['/l/w1/feed']);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET http://api.test/api/workspaces/w1/datasets/d1',
      'PUT http://api.test/api/datasets/d1/view',
      'DELETE http://api.test/api/datasets/d1',
    ]);
    actor.stop();
  });
});

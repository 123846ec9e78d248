import { describe, expect, it } from 'vitest';
import { createActor, type AnyStateMachine } from 'xstate';
import { alertRulesMachine } from './alertRules/alertRules.machine';
import { apiKeysMachine } from './apiKeys/apiKeys.machine';
import { assistantMachine } from './assistant/assistant.machine';
import { changePasswordMachine } from './changePassword/changePassword.machine';
import { channelSelectionMachine } from './channelSelection/channelSelection.machine';
import { commentThreadMachine } from './commentThread/commentThread.machine';
import { dashboardEditorMachine } from './dashboardEditor/dashboardEditor.machine';
import { dataPluginsMachine } from './dataPlugins/dataPlugins.machine';
import { dataStoreListMachine } from './dataStoreList/dataStoreList.machine';
import { datasetPageMachine } from './datasetPage/datasetPage.machine';
import { discoveryUploadMachine } from './discoveryUpload/discoveryUpload.machine';
import { inboxMachine } from './inbox/inbox.machine';
import { invitationsMachine } from './invitations/invitations.machine';
import { jobRunMachine } from './jobRun/jobRun.machine';
import { landingMachine } from './landing/landing.machine';
import { libraryListsMachine } from './libraryLists/libraryLists.machine';
import { membersMachine } from './members/members.machine';
import { newsMachine } from './news/news.machine';
import { onboardingMachine } from './onboarding/onboarding.machine';
import { pipelineFormMachine } from './pipelineForm/pipelineForm.machine';
import { setupTasksMachine } from './setupTasks/setupTasks.machine';
import { storeBrowserMachine } from './storeBrowser/storeBrowser.machine';
import { streamPickerMachine } from './streamPicker/streamPicker.machine';
import { tagChipsMachine } from './tagChips/tagChips.machine';
import { watchMachine } from './watch/watch.machine';
import { workspaceSwitchMachine } from './workspaceSwitch/workspaceSwitch.machine';

// What each machine holds before anything has answered (issue 40: independent checks). The
// generated replays compare a machine with snapshots the same machine made, so a list that starts
// with an item in it, or a counter that starts at 1, replays unchanged; here each starting context
// is written out by hand, from the input given.

// Stand-ins: the machines keep these as given, so any object does.
const workspace = { id: 'w1', _links: {} } as never;
const pipeline = { id: 'p1', _links: {} } as never;
const dataset = { id: 'd1' } as never;

const cases: [string, AnyStateMachine, unknown, unknown][] = [
  ['alertRules', alertRulesMachine, { dataset }, { input: { dataset }, rules: null, loadError: null, draft: null, errors: [] }],
  ['apiKeys', apiKeysMachine, { canCreate: true }, { canCreate: true, keys: [], draft: null, name: '', nameError: null, secret: null, pendingDelete: null, error: null }],
  ['assistant', assistantMachine, { workspace }, { workspace, text: '', message: null }],
  ['changePassword', changePasswordMachine, { email: 'ada@example.com' }, { email: 'ada@example.com', text: null, error: null }],
  ['channelSelection', channelSelectionMachine, { workspace, search: 'sales' }, { workspace, search: 'sales', channels: [], error: null }],
  ['commentThread', commentThreadMachine, { dataset, datasetId: 'd1' }, { dataset, datasetId: 'd1', items: [], lastPage: null, target: null, error: null, moreError: null }],
  [
    'dashboardEditor',
    dashboardEditorMachine,
    { workspace },
    { workspace, draft: null, blocks: [], error: null, picker: { q: '', view: 'chart', results: [], error: null }, titles: {} },
  ],
  [
    'dataPlugins',
    dataPluginsMachine,
    { workspace, installed: true, type: 'extractors' },
    { workspace, installed: true, type: 'extractors', search: '', page: 0, items: [], totalElements: 0, totalPages: 0, target: null, notice: null, error: null },
  ],
  ['dataStoreList', dataStoreListMachine, { workspace }, { workspace, stores: null, target: null, error: null }],
  [
    'datasetPage',
    datasetPageMachine,
    { workspaceId: 'w1', idOrAlias: 'sales', viewer: 'v' },
    { workspaceId: 'w1', idOrAlias: 'sales', viewer: 'v', dataset: null, rows: undefined, rowsError: null, loadError: null, error: null, draft: '', descriptionError: null },
  ],
  ['discoveryUpload', discoveryUploadMachine, { workspace }, { workspace, yaml: '', errorLines: [], message: null, published: [] }],
  ['inbox', inboxMachine, undefined, { items: [], page: null, settings: null, target: null, pendingSettings: null, error: null, then: null }],
  ['invitations', invitationsMachine, { workspace }, { workspace, invitations: null, target: null, emails: [], formError: null, error: null }],
  ['jobRun', jobRunMachine, { pipeline }, { pipeline, error: null, runsEnded: 0 }],
  ['landing', landingMachine, { workspaceId: 'w1' }, { workspaceId: 'w1', workspace: undefined, route: undefined, error: undefined }],
  [
    'libraryLists',
    libraryListsMachine,
    { workspace, kind: 'channels' },
    { workspace, kind: 'channels', channels: [], error: null, dialog: null, pending: null, actionError: null },
  ],
  ['members', membersMachine, { workspace }, { workspace, items: [], lastPage: null, error: null, moreError: null }],
  ['news', newsMachine, { workspaceId: 'w1', q: 'in:sales' }, { workspaceId: 'w1', q: 'in:sales', items: [], channels: [], lastPage: null, error: null, moreError: null }],
  [
    'onboarding',
    onboardingMachine,
    { step: 'workspace', workspaceId: 'w1' },
    {
      step: 'workspace',
      workspaceId: 'w1',
      workspace: null,
      name: '',
      plugins: null,
      pluginsPage: 0,
      morePlugins: false,
      search: '',
      plugin: null,
      errors: { banner: null, fields: {} },
      pipeline: null,
      job: null,
      runError: null,
      loadedTables: null,
    },
  ],
  [
    'pipelineForm',
    pipelineFormMachine,
    { workspace },
    {
      input: { workspace },
      pipeline: null,
      components: [],
      triggerOptions: [],
      name: '',
      nameTyped: false,
      properties: {},
      actionsMode: 'default',
      actions: '',
      script: '',
      scheduleChoice: 'manual',
      customCron: '',
      timeout: '',
      maxRetries: '',
      triggeredBy: [],
      saveKind: 'save',
      banner: null,
      fieldErrors: {},
      loadError: null,
      shareTables: false,
      runAfterSave: false,
      impact: null,
      cutOff: [],
    },
  ],
  ['setupTasks', setupTasksMachine, { workspace }, { workspace, tasks: null, target: null, error: null }],
  [
    'storeBrowser',
    storeBrowserMachine,
    { owner: workspace },
    { owner: workspace, wanted: null, tables: null, error: null, filter: '', open: null, sample: null, sampleError: null, lineageView: null },
  ],
  ['streamPicker', streamPickerMachine, { pipeline, component: 'tap' }, { pipeline, component: 'tap', streams: null, job: null, message: null }],
  ['tagChips', tagChipsMachine, { workspaceId: 'w1' }, { workspaceId: 'w1', tags: [], error: null }],
  ['watch', watchMachine, { pipeline }, { pipeline, error: null }],
  ['workspaceSwitch', workspaceSwitchMachine, { profileId: 'auth0|1' }, { profileId: 'auth0|1', workspaceId: null, error: null }],
];

describe('what each machine holds before anything answers', () => {
  it.each(cases)('%s', (_name, machine, input, context) => {
    // not started: nothing is invoked, the snapshot is the one the first step starts from
    const actor = createActor(machine, input === undefined ? {} : { input });
    expect(actor.getSnapshot().context).toStrictEqual(context);
  });

  it('storeBrowser keeps the table the address asks for', () => {
    const actor = createActor(storeBrowserMachine, { input: { owner: workspace, table: 'orders' } });
    expect(actor.getSnapshot().context.wanted).toBe('orders');
  });
});

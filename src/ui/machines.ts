import { emit } from 'xstate';
import type { ApiClient } from '../api/client';
import type { ErrorReporter } from '../api/reporting';
import { pathTo } from '../domain/routes';
import { alertRulesActors } from '../machines/alertRules/alertRules.actors';
import { alertRulesMachine } from '../machines/alertRules/alertRules.machine';
import { dashboardEditorActors } from '../machines/dashboardEditor/dashboardEditor.actors';
import { dashboardEditorMachine } from '../machines/dashboardEditor/dashboardEditor.machine';
import { apiKeysActors, type Clipboard } from '../machines/apiKeys/apiKeys.actors';
import { apiKeysMachine } from '../machines/apiKeys/apiKeys.machine';
import { assistantActors } from '../machines/assistant/assistant.actors';
import { assistantMachine } from '../machines/assistant/assistant.machine';
import type { LoginRedirect } from '../machines/auth/auth.machine';
import { channelSelectionActors } from '../machines/channelSelection/channelSelection.actors';
import { channelSelectionMachine } from '../machines/channelSelection/channelSelection.machine';
import { changePasswordActors } from '../machines/changePassword/changePassword.actors';
import { changePasswordMachine } from '../machines/changePassword/changePassword.machine';
import { commentThreadActors } from '../machines/commentThread/commentThread.actors';
import { commentThreadMachine } from '../machines/commentThread/commentThread.machine';
import { datasetEditorActors } from '../machines/datasetEditor/datasetEditor.actors';
import { datasetEditorMachine } from '../machines/datasetEditor/datasetEditor.machine';
import { datasetPageActors, recordViewAction } from '../machines/datasetPage/datasetPage.actors';
import { datasetPageMachine } from '../machines/datasetPage/datasetPage.machine';
import { dataPluginsActors } from '../machines/dataPlugins/dataPlugins.actors';
import { dataPluginsMachine } from '../machines/dataPlugins/dataPlugins.machine';
import { discoveryUploadActors } from '../machines/discoveryUpload/discoveryUpload.actors';
import { discoveryUploadMachine } from '../machines/discoveryUpload/discoveryUpload.machine';
import { dataStoreFormActors } from '../machines/dataStoreForm/dataStoreForm.actors';
import { dataStoreFormMachine } from '../machines/dataStoreForm/dataStoreForm.machine';
import { workspaceFormActors } from '../machines/workspaceForm/workspaceForm.actors';
import { workspaceFormMachine } from '../machines/workspaceForm/workspaceForm.machine';
import { dataStoreListActors } from '../machines/dataStoreList/dataStoreList.actors';
import { dataStoreListMachine } from '../machines/dataStoreList/dataStoreList.machine';
import { storeBrowserActors } from '../machines/storeBrowser/storeBrowser.actors';
import { storeBrowserMachine } from '../machines/storeBrowser/storeBrowser.machine';
import { inboxActors } from '../machines/inbox/inbox.actors';
import { announceNotificationsChanged } from './notificationsChanged';
import { inboxMachine } from '../machines/inbox/inbox.machine';
import { invitationsActors } from '../machines/invitations/invitations.actors';
import { invitationsMachine } from '../machines/invitations/invitations.machine';
import { membersActors } from '../machines/members/members.actors';
import { membersMachine } from '../machines/members/members.machine';
import { feedActors } from '../machines/feed/feed.actors';
import { feedMachine } from '../machines/feed/feed.machine';
import { tagChipsActors } from '../machines/tagChips/tagChips.actors';
import { tagChipsMachine } from '../machines/tagChips/tagChips.machine';
import { jobRunActors } from '../machines/jobRun/jobRun.actors';
import { jobRunMachine } from '../machines/jobRun/jobRun.machine';
import { streamPickerActors } from '../machines/streamPicker/streamPicker.actors';
import { streamPickerMachine } from '../machines/streamPicker/streamPicker.machine';
import { landingActors } from '../machines/landing/landing.actors';
import { landingMachine } from '../machines/landing/landing.machine';
import { libraryListsActors } from '../machines/libraryLists/libraryLists.actors';
import { libraryListsMachine } from '../machines/libraryLists/libraryLists.machine';
import { logStreamActors } from '../machines/logStream/logStream.actors';
import { logStreamMachine } from '../machines/logStream/logStream.machine';
import { newsActors } from '../machines/news/news.actors';
import { newsMachine } from '../machines/news/news.machine';
import { latestDeploymentActor, notificationCountActor, taskCountActor } from '../machines/polling/polling.actors';
import { latestDeploymentMachine, notificationCountMachine, taskCountMachine } from '../machines/polling/polling.machine';
import { pipelineFormActors } from '../machines/pipelineForm/pipelineForm.actors';
import { pipelineFormMachine } from '../machines/pipelineForm/pipelineForm.machine';
import { profileFormActors } from '../machines/profileForm/profileForm.actors';
import { profileFormMachine, type ProfileSavedEmitted } from '../machines/profileForm/profileForm.machine';
import { workspaceSwitchActors } from '../machines/workspaceSwitch/workspaceSwitch.actors';
import { workspaceSwitchMachine } from '../machines/workspaceSwitch/workspaceSwitch.machine';
import { oauthConnectActions, oauthConnectActors } from '../machines/oauthConnect/oauthConnect.actors';
import { oauthConnectMachine } from '../machines/oauthConnect/oauthConnect.machine';
import { onboardingActors } from '../machines/onboarding/onboarding.actors';
import { onboardingMachine } from '../machines/onboarding/onboarding.machine';
import { setupTasksActors } from '../machines/setupTasks/setupTasks.actors';
import { setupTasksMachine } from '../machines/setupTasks/setupTasks.machine';
import { watchActors } from '../machines/watch/watch.actors';
import { watchMachine } from '../machines/watch/watch.machine';
import { provideAuthMachine } from './authMachine';
import type { RuntimeConfig } from './runtimeConfig';

/** The identity provider's own user database: the only accounts whose password the app resets. */
export const PASSWORD_DATABASE_CONNECTION = 'Username-Password-Authentication';

/** Everything outside the machines that they act on: the composition root's ports. */
export interface MachineEffects {
  readonly client: ApiClient;
  readonly reporter: ErrorReporter;
  readonly config: Pick<RuntimeConfig, 'auth'>;
  /** The identity provider's sign-in (or sign-up) page. */
  readonly login: (redirect: LoginRedirect) => void;
  /** A move inside the SPA (the router). */
  readonly navigate: (to: string, options?: { readonly replace?: boolean; readonly state?: unknown }) => void;
  /** A full page load, so everything read at sign-in is read again. */
  readonly reload: (to: string) => void;
  readonly clipboard: Clipboard;
  /** fetch for calls outside the API (the identity provider's password reset). */
  readonly fetch: typeof fetch;
}

/**
 * Every machine of the app with its real effects: the one place where `.provide()` is called.
 * Views take their machine from here (useMachines) and give it only input.
 */
export function provideMachines(effects: MachineEffects) {
  const { client, navigate } = effects;
  return {
    auth: provideAuthMachine(effects),
    landing: landingMachine.provide({ actors: landingActors(client) }),
    notificationCount: notificationCountMachine.provide({ actors: { fetch: notificationCountActor(client) } }),
    taskCount: taskCountMachine.provide({ actors: { fetch: taskCountActor(client) } }),
    latestDeployment: latestDeploymentMachine.provide({ actors: { fetch: latestDeploymentActor(client) } }),
    workspaceSwitch: workspaceSwitchMachine.provide({
      actors: workspaceSwitchActors(client),
      actions: { reloadToRoot: () => effects.reload(pathTo('root')) },
    }),
    assistant: assistantMachine.provide({
      actors: assistantActors(client),
      actions: { openDataset: (_, { path }) => navigate(path) },
    }),
    changePassword: changePasswordMachine.provide({
      actors: changePasswordActors(effects.fetch, {
        authDomain: effects.config.auth.domain,
        clientId: effects.config.auth.clientId,
        connection: PASSWORD_DATABASE_CONNECTION,
      }),
    }),
    // The toast and the shell's copy of the profile belong to the page and the session: the saved
    // profile is emitted for them (profileForm actor.on('profile.saved')).
    profileForm: profileFormMachine.provide({
      actors: profileFormActors(client),
      actions: { profileSaved: emit((_, { profile }): ProfileSavedEmitted => ({ type: 'profile.saved', profile })) },
    }),
    feed: feedMachine.provide({ actors: feedActors(client) }),
    tagChips: tagChipsMachine.provide({ actors: tagChipsActors(client) }),
    // The dataset page (spec 002 §2): after a delete it goes back to the workspace's feed (the
    // history's previous entry may be outside the app, or the deleted dataset itself).
    datasetPage: datasetPageMachine.provide({
      actors: datasetPageActors(client),
      actions: {
        recordView: recordViewAction(client),
        goBack: (_, { workspaceId }) => navigate(pathTo('feed', { workspaceId }), { replace: true }),
      },
    }),
    apiKeys: apiKeysMachine.provide({ actors: apiKeysActors(client, effects.clipboard) }),
    // The Lab's pipelines list (spec 001 §2, §4)
    jobRun: jobRunMachine.provide({ actors: jobRunActors(client) }),
    logStream: logStreamMachine.provide({ actors: logStreamActors(client) }),
    watch: watchMachine.provide({ actors: watchActors(client) }),
    // The Lab's plugin catalogue (spec 001 §2 'Plugin catalogue')
    dataPlugins: dataPluginsMachine.provide({ actors: dataPluginsActors(client) }),
    discoveryUpload: discoveryUploadMachine.provide({ actors: discoveryUploadActors(client) }),
    // an extractor's streams in the pipeline editor (issue 37, item 6)
    streamPicker: streamPickerMachine.provide({ actors: streamPickerActors(client) }),
    pipelineForm: pipelineFormMachine.provide({
      actors: pipelineFormActors(client),
      actions: {
        // replace: the back button from the saved pipeline should not land on /new again
        showPipeline: (_, { workspaceId, pipelineId, toast, toastIntent }) => navigate(pathTo('pipeline', { workspaceId, pipelineId }), { replace: true, state: { toast, toastIntent } }),
        showRuns: (_, { workspaceId, toast }) => navigate(pathTo('pipelines', { workspaceId }), { replace: true, state: { toast } }),
        close: (_, { workspaceId }) => navigate(pathTo('pipelines', { workspaceId })),
      },
    }),
    // The Lab's dataset editor (issue 8): the saved dataset is emitted for the page's toast
    // (datasetEditor actor.on('dataset.saved')).
    datasetEditor: datasetEditorMachine.provide({ actors: datasetEditorActors(client) }),
    // OAuth connect of a data source's OAUTH setting (spec 001 §4, §7)
    oauthConnect: oauthConnectMachine.provide({ actors: oauthConnectActors(client), actions: oauthConnectActions }),
    // The Lab's data stores (spec 001 §2 'Data stores'); a toast's text travels with the move.
    dataStoreList: dataStoreListMachine.provide({ actors: dataStoreListActors(client) }),
    // The store browser (issue 20): the embedded store's page and the dataset editor's SQL.
    storeBrowser: storeBrowserMachine.provide({ actors: storeBrowserActors(client) }),
    // Setup tasks (spec 001 §2–§4): the Lab's, the app area's and onboarding step 3's cards.
    setupTasks: setupTasksMachine.provide({ actors: setupTasksActors(client) }),
    // Onboarding (spec 001 §2, §4): the Lab is reached by a full load, so the session knows the new workspace.
    onboarding: onboardingMachine.provide({
      actors: onboardingActors(client),
      actions: { goTo: (_, { path, reload }) => (reload ? effects.reload(path) : navigate(path)) },
    }),
    commentThread: commentThreadMachine.provide({ actors: commentThreadActors(client) }),
    // Invitations and the notifications inbox (spec 002 §2, §4; issue 12 noise control)
    invitations: invitationsMachine.provide({ actors: invitationsActors(client) }),
    // The members page (issue 20)
    members: membersMachine.provide({ actors: membersActors(client) }),
    inbox: inboxMachine.provide({
      actors: inboxActors(client),
      actions: {
        goTo: (_, { path }) => {
          if (path !== null) navigate(path);
        },
        changed: () => announceNotificationsChanged(),
      },
    }),
    dataStoreForm: dataStoreFormMachine.provide({
      actors: dataStoreFormActors(client),
      actions: {
        showStore: (_, { workspaceId, datastoreId, message }) => navigate(pathTo('datastore', { workspaceId, datastoreId }), { replace: true, state: { toast: message } }),
        close: (_, { workspaceId, message }) => navigate(pathTo('datastores', { workspaceId }), message === null ? {} : { state: { toast: message } }),
      },
    }),
    // Channels, News and the Library (spec 002 §2): the selected channel travels in the URL.
    channelSelection: channelSelectionMachine.provide({
      actors: channelSelectionActors(client),
      actions: { showSearch: (_, { workspaceId, search }) => navigate(pathTo('channels', { workspaceId }, search === '' ? {} : { search })) },
    }),
    news: newsMachine.provide({ actors: newsActors(client) }),
    libraryLists: libraryListsMachine.provide({ actors: libraryListsActors(client) }),
    // Workspace create and settings (spec 001 §2, issue 10): a full reload after create or delete,
    // so the session reads the user's workspaces afresh.
    workspaceForm: workspaceFormMachine.provide({
      actors: workspaceFormActors(client),
      actions: {
        showCreated: (_, { workspaceId }) => effects.reload(pathTo('newData', { workspaceId })),
        leave: () => effects.reload(pathTo('root')),
      },
    }),
    // The dataset page's alert rules and the dashboard page's DASHBOARD_CONTENT editor.
    alertRules: alertRulesMachine.provide({ actors: alertRulesActors(client) }),
    dashboardEditor: dashboardEditorMachine.provide({ actors: dashboardEditorActors(client) }),
  };
}

export type Machines = ReturnType<typeof provideMachines>;

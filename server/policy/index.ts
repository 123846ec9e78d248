// The policy: who the caller is, which links they are offered, and the checks that refuse the rest.
export { mayRun, resolveCaller, verifiedEmail, VERIFY_EMAIL_TO_RUN, type Caller } from './caller';
export { hrefs, type Hrefs } from './hrefs';
export {
  apiKeyDraftLinks,
  apiKeyLinks,
  channelLinks,
  datasetLinks,
  datasetViewer,
  invitationLinks,
  isAdminRole,
  jobLinks,
  notificationLinks,
  notificationSettingsLinks,
  profileLinks,
  rootLinks,
  workspaceLinks,
} from './links';
export { requireOffered, workspaceAccess, type WorkspaceAccess } from './guard';
export { resolveAccess, RESOURCE_KINDS, type AccessByResource, type ResourceKind } from './access';

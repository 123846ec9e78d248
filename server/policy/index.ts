// The policy: who the caller is, which links they are offered, and the checks that refuse the rest.
export { resolveCaller, verifiedEmail, type Caller } from './caller';
export { hrefs, type Hrefs } from './hrefs';
export {
  LOCAL_REL,
  apiKeyDraftLinks,
  apiKeyLinks,
  datasetLinks,
  invitationLinks,
  isAdminRole,
  jobLinks,
  notificationLinks,
  profileLinks,
  rootLinks,
  workspaceLinks,
} from './links';
export { requireLink, requireOwnProfile, requireWorkspaceLink, workspaceAccess, type WorkspaceAccess } from './guard';

import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { isFeatureEnabled } from '../../domain/features';
import { isAllowedWithoutWorkspace } from '../../domain/landing';
import { pathTo, routePattern as path, type RouteName } from '../../domain/routes';
import { Loading } from '../components/Loading';
import { NotFoundPage } from '../pages/notFound/NotFoundPage';
import { DatasetRedirect, LabRedirect, LandingRedirect, LibraryRedirect, NewDataRedirect, RootRedirect } from './Redirects';
import { SetupLayout } from './SetupLayout';
import { ShellLayout } from './ShellLayout';
import { useSession } from './session';
import { RequireAdmin, RequireOwner, RequireWorkspace } from './guards';
import { useRoute } from './useRoute';

// Pages load on demand so the first route stays small.
const ProfilePage = lazy(() => import('../pages/profile/ProfilePage'));
const ChangePasswordPage = lazy(() => import('../pages/changePassword/ChangePasswordPage'));
const ApiKeysPage = lazy(() => import('../pages/apiKeys/ApiKeysPage'));
const DebugPage = lazy(() => import('../pages/debug/DebugPage'));
const FeedPage = lazy(() => import('../pages/datasets/FeedPage'));
const ExplorePage = lazy(() => import('../pages/datasets/ExplorePage'));
const DatasetPage = lazy(() => import('../pages/datasets/DatasetPage'));
const StarredPage = lazy(() => import('../pages/library/StarredPage'));
const NewsPage = lazy(() => import('../pages/library/NewsPage'));
const ChannelsPage = lazy(() => import('../pages/library/ChannelsPage'));
const LibraryPage = lazy(() => import('../pages/library/LibraryPage'));
const PipelinesPage = lazy(() => import('../pages/lab/pipelines/list/PipelinesPage'));
const PipelineEditPage = lazy(() => import('../pages/lab/pipelines/edit/PipelineEditPage'));
const LabDatasetsPage = lazy(() => import('../pages/lab/datasets/LabDatasetsPage'));
const DataPluginsPage = lazy(() => import('../pages/lab/dataplugins/DataPluginsPage'));
const DataSourcesPage = lazy(() => import('../pages/lab/datasources/DataSourcesPage'));
const LabChannelsPage = lazy(() => import('../pages/lab/channels/LabChannelsPage'));
const ProjectPage = lazy(() => import('../pages/lab/project/ProjectPage'));
const LabHelpPage = lazy(() => import('../pages/lab/help/LabHelpPage'));
const InvitationsPage = lazy(() => import('../pages/invitations/InvitationsPage'));
const MembersPage = lazy(() => import('../pages/members/MembersPage'));
const NotificationsPage = lazy(() => import('../pages/notifications/NotificationsPage'));
const DataStoresPage = lazy(() => import('../pages/lab/datastores/list/DataStoresPage'));
const DataStoreEditPage = lazy(() => import('../pages/lab/datastores/edit/DataStoreEditPage'));
const SetupTasksPage = lazy(() => import('../pages/setupTasks/SetupTasksPage'));
const OnboardingPage = lazy(() => import('../pages/onboarding/OnboardingPage'));
const DashboardPage = lazy(() => import('../pages/dashboard/DashboardPage'));
const HelpPage = lazy(() => import('../pages/help/HelpPage'));
const WorkspaceSettingsPage = lazy(() => import('../pages/workspace/WorkspaceSettingsPage'));

const page = (element: ReactNode) => <Suspense fallback={<Loading />}>{element}</Suspense>;

/**
 * The router's side of the route table (domain/routes.ts): every path here is a table pattern.
 * Areas that later releases fill keep their routes and view names.
 */
export function AppRoutes() {
  const { workspaces, features } = useSession();
  const { pathname } = useLocation();
  // Zero workspaces: only the listed routes exist; everything else goes to onboarding.
  if (workspaces.length === 0 && !isAllowedWithoutWorkspace(pathname)) {
    return <Navigate to={pathTo('setupNewWorkspace')} replace />;
  }
  const library = isFeatureEnabled(features, 'LIBRARY');
  const starred = isFeatureEnabled(features, 'STARRED');
  const news = isFeatureEnabled(features, 'NEWS');
  const labProject = isFeatureEnabled(features, 'LAB_PROJECT');
  const invitations = isFeatureEnabled(features, 'INVITATIONS');
  const inWorkspace = (
    <RequireWorkspace>
      <Outlet />
    </RequireWorkspace>
  );
  const inLab = (
    <RequireWorkspace>
      <RequireAdmin>
        <Outlet />
      </RequireAdmin>
    </RequireWorkspace>
  );

  return (
    <Routes>
      <Route path={path('root')} element={<RootRedirect />} />
      <Route path={path('lab')} element={<LabRedirect />} />
      <Route path={path('datasetShortcut')} element={<DatasetRedirect />} />
      <Route path={path('workspaceLanding')} element={<RequireWorkspace><LandingRedirect /></RequireWorkspace>} />
      <Route element={<SetupLayout />}>
        <Route path={path('setupNewWorkspace')} element={page(<OnboardingPage />)} />
        <Route path={path('setup')} element={<Exactly route="setup">{page(<OnboardingPage />)}</Exactly>} />
      </Route>
      <Route element={<ShellLayout />}>
        <Route path={path('debug')} element={page(<DebugPage />)} />
        <Route path={path('debugProfile')} element={page(<DebugPage />)} />
        <Route path={path('profile')} element={page(<ProfilePage />)} />
        <Route path={path('changePassword')} element={page(<ChangePasswordPage />)} />
        <Route path={path('apiKeys')} element={page(<ApiKeysPage />)} />
        <Route path={path('newWorkspace')} element={<RequireOwner>{page(<WorkspaceSettingsPage />)}</RequireOwner>} />
        <Route path={path('workspaceSettings')} element={<RequireWorkspace><RequireAdmin>{page(<WorkspaceSettingsPage />)}</RequireAdmin></RequireWorkspace>} />

        <Route element={inWorkspace}>
          <Route path={path('feed')} element={page(<FeedPage />)} />
          {news && <Route path={path('news')} element={page(<NewsPage />)} />}
          <Route path={path('explore')} element={page(<ExplorePage />)} />
          <Route path={path('dataset')} element={page(<DatasetPage />)} />
          <Route path={path('help')} element={page(<HelpPage />)} />
          <Route path={path('dashboard')} element={page(<DashboardPage />)} />
          <Route path={path('channels')} element={page(<ChannelsPage />)} />
          {starred && <Route path={path('starred')} element={page(<StarredPage />)} />}
          {/* A profile with INVITATIONS disabled has no invitations entry and no page (spec 002 §6). */}
          {invitations && <Route path={path('invitations')} element={page(<InvitationsPage />)} />}
          <Route path={path('members')} element={page(<MembersPage />)} />
          <Route path={path('notifications')} element={page(<NotificationsPage />)} />
          <Route path={path('setupTasks')} element={<RequireAdmin>{page(<SetupTasksPage />)}</RequireAdmin>} />
          <Route path={path('newData')} element={<NewDataRedirect />} />
          {library && <Route path={path('library')} element={<LibraryRedirect />} />}
          {library && <Route path={path('libraryType')} element={<Exactly route="libraryType">{page(<LibraryPage />)}</Exactly>} />}
          {library && <Route path={path('libraryChannel')} element={<Exactly route="libraryChannel">{page(<LibraryPage />)}</Exactly>} />}
        </Route>

        <Route element={inLab}>
          <Route path={path('pipelines')} element={page(<PipelinesPage />)} />
          <Route path={path('newPipeline')} element={page(<PipelineEditPage />)} />
          <Route path={path('pipeline')} element={page(<PipelineEditPage />)} />
          <Route path={path('datastores')} element={page(<DataStoresPage />)} />
          <Route path={path('newDatastore')} element={page(<DataStoreEditPage />)} />
          <Route path={path('datastore')} element={page(<DataStoreEditPage />)} />
          <Route path={path('labDatasets')} element={page(<LabDatasetsPage />)} />
          <Route path={path('dataplugins')} element={page(<DataPluginsPage />)} />
          <Route path={path('datasources')} element={page(<DataSourcesPage />)} />
          <Route path={path('labChannels')} element={page(<LabChannelsPage />)} />
          <Route path={path('labSetupTasks')} element={page(<SetupTasksPage />)} />
          <Route path={path('labSettings')} element={page(<WorkspaceSettingsPage />)} />
          {labProject && <Route path={path('project')} element={page(<ProjectPage />)} />}
          <Route path={path('labHelp')} element={page(<LabHelpPage />)} />
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/**
 * The router matches any text for a parameter; the table also restricts some to the spec's words
 * (setup steps, library types). A location the table does not read as this route is not found.
 */
function Exactly({ route, children }: { route: RouteName; children: ReactNode }) {
  return useRoute()?.name === route ? <>{children}</> : <NotFoundPage />;
}

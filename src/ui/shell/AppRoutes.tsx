import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { isFeatureEnabled } from '../../domain/features';
import { isAllowedWithoutWorkspace, NEW_WORKSPACE_SETUP_PATH } from '../../domain/landing';
import { Loading } from '../components/Loading';
import { ViewPage } from '../pages/ViewPage';
import { DatasetRedirect, LabRedirect, LandingRedirect, RootRedirect } from './Redirects';
import { ShellLayout } from './ShellLayout';
import { useSession } from './session';
import { RequireAdmin, RequireWorkspace, WorkspaceSettingsGuard } from './guards';

// Pages load on demand so the first route stays small.
const ProfilePage = lazy(() => import('../pages/profile/ProfilePage'));
const ChangePasswordPage = lazy(() => import('../pages/changePassword/ChangePasswordPage'));
const ApiKeysPage = lazy(() => import('../pages/apiKeys/ApiKeysPage'));
const DebugPage = lazy(() => import('../pages/debug/DebugPage'));
const FeedPage = lazy(() => import('../pages/datasets/FeedPage'));
const ExplorePage = lazy(() => import('../pages/datasets/ExplorePage'));
const DatasetPage = lazy(() => import('../pages/datasets/DatasetPage'));

const page = (element: ReactNode) => <Suspense fallback={<Loading />}>{element}</Suspense>;

/** The route table of spec 000 §2.2. Areas that later releases fill keep their routes and view names. */
export function AppRoutes() {
  const { workspaces, features } = useSession();
  const { pathname } = useLocation();
  // Zero workspaces: only the listed routes exist; everything else goes to onboarding.
  if (workspaces.length === 0 && !isAllowedWithoutWorkspace(pathname)) {
    return <Navigate to={NEW_WORKSPACE_SETUP_PATH} replace />;
  }
  const library = isFeatureEnabled(features, 'LIBRARY');

  return (
    <Routes>
      <Route path="/" element={<RootRedirect />} />
      <Route path="/lab" element={<LabRedirect />} />
      <Route path="/dataset/*" element={<DatasetRedirect />} />
      <Route path="/l/:workspaceId" element={<RequireWorkspace><LandingRedirect /></RequireWorkspace>} />
      <Route path="/setup/:step/:workspaceId" element={<ViewPage view="Setup" title="Set up your workspace" standalone />} />
      <Route element={<ShellLayout />}>
        <Route path="/debug/*" element={page(<DebugPage />)} />
        <Route path="/p/profile" element={page(<ProfilePage />)} />
        <Route path="/change-password" element={page(<ChangePasswordPage />)} />
        <Route path="/api-key" element={page(<ApiKeysPage />)} />
        <Route
          path="/w/:workspaceId"
          element={<WorkspaceSettingsGuard create={<ViewPage view="New Workspace" title="New Workspace" />} edit={<ViewPage view="Workspace Settings" title="Workspace Settings" />} />}
        />
        <Route path="/l/:workspaceId/*" element={<RequireWorkspace><AppArea library={library} /></RequireWorkspace>} />
        <Route path="/lab/:workspaceId/*" element={<RequireWorkspace><RequireAdmin><LabArea /></RequireAdmin></RequireWorkspace>} />
        <Route path="*" element={<ViewPage view="Not found" title="Page not found" />} />
      </Route>
    </Routes>
  );
}

function AppArea({ library }: { library: boolean }) {
  return (
    <Routes>
      <Route path="feed" element={page(<FeedPage />)} />
      <Route path="news" element={<ViewPage view="Home" title="News" />} />
      <Route path="explore" element={page(<ExplorePage />)} />
      <Route path="dataset/*" element={page(<DatasetPage />)} />
      <Route path="channels" element={<ViewPage view="Channels" title="Channels" />} />
      <Route path="starred" element={<ViewPage view="Starred" title="Starred" />} />
      <Route path="help" element={<ViewPage view="Help" title="Help" />} />
      <Route path="dashboard" element={<ViewPage view="Dashboard" title="Dashboard" />} />
      <Route path="invitations" element={<ViewPage view="Invitations" title="Invitations" />} />
      <Route path="notifications" element={<ViewPage view="Notifications" title="Notifications" />} />
      <Route path="setupTasks" element={<ViewPage view="Setup Tasks" title="Setup Tasks" />} />
      {library && <Route path="library" element={<Navigate to="lists" replace />} />}
      {library && <Route path="library/:type" element={<ViewPage view="Library" title="Library" />} />}
      {library && <Route path="library/:type/:channelId" element={<ViewPage view="Library" title="Library" />} />}
      <Route path="*" element={<ViewPage view="Not found" title="Page not found" />} />
    </Routes>
  );
}

function LabArea() {
  return (
    <Routes>
      <Route path="pipelines" element={<ViewPage view="Data Imports" title="Data Imports" />} />
      <Route path="pipelines/new" element={<ViewPage view="Data Import" title="New data import" />} />
      <Route path="pipelines/:pipelineId" element={<ViewPage view="Data Import" title="Data import" />} />
      <Route path="datastores" element={<ViewPage view="Data Stores" title="Data Stores" />} />
      <Route path="datastores/new" element={<ViewPage view="Data Store" title="New data store" />} />
      <Route path="datastores/:datastoreId" element={<ViewPage view="Data Store" title="Data store" />} />
      <Route path="dataplugins" element={<ViewPage view="Plugins" title="Plugins" />} />
      <Route path="datasources" element={<ViewPage view="Data Sources" title="Data Sources" />} />
      <Route path="channels" element={<ViewPage view="Channels" title="Channels" />} />
      <Route path="datasets" element={<ViewPage view="Datasets" title="Datasets" />} />
      <Route path="setupTasks" element={<ViewPage view="Setup Tasks" title="Setup Tasks" />} />
      <Route path="settings" element={<ViewPage view="Workspace Settings" title="Settings" />} />
      <Route path="project" element={<ViewPage view="Project" title="Project" />} />
      <Route path="help" element={<ViewPage view="Help" title="Help" />} />
      <Route path="*" element={<ViewPage view="Not found" title="Page not found" />} />
    </Routes>
  );
}

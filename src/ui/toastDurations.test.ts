import { describe, expect, it } from 'vitest';

// How long each toast stays (spec 001 §9: save 6 s for the profile and a data store, copy 3 s, and
// the workspace's snackbar APP_SNACKBAR_TIMEOUT). A toast's duration is passed in the view, where
// no machine test sees it, so this reads the views: each file that shows a toast names where its
// duration comes from, and the workspace's snackbars name `snackbarMs(workspace)`. The list below
// is written by hand from the spec, not read from the code.

const views = import.meta.glob<string>('./**/*.tsx', { query: '?raw', import: 'default', eager: true });
const source = (file: string) => {
  const text = views[file];
  if (text === undefined) throw new Error(`${file} is gone: update this list`);
  return text;
};
const showsToast = (text: string) => /\bdispatchToast\(|\buseSaveToast\(/.test(text);

/** The Lab's and the dashboard's snackbars: the workspace's APP_SNACKBAR_TIMEOUT. */
const WORKSPACE_SNACKBARS = [
  './pages/lab/dataplugins/PluginList.tsx',
  './pages/lab/pipelines/edit/PipelineEditPage.tsx',
  './pages/lab/pipelines/list/PipelinesPage.tsx',
  './pages/lab/datasets/LabDatasetsPage.tsx',
  './pages/dashboard/DashboardPage.tsx',
];

/** Toasts with a duration of their own, by the constant that holds it. */
const FIXED = {
  './pages/profile/ProfilePage.tsx': 'PROFILE_TOAST_MS',
  './pages/lab/pipelines/list/EnvironmentTab.tsx': 'COPIED_TOAST_MS',
  './pages/apiKeys/ApiKeysPage.tsx': 'COPIED_TOAST_MS',
  './pages/debug/DebugPage.tsx': 'COPIED_TOAST_MS',
  './pages/invitations/InvitationsPage.tsx': 'INVITATION_SENT_TOAST_MS',
  // the data store pages' save toast: useSaveToast's default, the spec's fixed 6 s
  './pages/lab/datastores/edit/DataStoreEditPage.tsx': 'useSaveToast(toasterId)',
  './pages/lab/datastores/list/DataStoresPage.tsx': 'useSaveToast(toasterId)',
} as const;

describe('toast durations', () => {
  it("passes the workspace's snackbar time on every Lab and dashboard snackbar", () => {
    for (const file of WORKSPACE_SNACKBARS) {
      const text = source(file);
      expect(showsToast(text), file).toBe(true);
      expect(text, file).toMatch(/snackbarMs\(workspace( \?\? null)?\)/);
    }
  });

  it('gives every other toast its named duration', () => {
    for (const [file, duration] of Object.entries(FIXED)) expect(source(file), file).toContain(duration);
  });

  it('knows every view that shows a toast, so a new one is given its duration here', () => {
    const listed = new Set([...WORKSPACE_SNACKBARS, ...Object.keys(FIXED), './components/useSaveToast.tsx']);
    const showing = Object.keys(views).filter((file) => !file.endsWith('.test.tsx') && showsToast(source(file)));
    expect(showing.filter((file) => !listed.has(file)).sort()).toEqual([]);
  });
});

import { embeddedList, hasLink } from '../domain/hal';
import { ONBOARDING_LOADER, ONBOARDING_PLUGINS_PAGE_SIZE } from '../domain/onboarding';
import { newComponentRef } from '../domain/pipelineForm';
import { REL } from '../domain/relations';
import { dataPluginsCollectionSchema, workspaceSchema, type DataPlugin, type Pipeline, type Workspace } from '../domain/resources';
import { getRoot } from './root';
import type { ApiClient, RequestOptions } from './client';
import { initialisePipeline, savePipeline } from './pipelineForm';

// Onboarding's calls (spec 001 §7): the root's 'new workspace' (POST, initialise) then the draft's
// 'create workspace' (PUT {name}); renaming through 'update delete workspace'; the profile's
// defaultWorkspace (PATCH); the workspace's extractors 10 at a time; 'new pipeline' then 'create pipeline'.

/** Step 1: a new workspace (initialise, then create) or the loaded one renamed. The form shows a 400 itself. */
export async function saveOnboardingWorkspace(client: ApiClient, workspace: Workspace | null, name: string, options: RequestOptions = {}): Promise<Workspace> {
  let target = workspace;
  let rel: string = REL.updateDeleteWorkspace;
  // A rename sends the workspace back as it was read, with the new name; a creation only the name.
  let body: object = { ...workspace, name };
  if (target === null) {
    const root = await getRoot(client, options);
    // One attempt each: a repeated POST would initialise a second draft.
    target = (await client.follow(root, REL.newWorkspace, { ...options, method: 'POST', schema: workspaceSchema, retry: false })) ?? null;
    if (target === null) throw new TypeError('The new workspace link answered with no workspace');
    rel = REL.createWorkspace;
    body = { name };
  }
  const saved = await client.follow(target, rel, { ...options, method: 'PUT', body, schema: workspaceSchema, skipErrorHandler: true });
  if (saved === undefined) throw new TypeError(`The '${rel}' link answered with no workspace`);
  return saved;
}

/** PATCH the signed-in profile with defaultWorkspace {id} (spec 001 §7). */
export async function makeDefaultWorkspace(client: ApiClient, workspaceId: string, options: RequestOptions = {}): Promise<void> {
  const root = await getRoot(client, options);
  await client.follow(root, REL.profile, { ...options, method: 'PATCH', body: { defaultWorkspace: { id: workspaceId } } });
}

/** One page of step 2's choices, and whether another follows. */
type OnboardingPluginsPage = { readonly plugins: DataPlugin[]; readonly hasMore: boolean };

/** Step 2's choices: the workspace's extractors (those that run here), by label, 10 at a time. */
export async function listOnboardingPlugins(client: ApiClient, workspace: Workspace, search: string, pageNumber = 0, options: RequestOptions = {}): Promise<OnboardingPluginsPage> {
  const name = search.trim();
  const page = await client.follow(workspace, REL.dataplugins, {
    ...options,
    schema: dataPluginsCollectionSchema,
    query: { sort: 'label', size: ONBOARDING_PLUGINS_PAGE_SIZE, page: pageNumber, type: 'EXTRACTOR', ...(name === '' ? {} : { name }) },
  });
  return { plugins: embeddedList(page, 'dataplugins'), hasMore: hasLink(page, 'next') };
}

/** Step 2's save: a pipeline from the chosen plugin into the workspace's default store. */
export async function createOnboardingPipeline(client: ApiClient, workspace: Workspace, plugin: DataPlugin, name: string, options: RequestOptions = {}): Promise<Pipeline> {
  const pipeline = await initialisePipeline(client, workspace, options);
  return savePipeline(client, pipeline, REL.createPipeline, { name, dataComponents: [newComponentRef(plugin), ONBOARDING_LOADER] }, options);
}

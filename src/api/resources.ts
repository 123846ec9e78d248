import { linkHref, type HalLike } from '../domain/hal';
import { REL } from '../domain/relations';
import { encodeResourcePath, resourceFileName } from '../domain/workspaceResources';
import { workspaceResourceSchema, workspaceResourcesCollectionSchema, type WorkspaceResource, type WorkspaceResourcesCollection } from '../domain/resources';
import { required, type ApiClient, type RequestOptions } from './client';
import { ApiFailure } from './errors';

/**
 * A workspace resource's content (spec 002 §7 'GET workspace resources path', DownloadResource):
 * the file at `path` under the workspace's 'resources' link, as a Blob with the name it is saved
 * under. `path` is one checkResourcePath took. Without the link it rejects as a missing link.
 */
export async function downloadResource(client: ApiClient, workspace: HalLike, path: string, options: RequestOptions = {}): Promise<{ blob: Blob; fileName: string }> {
  const resources = linkHref(workspace, REL.resources);
  if (resources === undefined) throw new ApiFailure({ kind: 'missingLink', rel: REL.resources }, { skipErrorHandler: options.skipErrorHandler === true });
  const file = { _links: { [REL.self]: { href: `${resources.replace(/\/+$/, '')}/${encodeResourcePath(path)}` } } };
  const blob = await client.download(file, REL.self, '*/*', options);
  return { blob, fileName: resourceFileName(path) };
}

/** The workspace's files, the first `size` by path (the Lab's Files list). */
export function listResources(client: ApiClient, workspace: HalLike, size: number, options: RequestOptions = {}): Promise<WorkspaceResourcesCollection> {
  return client.follow(workspace, REL.resources, { ...options, query: { size, sort: 'path,asc' }, schema: workspaceResourcesCollectionSchema });
}

/**
 * Uploads a file the person picked to `path` under the workspace's 'resources' link: the file's
 * own bytes as the body (the browser streams it and sends its length), its type as declared.
 */
export async function uploadResource(client: ApiClient, workspace: HalLike, path: string, file: Blob, options: RequestOptions = {}): Promise<WorkspaceResource> {
  const resources = linkHref(workspace, REL.resources);
  if (resources === undefined) throw new ApiFailure({ kind: 'missingLink', rel: REL.resources }, { skipErrorHandler: options.skipErrorHandler === true });
  const url = `${resources.replace(/\/+$/, '')}/${encodeResourcePath(path)}`;
  const answer = await client.put(url, file, workspaceResourceSchema, { ...options, headers: { ...options.headers, 'Content-Type': file.type || 'application/octet-stream' } });
  return required(answer, 'the stored file');
}

/** Deletes a file through its 'delete resource' link. */
export async function deleteResource(client: ApiClient, resource: WorkspaceResource, options: RequestOptions = {}): Promise<void> {
  await client.follow(resource, REL.deleteResource, { ...options, method: 'DELETE' });
}

import { linkHref, type HalLike } from '../domain/hal';
import { REL } from '../domain/relations';
import { encodeResourcePath, resourceFileName } from '../domain/workspaceResources';
import type { ApiClient, RequestOptions } from './client';
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

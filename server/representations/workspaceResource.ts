import type { Wire, workspaceResourceSchema } from '../../src/domain/resources';
import type { Links } from '../http/hal';
import type { ResourceMeta } from '../repositories/workspaceResources';
import { isoRequired } from './context';

/** A workspace file's JSON view (its bytes are the download). */
export function workspaceResourceBody(resource: ResourceMeta, links: Links): Wire<typeof workspaceResourceSchema> {
  return {
    path: resource.path,
    created: isoRequired(resource.created),
    lastModified: isoRequired(resource.last_modified),
    contentType: resource.content_type,
    size: resource.size,
    _links: links,
  };
}

import { checkResourcePath, recordedContentType } from '../../src/domain/workspaceResources';
import type { Db } from '../db/database';
import { HttpError } from '../http/errors';
import { rejectFieldErrors } from '../http/validation';
import { bytesOf, writeResource, type ResourceMeta } from '../repositories/workspaceResources';

// The reference's "publish multiple resources": several files in one JSON body, each checked as
// PUT …/resources/{path} checks one (its path, RESOURCE_MAX_MB, the workspace's RESOURCE_WORKSPACE_MB),
// and written all or nothing: one transaction, so a refused item leaves every file as it was.

interface ResourceToPublish {
  path: string;
  content: string;
  contentType?: string | null | undefined;
}

interface PublishLimits {
  fileBytes: number;
  workspaceBytes: number;
}

/** Thrown inside the transaction to roll back what the earlier items wrote. */
class OverQuota extends Error {}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Each item's path (as stored) and bytes, or a 400 naming every bad item by its index; a file over the limit is a 413 naming its index. */
function checked(items: readonly ResourceToPublish[], objectName: string, limits: PublishLimits) {
  const errors: Record<string, string | undefined> = {};
  const firstAt = new Map<string, number>();
  const prepared = items.map((item, index) => {
    const path = checkResourcePath(item.path);
    if (!path.ok) errors[`${index}.path`] = path.message;
    else if (firstAt.has(path.path)) errors[`${index}.path`] = `is given twice (first at ${firstAt.get(path.path)})`;
    else firstAt.set(path.path, index);
    return { path: path.ok ? path.path : '', content: Buffer.from(item.content, 'utf8'), contentType: item.contentType };
  });
  rejectFieldErrors(objectName, errors);
  const large = prepared.findIndex((p) => p.content.length > limits.fileBytes);
  if (large >= 0) throw new HttpError(413, `${large}.content: a file may be at most ${megabytes(limits.fileBytes)} (RESOURCE_MAX_MB)`);
  return prepared;
}

export async function publishResources(
  db: Db,
  write: { workspaceId: string; profileId: string | null; items: readonly ResourceToPublish[] },
  limits: PublishLimits,
  objectName: string,
): Promise<{ resource: ResourceMeta; created: boolean }[]> {
  const prepared = checked(write.items, objectName, limits);
  try {
    return await db.transaction().execute(async (trx) => {
      const written: { resource: ResourceMeta; created: boolean }[] = [];
      for (const item of prepared) {
        const result = await writeResource(
          trx,
          { workspaceId: write.workspaceId, path: item.path, content: bytesOf(item.content), contentType: recordedContentType(item.contentType, item.path), profileId: write.profileId },
          limits.workspaceBytes,
        );
        if (!result.ok) throw new OverQuota();
        written.push({ resource: result.resource, created: result.created });
      }
      return written;
    });
  } catch (error) {
    if (!(error instanceof OverQuota)) throw error;
    throw new HttpError(413, `This workspace's files may hold at most ${megabytes(limits.workspaceBytes)} together (RESOURCE_WORKSPACE_MB): nothing was written; delete some first`);
  }
}

import type { datasetSchema, Freshness, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import { datasetLinks, datasetViewer } from '../policy/links';
import { tagId, type DatasetRow } from '../repositories/datasets';
import { iso, isoRequired, type BodyContext } from './context';

export function datasetBody(ctx: BodyContext, dataset: DatasetRow, role: MemberRole, profileId: string, freshness?: Freshness | null): Wire<typeof datasetSchema> {
  return {
    id: dataset.id,
    workspaceId: dataset.workspace_id,
    alias: dataset.alias,
    title: dataset.title,
    description: dataset.description,
    descriptionContentType: dataset.description_content_type,
    questions: dataset.questions,
    visualisation: dataset.visualisation,
    metadata: dataset.metadata,
    rawData: dataset.raw_data,
    query: dataset.query,
    viewCount: dataset.view_count,
    likeCount: dataset.like_count,
    likedByProfiles: dataset.likers.map((l) => ({ id: l.id, name: l.name, email: l.email })),
    commentCount: dataset.comment_count,
    continuousPoll: dataset.continuous_poll,
    published: iso(dataset.published),
    created: isoRequired(dataset.created),
    lastModified: isoRequired(dataset.last_modified),
    tags: dataset.tags.map((name) => ({ id: tagId(dataset.workspace_id, name), name })),
    ...(freshness !== undefined ? { freshness } : {}),
    ...(dataset.channel_id !== null && dataset.channel_name !== null
      ? {
          _embedded: {
            source: { id: dataset.channel_id, name: dataset.channel_name, description: dataset.channel_description, picture: dataset.channel_picture },
          },
        }
      : {}),
    _links: datasetLinks(ctx.h, dataset, datasetViewer(role, profileId, dataset)),
  };
}

export function datasetBodies(ctx: BodyContext, datasets: readonly DatasetRow[], role: MemberRole, profileId: string) {
  return datasets.map((d) => datasetBody(ctx, d, role, profileId));
}

import type { tagSchema, Wire } from '../../src/domain/resources';
import { tagLinks } from '../policy/links';
import { tagId } from '../repositories/datasets';
import type { BodyContext } from './context';

export function tagBody(ctx: BodyContext, workspaceId: string, tag: { name: string; usage: number }): Wire<typeof tagSchema> {
  const id = tagId(workspaceId, tag.name);
  return { id, name: tag.name, usage: tag.usage, _links: tagLinks(ctx.h, workspaceId, id) };
}

import type { channelSchema, Wire } from '../../src/domain/resources';
import { canDeleteChannel, channelLinks, isAdminRole, type ChannelViewer } from '../policy/links';
import type { ChannelRow } from '../repositories/channels';
import { isoRequired, type BodyContext } from './context';

type ChannelFacts = Partial<{ dataset_count: number; creator_name: string | null; contains_dataset: boolean }>;

export function channelBody(ctx: BodyContext, channel: ChannelRow & ChannelFacts, viewer: ChannelViewer, withContains = false): Wire<typeof channelSchema> {
  return {
    id: channel.id,
    name: channel.name,
    description: channel.description,
    picture: channel.picture,
    type: channel.type,
    scope: channel.scope,
    created: isoRequired(channel.created),
    lastModified: isoRequired(channel.last_modified),
    datasetCount: channel.dataset_count ?? null,
    // spec 002 §3: the creator's name is shown to admins only
    creator: isAdminRole(viewer.role) || channel.creator_id === viewer.profileId ? { name: channel.creator_name ?? null } : null,
    canDelete: canDeleteChannel(channel, viewer),
    ...(withContains ? { containsDataset: channel.contains_dataset === true } : {}),
    _links: channelLinks(ctx.h, channel, viewer),
  };
}

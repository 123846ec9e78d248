import type { Db } from '../../db/database';
import { publishWithTask } from '../../services/publishDataset';
import type { DatasetDefinition, FieldProblem } from '../deployDefinitions';
import type { ApplyRequest, Attempt } from './shared';

interface PublishedDefinition {
  definition: DatasetDefinition;
  created: boolean;
}

/** DatasetML: each dataset published by the publish API's publishDataset into the channel its `source` names, with the setup task that API completes. */
export async function publishDatasets(trx: Db, request: ApplyRequest, problems: FieldProblem[], attempt: Attempt): Promise<PublishedDefinition[]> {
  const { workspaceId, profileId } = request;
  const results: PublishedDefinition[] = [];
  for (const definition of request.datasets) {
    let channelId: string | null = null;
    if (definition.source !== null) {
      // a source channel (ChannelML's, created above) before a list of the same name
      const named = await trx
        .selectFrom('channels')
        .select(['id', 'type'])
        .where('workspace_id', '=', workspaceId)
        .where('name', '=', definition.source)
        .orderBy('created')
        .orderBy('id')
        .execute();
      const channel = named.find((c) => c.type === 'SOURCE') ?? named[0];
      if (!channel) {
        problems.push({ file: definition.file, field: 'source', message: `names no channel of this workspace ('${definition.source.slice(0, 80)}')` });
        continue;
      }
      channelId = channel.id;
    }
    const published = await attempt('datasets', definition.file, () => publishWithTask(trx, workspaceId, { ...definition.body, channelId }, profileId));
    if (!published) continue;
    results.push({ definition, created: published.created });
  }
  return results;
}

/** A line per dataset published, and the counts. */
export function settleDatasets(results: readonly PublishedDefinition[], lines: string[]): { created: number; updated: number } {
  const counts = { created: 0, updated: 0 };
  for (const { definition, created } of results) {
    counts[created ? 'created' : 'updated'] += 1;
    lines.push(`${created ? 'Created' : 'Updated'} dataset ${definition.alias} from ${definition.file}.`);
  }
  return counts;
}

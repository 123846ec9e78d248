import { commentsDisabledText } from '../../../../domain/datasetPage';
import type { Dataset, Workspace } from '../../../../domain/resources';
import { useMentionableMembers } from '../../../data/datasets';
import { useSession } from '../../../shell/session';
import { Thread } from './Thread';

/**
 * The Discussion tab: the dataset's comment thread. The workspace's members are read once, for
 * '@' suggestions and to show @handles as names; without them mentions stay as typed.
 */
export function Discussion({ dataset, workspace }: { dataset: Dataset; workspace: Workspace }) {
  const { profile } = useSession();
  const members = useMentionableMembers(workspace.id);
  return (
    <Thread
      parent={dataset}
      datasetId={dataset.id}
      parentId={null}
      viewerId={profile.id}
      workspaceId={workspace.id}
      members={members}
      disabledText={commentsDisabledText(workspace)}
    />
  );
}

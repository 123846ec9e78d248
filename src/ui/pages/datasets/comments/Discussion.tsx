import { useEffect, useState } from 'react';
import { listMembers } from '../../../../api/workspaces';
import { commentsDisabledText } from '../../../../domain/datasetPage';
import type { Dataset, Member, Workspace } from '../../../../domain/resources';
import { useRuntime } from '../../../runtime';
import { useSession } from '../../../shell/session';
import { Thread } from './Thread';

/**
 * The Discussion tab: the dataset's comment thread. The workspace's members are read once, for
 * '@' suggestions and to show @handles as names; without them mentions stay as typed.
 */
export function Discussion({ dataset, workspace }: { dataset: Dataset; workspace: Workspace }) {
  const { client } = useRuntime();
  const { profile } = useSession();
  const [members, setMembers] = useState<readonly Member[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    listMembers(client, workspace.id, { signal: controller.signal, query: { size: 999 } }).then(
      (list) => !controller.signal.aborted && setMembers(list),
      // Suggestions are a help, not the thread: a failure leaves handles as text.
      () => undefined,
    );
    return () => controller.abort();
  }, [client, workspace.id]);
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

import { Body1, Button, makeStyles, MessageBar, MessageBarActions, MessageBarBody, Skeleton, SkeletonItem, tokens } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { pageTitle } from '../../../domain/library';
import type { Workspace } from '../../../domain/resources';
import { stripQuotes } from '../../../domain/searchQuery';
import { selectSelected } from '../../../machines/channelSelection/channelSelection.machine';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { libraryMachines } from '../../machineAreas/library';
import { useWorkspace } from '../../shell/useWorkspace';
import { DatasetFeed } from '../../components/feed/DatasetFeed';
import { NO_MATCHES } from '../../components/feed/texts';
import { useSearchValue } from '../../shell/useSearchValue';
import { ChannelSlider } from './ChannelSlider';

const useStyles = makeStyles({
  page: { maxWidth: '1200px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  results: { maxWidth: '880px' },
  skeleton: { display: 'flex', gap: tokens.spacingHorizontalM },
});

/** /l/{ws}/channels (spec 002 Channels): the channel slider; below it the datasets of the selected channel, or all. */
export default function ChannelsPage() {
  const workspace = useWorkspace();
  return <Channels key={workspace.id} workspace={workspace} />;
}

function Channels({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(libraryMachines);
  const search = stripQuotes(useSearchValue());
  const selection = useActorRef(machines.channelSelection, { input: { workspace, search } });
  const channels = useSelector(selection, (s) => s.context.channels);
  const selected = useSelector(selection, selectSelected);
  const loading = useSelector(selection, (s) => s.matches('loading'));
  const error = useSelector(selection, (s) => (s.matches('failed') ? s.context.error : null));
  // The URL is the truth: back and forward move the selection too.
  useEffect(() => selection.send({ type: 'route.changed', search }), [selection, search]);
  const title = pageTitle(workspace, 'channels');

  return (
    <section data-view="Channels" aria-label={title} className={styles.page}>
      <PageHeader title={title} />
      {loading && (
        <Skeleton aria-label="Loading channels" className={styles.skeleton}>
          {[0, 1, 2, 3].map((i) => (
            <SkeletonItem key={i} shape="circle" size={56} />
          ))}
        </Skeleton>
      )}
      {error !== null && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" icon={<ArrowClockwiseRegular />} onClick={() => selection.send({ type: 'user.retry' })}>
              Retry
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {!loading && error === null && <ChannelSlider channels={channels} selected={selected?.name} onSelect={(name) => selection.send({ type: 'user.select', name })} />}
      <div className={styles.results}>
        <DatasetFeed key={search} workspaceId={workspace.id} source={{ kind: 'search', workspaceId: workspace.id, q: search }} showCount empty={<Body1>{NO_MATCHES}</Body1>} />
      </div>
    </section>
  );
}

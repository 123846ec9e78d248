import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  SearchBox,
  Spinner,
  Toast,
  Toaster,
  ToastTitle,
  tokens,
  useId,
  useToastController,
} from '@fluentui/react-components';
import { PlugConnectedRegular } from '@fluentui/react-icons';
import { useSelector, useActorRef } from '@xstate/react';
import { useEffect, useState } from 'react';
import { CATALOGUE_TEXTS } from '../../../../domain/catalogue';
import type { Workspace } from '../../../../domain/resources';
import { snackbarMs } from '../../../../domain/workspaceForm';
import { EmptyState } from '../../../components/EmptyState';
import { useMachines } from '../../../MachinesProvider';
import { dataPluginsMachines } from '../../../machineAreas/dataPlugins';
import { PluginCard } from './PluginCard';

const SEARCH_DELAY_MS = 300;

const useStyles = makeStyles({
  tools: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'center', marginBottom: tokens.spacingVerticalM },
  search: { flexGrow: 1, maxWidth: '420px', minWidth: '180px' },
  grid: { display: 'grid', gap: tokens.spacingVerticalM, gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' },
  pager: { display: 'flex', justifyContent: 'center', alignItems: 'center', gap: tokens.spacingHorizontalM, marginTop: tokens.spacingVerticalL },
  icon: { fontSize: '40px', color: tokens.colorBrandForeground1 },
});

/** The Installed (installed) or Available tab: a searched, paged list of plugin cards. */
export function PluginList({ workspace, installed, type, filter }: { workspace: Workspace; installed: boolean; type: string | null; filter: React.ReactNode }) {
  const styles = useStyles();
  const machines = useMachines(dataPluginsMachines);
  const actor = useActorRef(machines.dataPlugins, { input: { workspace, installed, type } });
  const context = useSelector(actor, (s) => s.context);
  const state = useSelector(actor, (s) => s.value);
  const [search, setSearch] = useState('');
  const toasterId = useId('plugins-toaster');
  const { dispatchToast } = useToastController(toasterId);

  useEffect(() => {
    if (search === context.search) return;
    const timer = setTimeout(() => actor.send({ type: 'user.search', search }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [actor, search, context.search]);

  useEffect(() => {
    if (context.notice === null) return;
    dispatchToast(
      <Toast>
        <ToastTitle>{context.notice}</ToastTitle>
      </Toast>,
      { intent: 'success', timeout: snackbarMs(workspace) },
    );
    actor.send({ type: 'user.dismiss' });
  }, [actor, context.notice, dispatchToast, workspace]);

  const loading = state === 'loading' && context.items.length === 0;
  const busy = state !== 'idle';
  return (
    <>
      <Toaster toasterId={toasterId} />
      <div className={styles.tools}>
        <SearchBox className={styles.search} placeholder="Search plugins..." aria-label="Search plugins" value={search} onChange={(_, data) => setSearch(data.value)} />
        {filter}
      </div>
      {context.error !== null && (
        <MessageBar intent="error">
          <MessageBarBody>{context.error}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => actor.send({ type: 'user.reload' })}>Retry</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {loading ? (
        <Spinner label="Loading plugins" />
      ) : context.items.length === 0 ? (
        <EmptyState>
          <PlugConnectedRegular className={styles.icon} />
          {context.search.trim() !== '' ? `No plugins match '${context.search.trim()}'.` : installed ? 'No plugins installed.' : 'Every plugin of the catalogue is installed.'}
        </EmptyState>
      ) : (
        <div className={styles.grid}>
          {context.items.map((plugin) => (
            <PluginCard
              key={plugin.id}
              plugin={plugin}
              workspaceId={workspace.id}
              busy={busy}
              onInstall={() => actor.send({ type: 'user.install', id: plugin.id })}
              onDelete={() => actor.send({ type: 'user.delete', id: plugin.id })}
            />
          ))}
        </div>
      )}
      {context.totalPages > 1 && (
        <nav className={styles.pager} aria-label="Pages">
          <Button disabled={busy || context.page <= 0} onClick={() => actor.send({ type: 'user.page', page: context.page - 1 })}>
            Previous
          </Button>
          <span>{`Page ${String(context.page + 1)} of ${String(context.totalPages)} · ${String(context.totalElements)} plugins`}</span>
          <Button disabled={busy || context.page + 1 >= context.totalPages} onClick={() => actor.send({ type: 'user.page', page: context.page + 1 })}>
            Next
          </Button>
        </nav>
      )}
      <Dialog open={state === 'confirming' || state === 'deleting'} onOpenChange={(_, data) => !data.open && actor.send({ type: 'user.cancel' })}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{`Remove ${context.target?.label ?? context.target?.name ?? 'plugin'}?`}</DialogTitle>
            <DialogContent>{CATALOGUE_TEXTS.removeConfirm}</DialogContent>
            <DialogActions>
              <Button appearance="secondary" disabled={state === 'deleting'} onClick={() => actor.send({ type: 'user.cancel' })}>
                Cancel
              </Button>
              <Button appearance="primary" disabled={state === 'deleting'} onClick={() => actor.send({ type: 'user.confirmDelete' })}>
                Remove
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}

import { EmptyState } from '../../components/EmptyState';
import {
  Body1,
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Spinner,
  Subtitle1,
  Toast,
  Toaster,
  ToastTitle,
  tokens,
  Tooltip,
  useId,
  useToastController,
} from '@fluentui/react-components';
import { AddRegular, ArrowClockwiseRegular, KeyMultipleRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { COPIED_TOAST_MS } from '../../../domain/constants';
import { MESSAGES } from '../../../domain/errors';
import { canCreateApiKey } from '../../../domain/permissions';
import { selectNewEnabled } from '../../../machines/apiKeys/apiKeys.machine';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { accountMachines } from '../../machineAreas/account';
import { useRuntime } from '../../runtime';
import { useSession } from '../../shell/session';
import { ApiKeyTable } from './ApiKeyTable';
import type { ApiKeysActor } from './apiKeysActor';
import { DeleteKeyDialog } from './DeleteKeyDialog';
import { NewKeyDialog } from './NewKeyDialog';

const DEFAULT_DISABLED_TOOLTIP = 'You cannot create API tokens';

const useStyles = makeStyles({
  // Headings keep the type ramp's spacing, not the browser's default margins.
  heading: { margin: 0 },
  intro: { color: tokens.colorNeutralForeground3, marginTop: 0, marginBottom: tokens.spacingVerticalL, maxWidth: '72ch' },
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  emptyIcon: { fontSize: '40px', color: tokens.colorBrandForeground1 },
  muted: { color: tokens.colorNeutralForeground3, maxWidth: '48ch' },
  skeletonRow: { display: 'grid', gridTemplateColumns: '2fr 3fr 1fr', gap: tokens.spacingHorizontalL, padding: tokens.spacingVerticalM },
});

/** /api-key (spec 000 §2.9), titled 'API Keys'. */
export default function ApiKeysPage() {
  const styles = useStyles();
  const { config } = useRuntime();
  const machines = useMachines(accountMachines);
  const { root } = useSession();
  const canCreate = canCreateApiKey(root);
  const actor = useActorRef(machines.apiKeys, { input: { canCreate } });

  const toasterId = useId('api-keys-toaster');
  useCopiedToast(actor, toasterId);

  const keys = useSelector(actor, (s) => s.context.keys);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const drafting = useSelector(actor, (s) => s.matches('drafting'));
  const newEnabled = useSelector(actor, selectNewEnabled);
  // Failures inside a dialog are shown there; this one is for the list.
  const pageError = useSelector(actor, (s) => (s.matches('idle') ? s.context.error : null));

  const newButton = (
    <Button
      appearance="primary"
      icon={drafting ? <Spinner size="tiny" /> : <AddRegular />}
      disabled={canCreate && !newEnabled}
      disabledFocusable={!canCreate}
      onClick={() => actor.send({ type: 'user.new' })}
    >
      New API token
    </Button>
  );
  const newAction = canCreate ? (
    newButton
  ) : (
    <Tooltip content={config.disabledFeatureTooltip.trim() || DEFAULT_DISABLED_TOOLTIP} relationship="description">
      {newButton}
    </Tooltip>
  );

  return (
    <section data-view="API Keys" aria-label="API Keys">
      <PageHeader title="API Keys" actions={newAction} />
      <Toaster toasterId={toasterId} />
      <Body1 as="p" block className={styles.intro}>
        API keys let scripts and services call the API on your behalf. Each key has a client ID and a client secret that are exchanged for
        a short-lived access token.
      </Body1>

      <div className={styles.stack}>
        {pageError && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{pageError}</MessageBarBody>
            <MessageBarActions>
              <Button size="small" icon={<ArrowClockwiseRegular />} onClick={() => actor.send({ type: 'user.reload' })}>
                Reload
              </Button>
            </MessageBarActions>
          </MessageBar>
        )}

        {loading && keys.length === 0 ? (
          <KeysSkeleton />
        ) : keys.length > 0 ? (
          <ApiKeyTable actor={actor} keys={keys} />
        ) : (
          !pageError && (
            <EmptyState>
              <KeyMultipleRegular className={styles.emptyIcon} aria-hidden />
              <Subtitle1 as="h2" className={styles.heading}>No API keys yet</Subtitle1>
              <Body1 className={styles.muted}>
                Create a key to let a script, a scheduled job or another service use the API. Its secret is shown only once, so keep it
                somewhere safe.
              </Body1>
            </EmptyState>
          )
        )}
      </div>

      <NewKeyDialog actor={actor} />
      <DeleteKeyDialog actor={actor} />
    </section>
  );
}

/** 'Copied' for 3 seconds each time the machine reports the secret copied. */
function useCopiedToast(actor: ApiKeysActor, toasterId: string) {
  const { dispatchToast } = useToastController(toasterId);
  const copied = useSelector(actor, (s) => s.matches({ issued: 'copied' }));
  useEffect(() => {
    if (!copied) return;
    dispatchToast(
      <Toast>
        <ToastTitle>{MESSAGES.copied}</ToastTitle>
      </Toast>,
      { intent: 'success', timeout: COPIED_TOAST_MS },
    );
  }, [copied, dispatchToast]);
}

function KeysSkeleton() {
  const styles = useStyles();
  return (
    <Skeleton aria-label="Loading API keys">
      {[0, 1, 2].map((row) => (
        <div key={row} className={styles.skeletonRow}>
          <SkeletonItem />
          <SkeletonItem />
          <SkeletonItem />
        </div>
      ))}
    </Skeleton>
  );
}

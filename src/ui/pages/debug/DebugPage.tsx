import {
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Textarea,
  Toast,
  Toaster,
  ToastTitle,
  tokens,
  useId,
  useToastController,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, CopyRegular, PlugConnectedRegular } from '@fluentui/react-icons';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { COPIED_TOAST_MS } from '../../../domain/constants';
import { MESSAGES } from '../../../domain/errors';
import { linkHref } from '../../../domain/hal';
import { REL } from '../../../domain/relations';
import type { Workspace } from '../../../domain/resources';
import { failureText } from '../../../machines/failureText';
import { useAuthPort } from '../../auth/AuthBridge';
import { PageHeader } from '../../components/PageHeader';
import { useRuntime } from '../../runtime';
import type { RuntimeConfig } from '../../runtimeConfig';
import { useCurrentWorkspace } from '../../shell/useWorkspace';
import { usePing } from '../../data/workspaces';

const useStyles = makeStyles({
  // Headings keep the type ramp's spacing, not the browser's default margins.
  heading: { margin: 0 },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 420px), 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    minWidth: 0,
  },
  cardHeader: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  mono: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, overflowWrap: 'anywhere' },
  token: { width: '100%' },
  tokenInput: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, wordBreak: 'break-all' },
  muted: { color: tokens.colorNeutralForeground3 },
  values: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, max-content) minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    margin: 0,
    '@media (max-width: 479px)': { gridTemplateColumns: 'minmax(0, 1fr)', rowGap: tokens.spacingVerticalXXS },
  },
  term: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  definition: { margin: 0, minWidth: 0, '@media (max-width: 479px)': { marginBottom: tokens.spacingVerticalS } },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
});

/** /debug, /debug/profile and /debug/ (spec 000 §2.2): what a support request needs to know. */
export default function DebugPage() {
  const styles = useStyles();
  const toasterId = useId('debug-toaster');
  return (
    <section data-view="Debug" aria-label="Debug">
      <PageHeader title="Debug" />
      <Toaster toasterId={toasterId} />
      <div className={styles.grid}>
        <WorkspaceCard />
        <TokenCard toasterId={toasterId} />
        <PingCard />
        <EnvironmentCard />
      </div>
    </section>
  );
}

function Card({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  const styles = useStyles();
  const headingId = useId('debug-card');
  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <div className={styles.cardHeader}>
        <Subtitle2 as="h2" id={headingId} className={styles.heading}>
          {title}
        </Subtitle2>
        {action}
      </div>
      {children}
    </section>
  );
}

function WorkspaceCard() {
  const styles = useStyles();
  const workspace = useCurrentWorkspace();
  const self = workspace === undefined ? undefined : linkHref(workspace, REL.self);
  return (
    <Card title="Workspace">
      {workspace === undefined ? (
        <Body1 className={styles.muted}>You are not in a workspace.</Body1>
      ) : (
        <dl className={styles.values}>
          <dt className={styles.term}>Name</dt>
          <dd className={styles.definition}>{workspace.name}</dd>
          <dt className={styles.term}>Id</dt>
          <dd className={`${styles.definition} ${styles.mono}`}>{workspace.id}</dd>
          <dt className={styles.term}>Self link</dt>
          <dd className={`${styles.definition} ${styles.mono}`} data-testid="workspace-self-link">
            {self ?? '—'}
          </dd>
        </dl>
      )}
    </Card>
  );
}

type TokenState = { status: 'loading' } | { status: 'ready'; token: string } | { status: 'failed'; message: string };

function TokenCard({ toasterId }: { toasterId: string }) {
  const styles = useStyles();
  const port = useAuthPort();
  const { dispatchToast } = useToastController(toasterId);
  const [state, setState] = useState<TokenState>({ status: 'loading' });
  const request = useRef(0);

  const load = useCallback(
    (cacheMode: 'on' | 'off') => {
      const id = ++request.current;
      setState({ status: 'loading' });
      port.getToken({ cacheMode }).then(
        (token) => id === request.current && setState({ status: 'ready', token }),
        (error: unknown) => id === request.current && setState({ status: 'failed', message: failureText(error) }),
      );
    },
    [port],
  );

  useEffect(() => {
    load('on');
    return () => {
      request.current += 1;
    };
  }, [load]);

  const copy = () => {
    if (state.status !== 'ready') return;
    const done = () =>
      dispatchToast(
        <Toast>
          <ToastTitle>{MESSAGES.copied}</ToastTitle>
        </Toast>,
        { intent: 'success', timeout: COPIED_TOAST_MS },
      );
    const failed = () =>
      dispatchToast(
        <Toast>
          <ToastTitle>Copying is not available in this browser.</ToastTitle>
        </Toast>,
        { intent: 'error', timeout: COPIED_TOAST_MS },
      );
    if (!navigator.clipboard) failed();
    else navigator.clipboard.writeText(state.token).then(done, failed);
  };

  return (
    <Card
      title="Access token"
      action={
        <Button size="small" icon={<ArrowClockwiseRegular />} disabled={state.status === 'loading'} onClick={() => load('off')}>
          New token
        </Button>
      }
    >
      <Caption1 className={styles.muted}>A short-lived bearer token for the API. Treat it like a password.</Caption1>
      {state.status === 'loading' && <Spinner size="small" label="Getting a token" />}
      {state.status === 'failed' && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{state.message}</MessageBarBody>
        </MessageBar>
      )}
      {state.status === 'ready' && (
        <>
          <Textarea
            className={styles.token}
            textarea={{ className: styles.tokenInput }}
            aria-label="Access token"
            readOnly
            resize="vertical"
            rows={6}
            value={state.token}
          />
          <div>
            <Button icon={<CopyRegular />} onClick={copy}>
              Copy
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}

type PingState =
  | { status: 'idle' }
  | { status: 'pinging' }
  | { status: 'answered'; workspaces: Workspace[] }
  | { status: 'failed'; message: string };

function PingCard() {
  const styles = useStyles();
  const pinging = usePing();
  const [answer, setAnswer] = useState<PingState>({ status: 'idle' });
  const state: PingState = pinging.pending ? { status: 'pinging' } : answer;

  const ping = () => {
    void pinging.run().then((outcome) => setAnswer(outcome.ok ? { status: 'answered', workspaces: outcome.value } : { status: 'failed', message: outcome.error }));
  };

  return (
    <Card
      title="Ping"
      action={
        <Button
          appearance="primary"
          size="small"
          icon={state.status === 'pinging' ? <Spinner size="tiny" /> : <PlugConnectedRegular />}
          disabled={state.status === 'pinging'}
          onClick={ping}
        >
          Ping
        </Button>
      }
    >
      <Caption1 className={styles.muted}>
        Calls <span className={styles.mono}>GET /workspaces?size=99</span> with your token.
      </Caption1>
      <div aria-live="polite">
        {state.status === 'answered' &&
          (state.workspaces.length === 0 ? (
            <Body1>The API answered: you have no workspaces.</Body1>
          ) : (
            <>
              <Body1>
                The API answered with {state.workspaces.length} workspace{state.workspaces.length === 1 ? '' : 's'}:
              </Body1>
              <ul className={styles.list} aria-label="Workspaces">
                {state.workspaces.map((workspace) => (
                  <li key={workspace.id}>
                    <Body1>{workspace.name}</Body1>
                  </li>
                ))}
              </ul>
            </>
          ))}
        {state.status === 'failed' && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{state.message}</MessageBarBody>
          </MessageBar>
        )}
      </div>
    </Card>
  );
}

// Every field of RuntimeConfig is public by construction (served as /config.json); listed here by name
// so a field added later is shown only once someone decides it belongs on this page.
const ENVIRONMENT: readonly { label: string; value: (config: RuntimeConfig) => string }[] = [
  { label: 'Application title', value: (c) => c.appTitle },
  { label: 'API base URL', value: (c) => c.apiBaseUrl },
  { label: 'Identity provider', value: (c) => c.auth.domain },
  { label: 'Client id', value: (c) => c.auth.clientId },
  { label: 'Audience', value: (c) => c.auth.audience },
  { label: 'Embedded identity provider', value: (c) => (c.auth.embedded ? 'yes' : 'no') },
  { label: 'Disabled features', value: (c) => c.disabledFeatures || 'none' },
  { label: 'Disabled feature tooltip', value: (c) => c.disabledFeatureTooltip },
  { label: 'Error reporting', value: (c) => c.errorReportingUrl ?? 'browser console' },
  { label: 'Trace sample rate', value: (c) => String(c.traceSampleRate) },
  { label: 'Placeholder minimum load', value: (c) => `${c.placeholderMinimumLoad} ms` },
  { label: 'Placeholder load timeout', value: (c) => `${c.placeholderLoadTimeout} ms` },
  { label: 'Snackbar timeout', value: (c) => `${c.snackbarTimeout} ms` },
  { label: 'Manage account URL', value: (c) => c.manageAccountUrl || 'none' },
  { label: 'OAuth providers', value: (c) => Object.keys(c.oauth).join(', ') || 'none' },
];

function EnvironmentCard() {
  const styles = useStyles();
  const { config } = useRuntime();
  return (
    <Card title="Environment">
      <dl className={styles.values}>
        {ENVIRONMENT.map(({ label, value }) => (
          <EnvironmentValue key={label} label={label} value={value(config)} />
        ))}
      </dl>
    </Card>
  );
}

function EnvironmentValue({ label, value }: { label: string; value: string }) {
  const styles = useStyles();
  return (
    <>
      <dt className={styles.term}>{label}</dt>
      <dd className={`${styles.definition} ${styles.mono}`}>{value}</dd>
    </>
  );
}

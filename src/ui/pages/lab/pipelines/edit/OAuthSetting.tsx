import { Button, Caption1, Field, MessageBar, MessageBarActions, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowClockwiseRegular, LinkDismissRegular, LinkRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { credentialHealth, isAuthorizationRequired, oauthKey, OAUTH_PROVIDERS, providerOf, type OAuthProvider } from '../../../../../domain/oauth';
import type { DataComponent, Setting } from '../../../../../domain/resources';
import { pathTo } from '../../../../../domain/routes';
import { selectBusy } from '../../../../../machines/oauthConnect/oauthConnect.machine';
import { useMachines } from '../../../../MachinesProvider';
import { pipelinesMachines } from '../../../../machineAreas/pipelines';
import { useRuntime } from '../../../../runtime';

const useStyles = makeStyles({
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
});

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An OAuth part's value: the pipeline's property, else the plugin's default for that setting. */
function partOf(part: 'authorization_url' | 'scope', setting: Setting, settings: readonly Setting[], properties: Readonly<Record<string, unknown>>, component: string): string {
  const name = oauthKey(setting.name, part);
  const key = `${component}.${name}`;
  if (Object.hasOwn(properties, key) && textOf(properties[key]) !== '') return textOf(properties[key]);
  return textOf(settings.find((s) => s.name === name)?.value);
}

const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '');

/**
 * An OAUTH setting (spec 001 §2 'Plugin setting editors and OAuth connect'): Connect or Disconnect,
 * the credential's health (when it expires, when it was last refreshed, a warning before expiry) and
 * one-click re-authorisation. The tokens are the server's; this shows only their summary.
 */
export function OAuthSetting(props: {
  setting: Setting;
  settings: readonly Setting[];
  componentName: string;
  dataComponent: DataComponent | undefined;
  properties: Readonly<Record<string, unknown>>;
  error: string | undefined;
  disabled: boolean;
}) {
  const label = props.setting.label ?? props.setting.name;
  const authorizationUrl = partOf('authorization_url', props.setting, props.settings, props.properties, props.componentName);
  const scope = partOf('scope', props.setting, props.settings, props.properties, props.componentName);
  if (!isAuthorizationRequired(authorizationUrl, scope)) {
    return (
      <Field label={label} validationMessage={props.error ?? null} validationState={props.error ? 'error' : 'none'}>
        <Caption1>Set the authorization url and scope of this source to connect it.</Caption1>
      </Field>
    );
  }
  if (!props.dataComponent) {
    return (
      <Field label={label} validationMessage={props.error ?? null} validationState={props.error ? 'error' : 'none'}>
        <Caption1>Save the data import (a draft will do) to connect this data source.</Caption1>
      </Field>
    );
  }
  return <Connect {...props} component={props.dataComponent} authorizationUrl={authorizationUrl} scope={scope} label={label} key={`${props.dataComponent.id} ${authorizationUrl} ${scope}`} />;
}

function Connect(props: { component: DataComponent; authorizationUrl: string; scope: string; label: string; error: string | undefined; disabled: boolean }) {
  const styles = useStyles();
  const machines = useMachines(pipelinesMachines);
  const { config } = useRuntime();
  const configured = Object.fromEntries(Object.entries(config.oauth).map(([p, client]) => [p, client.authorizationUrls])) as Partial<Record<OAuthProvider, string[]>>;
  const provider = providerOf(props.authorizationUrl, configured);
  const clientId = provider && (OAUTH_PROVIDERS as readonly string[]).includes(provider) ? config.oauth[provider]?.clientId : undefined;
  const oauth = useActorRef(machines.oauthConnect, {
    input: { component: props.component, authorizationUrl: props.authorizationUrl, scope: props.scope, provider, clientId, redirectUri: `${window.location.origin}${pathTo('oauth')}` },
  });
  const state = useSelector(oauth, (s) => s.value);
  const busy = useSelector(oauth, selectBusy);
  const error = useSelector(oauth, (s) => s.context.error);
  const credentials = useSelector(oauth, (s) => s.context.credentials);
  const canConnect = useSelector(oauth, (s) => s.can({ type: 'user.connect' }));
  // the health is re-read each minute, so the warning appears before expiry without a reload
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  const health = credentialHealth({ connected: credentials.connected, expiresAt: credentials.expiresAt ?? null }, now);
  const authorised = state === 'authorised' || state === 'refreshing' || state === 'disconnecting';
  const message = error ?? (authorised ? undefined : props.error);

  return (
    <Field label={props.label} validationMessage={message ?? null} validationState={message ? 'error' : 'none'}>
      <div className={styles.row} data-oauth-state={typeof state === 'string' ? state : 'authorising'}>
        {authorised ? (
          <>
            <Caption1>
              Connected{credentials.provider ? ` (${credentials.provider})` : ''}
              {credentials.expiresAt ? ` · token expires ${when(credentials.expiresAt)}` : ''}
              {credentials.refreshedAt ? ` · last refreshed ${when(credentials.refreshedAt)}` : ''}
            </Caption1>
            <Button icon={<LinkDismissRegular />} disabled={props.disabled || busy} onClick={() => oauth.send({ type: 'user.disconnect' })}>
              Disconnect
            </Button>
            {credentials.refreshable === true && (
              <Button appearance="subtle" icon={<ArrowClockwiseRegular />} disabled={props.disabled || busy} onClick={() => oauth.send({ type: 'user.refresh' })}>
                Refresh token
              </Button>
            )}
          </>
        ) : (
          <Button appearance="primary" icon={<LinkRegular />} disabled={props.disabled || busy || !canConnect} onClick={() => oauth.send({ type: 'user.connect' })}>
            Connect
          </Button>
        )}
        {busy && (state === 'preparing' ? <Spinner size="tiny" /> : <Spinner size="tiny" label="Waiting for the authorisation…" />)}
      </div>
      {authorised && (health === 'expiring' || health === 'expired') && (
        <MessageBar intent="warning">
          <MessageBarBody>{health === 'expired' ? 'The access token has expired.' : 'The access token expires soon.'} Re-authorise to keep this source running.</MessageBarBody>
          <MessageBarActions>
            <Button size="small" disabled={props.disabled || busy || !canConnect} onClick={() => oauth.send({ type: 'user.connect' })}>
              Re-authorise
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
    </Field>
  );
}

import { Body1, Button, Field, makeStyles, MessageBar, MessageBarBody, Textarea, tokens } from '@fluentui/react-components';
import { DocumentArrowUpRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef } from 'react';
import { DISCOVERY_FILE_TYPES, DISCOVERY_ROWS } from '../../../../domain/catalogue';
import type { Workspace } from '../../../../domain/resources';
import { hasYaml } from '../../../../machines/discoveryUpload/discoveryUpload.machine';
import { useMachines } from '../../../MachinesProvider';
import { dataPluginsMachines } from '../../../machineAreas/dataPlugins';
import { PluginCard } from './PluginCard';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '900px' },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  yaml: { fontFamily: tokens.fontFamilyMonospace },
  errors: { margin: 0, paddingLeft: tokens.spacingHorizontalL, fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
  hidden: { display: 'none' },
});

/** The Custom tab: a discovery.yml from a file or typed, published as the workspace's own plugins. */
export function DiscoveryUpload({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(dataPluginsMachines);
  const actor = useActorRef(machines.discoveryUpload, { input: { workspace } });
  const context = useSelector(actor, (s) => s.context);
  const state = useSelector(actor, (s) => s.value);
  const file = useRef<HTMLInputElement>(null);

  const readFile = (chosen: File | undefined) => {
    if (chosen === undefined) return;
    void chosen.text().then((yaml) => actor.send({ type: 'user.edit', yaml }));
  };

  if (state === 'published') {
    return (
      <div className={styles.root}>
        <MessageBar intent="success">
          <MessageBarBody>{`${String(context.published.length)} plugin${context.published.length === 1 ? '' : 's'} published to this workspace`}</MessageBarBody>
        </MessageBar>
        {context.published.map((plugin) => (
          <PluginCard key={plugin.id} plugin={plugin} workspaceId={workspace.id} busy={false} />
        ))}
        <div className={styles.row}>
          <Button onClick={() => actor.send({ type: 'user.again' })}>Upload another</Button>
        </div>
      </div>
    );
  }

  return (
    <div className={styles.root}>
      <Body1>Add plugins of your own: choose a Meltano discovery.yml, or paste its plugin definitions below.</Body1>
      <div className={styles.row}>
        <input ref={file} className={styles.hidden} type="file" accept={DISCOVERY_FILE_TYPES} aria-label="discovery.yml file" onChange={(e) => readFile(e.target.files?.[0])} />
        <Button icon={<DocumentArrowUpRegular />} onClick={() => file.current?.click()}>
          Choose .yaml or .yml file
        </Button>
      </div>
      <Field label="discovery.yml">
        <Textarea
          className={styles.yaml}
          rows={DISCOVERY_ROWS}
          resize="vertical"
          value={context.yaml}
          placeholder={'extractors:\n  - name: tap-example\n    variant: example\n    settings:\n      - name: api_key\n        kind: password'}
          onChange={(_, data) => actor.send({ type: 'user.edit', yaml: data.value })}
        />
      </Field>
      {context.message !== null && (
        <MessageBar intent={context.errorLines.length === 0 && context.message === 'No Meltano plugins found' ? 'warning' : 'error'}>
          <MessageBarBody>{context.message}</MessageBarBody>
        </MessageBar>
      )}
      {context.errorLines.length > 0 && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <ul className={styles.errors} aria-label="Errors">
              {context.errorLines.map((line, i) => (
                <li key={`${String(i)}:${line}`}>{line}</li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.row}>
        <Button appearance="primary" disabled={!hasYaml(context) || state === 'publishing'} onClick={() => actor.send({ type: 'user.next' })}>
          Next
        </Button>
      </div>
    </div>
  );
}

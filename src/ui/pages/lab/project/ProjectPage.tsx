import { Body1, Caption1, Card, CardHeader, Field, Input, makeStyles, MessageBar, MessageBarBody, Spinner, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { useComponentsOfType } from '../../../data/lab';
import { useWorkspace } from '../../../shell/useWorkspace';

/** The tabs of spec 001 §2 'Project components', each the workspace's components of one type. */
export const PROJECT_TABS = [
  { label: 'Extractors', type: 'EXTRACTOR' },
  { label: 'Mappers', type: 'MAPPER' },
  { label: 'Loaders', type: 'LOADER' },
  { label: 'Transformers', type: 'TRANSFORMER' },
  { label: 'Utilities', type: 'UTILITY' },
] as const;

/** The environment every job of this server runs in when the workspace names none (server/runner/project.ts). */
const DEFAULT_ENVIRONMENT = 'dev';

const useStyles = makeStyles({
  environment: { maxWidth: '320px', marginBottom: tokens.spacingVerticalL },
  tabs: { marginBottom: tokens.spacingVerticalM, overflowX: 'auto' },
  list: { display: 'grid', gap: tokens.spacingVerticalM, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' },
  settings: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
});

/** /lab/{workspaceId}/project: the workspace's Meltano project, read-only (hidden when LAB_PROJECT is off). */
export default function ProjectPage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  const [tab, setTab] = useState(0);
  const type = PROJECT_TABS[tab]?.type ?? 'EXTRACTOR';
  const listed = useComponentsOfType(workspace, type);
  const components = listed.state.status === 'ready' ? listed.state.data : null;
  const error = listed.state.status === 'failed' ? listed.state.message : null;

  return (
    <>
      <PageHeader title="Project" />
      <Field className={styles.environment} label="Active environment">
        <Input readOnly value={workspace.defaultEnvironment || DEFAULT_ENVIRONMENT} />
      </Field>
      <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, data) => setTab(Number(data.value))}>
        {PROJECT_TABS.map((t, index) => (
          <Tab key={t.type} value={index}>
            {t.label}
          </Tab>
        ))}
      </TabList>
      {error !== null && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {components === null ? (
        error === null && <Spinner label="Loading components" />
      ) : components.length === 0 ? (
        <EmptyState>{`No ${PROJECT_TABS[tab]?.label.toLowerCase() ?? 'components'} in this project yet.`}</EmptyState>
      ) : (
        <div className={styles.list}>
          {components.map((component) => {
            const plugin = component._embedded?.dataplugin;
            const keys = Object.keys(component.properties ?? {});
            return (
              <Card key={component.id} aria-label={component.name}>
                <CardHeader header={<Text weight="semibold">{component.name}</Text>} description={<Caption1>{component.dataPlugin ?? plugin?.id ?? ''}</Caption1>} />
                {plugin?.description && <Body1>{plugin.description}</Body1>}
                <Caption1 className={styles.settings}>{keys.length === 0 ? 'No settings of its own' : `Settings: ${keys.join(', ')}`}</Caption1>
              </Card>
            );
          })}
        </div>
      )}
    </>
  );
}

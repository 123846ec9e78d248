import { Badge, Body1, Button, Caption1, Card, CardHeader, Link, makeStyles, MessageBar, MessageBarBody, Text, tokens } from '@fluentui/react-components';
import { AddRegular, ArrowDownloadRegular, DeleteRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { addComponentRoute, CATALOGUE_TEXTS, meltanoAddCommand } from '../../../../domain/catalogue';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { DataPlugin } from '../../../../domain/resources';
import { pathTo } from '../../../../domain/routes';

const useStyles = makeStyles({
  card: { width: '100%' },
  badges: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap', alignItems: 'center' },
  description: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  command: { fontFamily: tokens.fontFamilyMonospace, userSelect: 'all' },
});

/** The documentation link the server appended to a trusted plugin's description (fullDescription). */
function documentationOf(plugin: DataPlugin): string | null {
  const match = /\n?\n?Documentation: (https:\/\/\S+)$/.exec(plugin.fullDescription ?? '');
  return match?.[1] ?? null;
}

export interface PluginCardProps {
  plugin: DataPlugin;
  workspaceId: string;
  busy: boolean;
  onInstall?: () => void;
  onDelete?: () => void;
}

/** One plugin of the catalogue: what it is, whether it runs here, and what the links allow. */
export function PluginCard({ plugin, workspaceId, busy, onInstall, onDelete }: PluginCardProps) {
  const styles = useStyles();
  const navigate = useNavigate();
  const [unsupported, setUnsupported] = useState(false);
  const docs = documentationOf(plugin);
  const route = addComponentRoute(plugin);
  const addComponent = () => {
    if (route === undefined) setUnsupported(true);
    else void navigate(pathTo(route, { workspaceId }, { dataplugin: plugin.id }));
  };
  const title = plugin.label ?? plugin.name;
  return (
    <Card className={styles.card} data-plugin={plugin.id} aria-label={title}>
      <CardHeader
        header={<Text weight="semibold">{title}</Text>}
        description={
          <div className={styles.badges}>
            <Caption1>{plugin.variant ? `${plugin.name} · ${plugin.variant}` : plugin.name}</Caption1>
            <Badge appearance="tint" color="brand">{plugin.pluginType}</Badge>
            {plugin.custom === true && <Badge appearance="tint" color="informative">Custom</Badge>}
            {plugin.runnable === false ? (
              <Badge appearance="outline" color="warning" title={CATALOGUE_TEXTS.notRunnable}>Configure only</Badge>
            ) : plugin.pipUrl ? (
              <Badge appearance="outline" color="success" title={CATALOGUE_TEXTS.meltano}>Runs with Meltano</Badge>
            ) : (
              <Badge appearance="outline" color="success">Runs here</Badge>
            )}
          </div>
        }
      />
      {plugin.description && <Body1 className={styles.description}>{plugin.description}</Body1>}
      {docs !== null && (
        <Link href={docs} target="_blank" rel="noopener noreferrer">
          Documentation
        </Link>
      )}
      {unsupported && (
        <MessageBar intent="warning">
          <MessageBarBody>
            {`${title} cannot be added as a component here. Add it to your Meltano project with `}
            <code className={styles.command}>{meltanoAddCommand(plugin)}</code>
          </MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.actions}>
        {hasLink(plugin, REL.addDataplugin) && onInstall && (
          <Button appearance="primary" icon={<ArrowDownloadRegular />} disabled={busy} onClick={onInstall}>
            Install
          </Button>
        )}
        {plugin.installed === true && (
          <Button icon={<AddRegular />} disabled={busy} onClick={addComponent}>
            Add component
          </Button>
        )}
        {plugin.canDelete === true && hasLink(plugin, REL.deleteDataplugin) && onDelete && (
          <Button icon={<DeleteRegular />} disabled={busy} onClick={onDelete}>
            Remove
          </Button>
        )}
      </div>
    </Card>
  );
}

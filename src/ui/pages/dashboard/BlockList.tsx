import { Body1, Button, Caption1, Card, makeStyles, Textarea, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, ArrowDownRegular, ArrowUpRegular, DataBarVerticalRegular, DeleteRegular, LinkRegular, TableRegular, TextTRegular } from '@fluentui/react-icons';
import type { ReactElement } from 'react';
import type { DashboardBlock, DatasetBlockView } from '../../../domain/dashboard/blocks';
import type { DashboardEditorEvent } from '../../../machines/dashboardEditor/dashboardEditor.machine';

// The dashboard's blocks as cards, in order: each can move up or down or go; a text block's
// markdown is edited in its card. Only renders and sends events.

const VIEW_LABEL: Readonly<Record<DatasetBlockView, string>> = { chart: 'Chart', data: 'Table', link: 'Link', download: 'Download' };
const VIEW_ICON: Readonly<Record<DatasetBlockView, ReactElement>> = {
  chart: <DataBarVerticalRegular />,
  data: <TableRegular />,
  link: <LinkRegular />,
  download: <ArrowDownloadRegular />,
};

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, margin: 0, padding: 0, listStyleType: 'none' },
  card: { padding: tokens.spacingHorizontalM, gap: tokens.spacingVerticalS },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  // the icon is sized by its own font size, not the card's text
  icon: { display: 'flex', flexShrink: 0, fontSize: tokens.fontSizeBase500 },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  alias: { fontFamily: tokens.fontFamilyMonospace, color: tokens.colorNeutralForeground3 },
  text: { fontFamily: tokens.fontFamilyMonospace },
  muted: { color: tokens.colorNeutralForeground3 },
});

interface BlockListProps {
  readonly blocks: readonly DashboardBlock[];
  readonly titles: Readonly<Record<string, string>>;
  readonly disabled: boolean;
  readonly send: (event: DashboardEditorEvent) => void;
}

export function BlockList({ blocks, titles, disabled, send }: BlockListProps) {
  const styles = useStyles();
  if (blocks.length === 0) return <Body1 className={styles.muted}>No blocks yet: add a dataset or some text.</Body1>;
  return (
    <ol className={styles.list} aria-label="Blocks">
      {blocks.map((block, index) => {
        const n = index + 1;
        const name = block.kind === 'text' ? 'Text' : `${VIEW_LABEL[block.view]}: ${titles[block.alias] ?? block.alias}`;
        return (
          <li key={index} aria-label={`Block ${n}, ${name}`}>
            <Card className={styles.card}>
              <div className={styles.head}>
                <span className={styles.icon} aria-hidden>
                  {block.kind === 'text' ? <TextTRegular /> : VIEW_ICON[block.view]}
                </span>
                <Body1 className={styles.name}>
                  <strong>{name}</strong>
                  {block.kind === 'dataset' && titles[block.alias] !== undefined && <Caption1 className={styles.alias}> {block.alias}</Caption1>}
                </Body1>
                <Button appearance="subtle" size="small" icon={<ArrowUpRegular />} aria-label={`Move block ${n} up`} disabled={disabled || index === 0} onClick={() => send({ type: 'user.moveBlock', index, by: -1 })} />
                <Button appearance="subtle" size="small" icon={<ArrowDownRegular />} aria-label={`Move block ${n} down`} disabled={disabled || index === blocks.length - 1} onClick={() => send({ type: 'user.moveBlock', index, by: 1 })} />
                <Button appearance="subtle" size="small" icon={<DeleteRegular />} aria-label={`Remove block ${n}`} disabled={disabled} onClick={() => send({ type: 'user.removeBlock', index })} />
              </div>
              {block.kind === 'text' && (
                <Textarea textarea={{ className: styles.text }} resize="vertical" rows={3} aria-label={`Text of block ${n}`} value={block.source} disabled={disabled} onChange={(_, data) => send({ type: 'user.blockText', index, value: data.value })} />
              )}
            </Card>
          </li>
        );
      })}
    </ol>
  );
}

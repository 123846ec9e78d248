import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useMemo } from 'react';
import { parseBlocks } from '../../../domain/dashboard/blocks';
import { DashboardContent } from './DashboardContent';

// The dashboard as a grid of its blocks (src/domain/dashboard/blocks.ts): dataset blocks two to a
// row at desktop width, one at phone width; a text block takes the whole row, as a heading or an
// introduction does. Each block is rendered on its own by DashboardContent.

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gap: tokens.spacingHorizontalL,
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    alignItems: 'start',
    '@media (max-width: 768px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  cell: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0, overflowWrap: 'anywhere' },
  wide: { gridColumn: '1 / -1' },
});

export function DashboardGrid({ source, workspaceId }: { source: string; workspaceId: string }) {
  const styles = useStyles();
  // keyed by source (and its occurrence), so a moved chart keeps its loaded data
  const blocks = useMemo(() => {
    const seen = new Map<string, number>();
    return parseBlocks(source).map((block) => {
      const n = (seen.get(block.source) ?? 0) + 1;
      seen.set(block.source, n);
      return { block, key: `${n}:${block.source}` };
    });
  }, [source]);
  return (
    <div className={styles.grid}>
      {blocks.map(({ block, key }) => (
        <div key={key} className={mergeClasses(styles.cell, block.kind === 'text' && styles.wide)}>
          <DashboardContent source={block.source} workspaceId={workspaceId} />
        </div>
      ))}
    </div>
  );
}

import { Caption1, makeStyles, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { cellText } from '../../domain/cellText';
import type { DatasetPreview } from '../../domain/resources';

/** How many of the preview's rows the editor lists; the chart beside it uses them all. */
export const PREVIEW_TABLE_ROWS = 10;

const useStyles = makeStyles({
  scroll: { overflowX: 'auto', maxWidth: '100%' },
  // each column as wide as its values, the whole table scrolling sideways when it is wider
  table: { tableLayout: 'auto', width: 'max-content', minWidth: '100%' },
  cell: { fontFamily: tokens.fontFamilyMonospace, whiteSpace: 'nowrap' },
});

/** The first rows a query returns (or a store table's), and how many there were. */
export function PreviewTable({ preview, rowsShown = PREVIEW_TABLE_ROWS, label = 'Query preview' }: { preview: DatasetPreview; rowsShown?: number; label?: string }) {
  const styles = useStyles();
  const count = preview.rows.length;
  const shown = preview.rows.slice(0, rowsShown);
  const summary = preview.truncated ? `${String(count)} rows, more not shown` : `${String(count)} ${count === 1 ? 'row' : 'rows'}`;
  return (
    <div>
      <Caption1 role="status">{shown.length < count ? `${summary} (first ${String(shown.length)} listed)` : summary}</Caption1>
      <div className={styles.scroll}>
        <Table size="extra-small" aria-label={label} className={styles.table}>
          <TableHeader>
            <TableRow>
              {preview.columns.map((column) => (
                <TableHeaderCell key={column}>{column}</TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.map((row, i) => (
              <TableRow key={i}>
                {preview.columns.map((column) => (
                  <TableCell key={column} className={styles.cell}>
                    {cellText(row[column])}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}

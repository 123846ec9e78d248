import { Button, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { cellText, tableColumns, visibleRowCount } from '../../../domain/visualisation/table';
import { showingRowsText, TABLE_ROW_LIMIT } from '../../../domain/visualisation/messages';

const useStyles = makeStyles({
  wrap: { overflowX: 'auto', maxWidth: '100%' },
  table: { borderCollapse: 'collapse', width: '100%', fontSize: tokens.fontSizeBase200 },
  th: {
    textAlign: 'left',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `${tokens.strokeWidthThick} solid ${tokens.colorNeutralStroke1}`,
    whiteSpace: 'nowrap',
  },
  td: {
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    maxWidth: '320px',
    overflowWrap: 'anywhere',
    verticalAlign: 'top',
  },
  number: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  footer: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, paddingTop: tokens.spacingVerticalS },
});

export interface HtmlTableProps {
  rows: readonly Record<string, unknown>[];
  /** a header for a row key (metadata labels); the key itself when absent */
  labels?: ReadonlyMap<string, string> | undefined;
  /** 'paged': 10 more rows per "Show more" (table mode); 'limited': the first 10 and a note (html-table) */
  paging: 'paged' | 'limited';
  /** a one-line note above the table (e.g. why a grid fell back to this table) */
  note?: string;
}

/** The rows as a plain table: one column per row key, 10 rows at first. */
export function HtmlTable({ rows, labels, paging, note }: HtmlTableProps) {
  const styles = useStyles();
  const [pages, setPages] = useState(1);
  const columns = tableColumns(rows);
  const shown = visibleRowCount(rows.length, paging === 'paged' ? pages : 1, TABLE_ROW_LIMIT);
  return (
    <div className={styles.wrap}>
      {note ? <Caption1 as="p">{note}</Caption1> : null}
      <table className={styles.table}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={styles.th}>{labels?.get(column) ?? column}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, shown).map((row, index) => (
            <tr key={index}>
              {columns.map((column) => {
                const value = Object.hasOwn(row, column) ? row[column] : undefined;
                // numbers line up on the right, like a spreadsheet
                return <td key={column} className={typeof value === 'number' ? `${styles.td} ${styles.number}` : styles.td}>{cellText(value)}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {shown < rows.length ? (
        <div className={styles.footer}>
          <Caption1>{showingRowsText(shown, rows.length)}</Caption1>
          {paging === 'paged' ? <Button size="small" onClick={() => setPages((p) => p + 1)}>Show more</Button> : null}
        </div>
      ) : null}
    </div>
  );
}

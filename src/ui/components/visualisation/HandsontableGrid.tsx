// handsontable-table: a read-only grid. Handsontable (large) is fetched only here; only the
// modules a read-only grid needs are registered, not registerAllModules().
import { HotTable } from '@handsontable/react-wrapper';
import { registerCellType, TextCellType } from 'handsontable/cellTypes';
import { registerPlugin, AutoColumnSize, ManualColumnResize } from 'handsontable/plugins';
import 'handsontable/styles/handsontable.min.css';
import 'handsontable/styles/ht-theme-main.min.css';
import { cellText, tableColumns } from '../../../domain/visualisation/table';

registerCellType(TextCellType);
registerPlugin(AutoColumnSize);
registerPlugin(ManualColumnResize);

export interface HandsontableGridProps {
  rows: readonly Record<string, unknown>[];
  labels?: ReadonlyMap<string, string> | undefined;
  licenseKey: string;
  compact: boolean;
}

export default function HandsontableGrid({ rows, labels, licenseKey, compact }: HandsontableGridProps) {
  const columns = tableColumns(rows);
  // cells are text: the grid never interprets a value as HTML
  const data = rows.map((row) => columns.map((column) => cellText(Object.hasOwn(row, column) ? row[column] : undefined)));
  return (
    <div className="ht-theme-main">
      <HotTable
        data={data}
        colHeaders={columns.map((column) => labels?.get(column) ?? column)}
        rowHeaders
        readOnly
        manualColumnResize
        height={compact ? 160 : Math.min(480, 40 + rows.length * 29)}
        width="100%"
        stretchH="all"
        licenseKey={licenseKey}
      />
    </div>
  );
}

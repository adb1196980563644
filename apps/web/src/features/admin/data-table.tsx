import { useState } from 'react';
import { errorMessage } from '../../lib/api-client';
import { recordExport } from './admin-api';
import { downloadCsv, toCsv, type CsvCell } from './csv';
import { useCan } from './operator-context';

export type DataTableProps = {
  caption: string;
  columns: readonly string[];
  rows: ReadonlyArray<readonly CsvCell[]>;
  /** File name of the CSV export; without it no export button. */
  csvName?: string;
  testId?: string;
};

/** A captioned table that scrolls sideways on a phone, with a CSV export of exactly what it shows. */
export function DataTable({ caption, columns, rows, csvName, testId }: DataTableProps) {
  // Exports are the owner's (data.export) and each one is audited before the file is made.
  const canExport = useCan('data.export');
  const [exportError, setExportError] = useState<string | null>(null);
  const exportCsv = async (name: string) => {
    setExportError(null);
    try {
      await recordExport(name, rows.length);
      downloadCsv(name, toCsv(columns, rows));
    } catch (reason) {
      setExportError(errorMessage(reason));
    }
  };
  return (
    <div className="admin-table">
      <div className="admin-table__scroll" role="region" aria-label={caption} tabIndex={0}>
        <table data-testid={testId}>
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns.length}>Nothing in this range.</td>
              </tr>
            )}
            {rows.map((row, index) => (
              <tr key={index}>
                {row.map((value, column) => (
                  <td key={column}>{value === null ? '' : String(value)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {csvName && canExport && (
        <button type="button" className="admin-button admin-button--quiet" onClick={() => void exportCsv(csvName)}>
          Export {caption} as CSV
        </button>
      )}
      {exportError && <p role="alert">{exportError}</p>}
    </div>
  );
}

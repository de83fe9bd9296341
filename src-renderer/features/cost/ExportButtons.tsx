import type { CostQuery } from '@shared/domain/cost-report';
import type { CostTable } from '@shared/ipc/contract/cost';
import { showToast } from '../../stores/store';
import { costApi, download, problem } from './cost-api';

/** CSV and JSON of one table of the report on screen, made by the main process, saved as a download. */
export function ExportButtons({
  query,
  table,
  what,
}: {
  query: CostQuery | null;
  table: CostTable;
  what: string;
}) {
  const go = async (format: 'csv' | 'json') => {
    if (!query) return;
    try {
      download(await costApi.export(query, table, format));
    } catch (e) {
      showToast(`Exporting ${what}: ${problem(e)}`);
    }
  };
  return (
    <span className="cost-export">
      <button
        type="button"
        className="small"
        disabled={!query}
        aria-label={`Export ${what} as CSV`}
        onClick={() => void go('csv')}
      >
        CSV
      </button>
      <button
        type="button"
        className="small"
        disabled={!query}
        aria-label={`Export ${what} as JSON`}
        onClick={() => void go('json')}
      >
        JSON
      </button>
    </span>
  );
}

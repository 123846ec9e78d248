import type { ApiClient } from '../../api/client';
import { exportChoice } from '../../domain/datasetPage';
import { REL } from '../../domain/relations';
import type { Dataset } from '../../domain/resources';
import { saveFile } from './saveFile';

/**
 * Export (spec 002 §7): raw data as .txt, the description as .md without a data link, else the
 * data link's CSV (Accept text/csv, the whole streamed export, no row cap) — saved as a file.
 */
export async function exportDataset(client: ApiClient, dataset: Dataset): Promise<void> {
  const choice = exportChoice(dataset);
  const blob =
    choice.kind === 'csv'
      ? await client.download(dataset, REL.data, 'text/csv')
      : new Blob([choice.text], { type: `${choice.mimeType};charset=utf-8` });
  saveFile(blob, choice.fileName);
}

import { useCallback, useEffect, useState } from 'react';
import { getDataset } from '../../../api/datasets';
import { toApiError } from '../../../api/errors';
import { datasetPathPart } from '../../../domain/landing';
import type { Dataset } from '../../../domain/resources';
import { failureText } from '../../../machines/failureText';
import { useRuntime } from '../../runtime';

export type DatasetQuery =
  | { readonly status: 'loading' }
  | { readonly status: 'found'; readonly dataset: Dataset }
  /** 404: the page says so; it is not an error to report (spec 002: no error popup). */
  | { readonly status: 'notFound' }
  | { readonly status: 'failed'; readonly message: string };

/** One dataset of the workspace by id or alias; `retry` asks again. A new id or alias starts over. */
export function useDataset(workspaceId: string, idOrAlias: string): { query: DatasetQuery; retry: () => void } {
  const { client, reporter } = useRuntime();
  const [attempt, setAttempt] = useState(0);
  const [query, setQuery] = useState<DatasetQuery>({ status: 'loading' });

  useEffect(() => {
    // No URL can name an alias made only of empty or dot parts: there is nothing to ask for.
    if (datasetPathPart(idOrAlias) === '') {
      setQuery({ status: 'notFound' });
      return;
    }
    const controller = new AbortController();
    setQuery({ status: 'loading' });
    getDataset(client, workspaceId, idOrAlias, { signal: controller.signal, skipErrorHandler: true }).then(
      (dataset) => {
        if (!controller.signal.aborted) setQuery({ status: 'found', dataset });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = toApiError(error);
        if (apiError.kind === 'response' && apiError.status === 404) {
          setQuery({ status: 'notFound' });
          return;
        }
        if (apiError.kind !== 'cancelled') reporter.report(error, { where: 'dataset page', workspaceId, idOrAlias });
        setQuery({ status: 'failed', message: failureText(error) });
      },
    );
    return () => controller.abort();
  }, [client, reporter, workspaceId, idOrAlias, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { query, retry };
}

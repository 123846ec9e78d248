import { toApiError } from '../../api/errors';
import { downloadResource } from '../../api/resources';
import type { HalLike } from '../../domain/hal';
import { downloadFailureText } from '../../domain/workspaceResources';
import { failureText } from '../../machines/failureText';
import { useMutation } from './useMutation';
import { saveFile } from './saveFile';

/**
 * Downloads a workspace's file through its 'resources' link with the bearer token and saves it
 * under its own name; a failure says, in the reader's words, whether the file is missing or refused.
 */
export function useDownloadResource() {
  return useMutation(async (client, target: { workspace: HalLike; path: string }) => {
    try {
      const { blob, fileName } = await downloadResource(client, target.workspace, target.path, { skipErrorHandler: true });
      saveFile(blob, fileName);
    } catch (failure) {
      const apiError = toApiError(failure);
      const response = apiError.kind === 'response' ? apiError : undefined;
      throw new Error(downloadFailureText(target.path, response?.status, response?.body?.message, failureText(failure)), { cause: failure });
    }
  });
}

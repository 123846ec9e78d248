import { toApiError } from '../../api/errors';
import { deleteResource, downloadResource, listResources, uploadResource } from '../../api/resources';
import type { HalLike } from '../../domain/hal';
import type { WorkspaceResource } from '../../domain/resources';
import { downloadFailureText, uploadPath } from '../../domain/workspaceResources';
import { failureText } from '../../machines/failureText';
import { useMutation } from './useMutation';
import { useQuery } from './useQuery';
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

/** The workspace's files for the Lab's list (the first LAB_FILES_PAGE by path); `reload` asks again. */
export function useWorkspaceFiles(workspace: HalLike | undefined, reload: number) {
  return useQuery(workspace === undefined ? null : (client, signal) => listResources(client, workspace, LAB_FILES_PAGE, { signal }), [workspace, reload], { keepPrevious: true });
}

/** Uploads a picked file to its place under uploads/ (the name checked first, as the server will). */
export function useUploadFile() {
  return useMutation(async (client, target: { workspace: HalLike; file: File }) => {
    const place = uploadPath(target.file.name);
    if (!place.ok) throw new Error(`${target.file.name}: the name ${place.message}`);
    return uploadResource(client, target.workspace, place.path, target.file);
  });
}

/** Deletes a file through its 'delete resource' link. */
export function useDeleteFile() {
  return useMutation((client, file: WorkspaceResource) => deleteResource(client, file));
}

const LAB_FILES_PAGE = 100;

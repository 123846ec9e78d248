import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular, ArrowUploadRegular, DeleteRegular } from '@fluentui/react-icons';
import { useRef, useState, type ChangeEvent } from 'react';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Workspace, WorkspaceResource } from '../../../../domain/resources';
import { fileSizeText, UPLOAD_FOLDER, UPLOADABLE_EXTENSIONS } from '../../../../domain/workspaceResources';
import { formatJobDate } from '../../../../domain/constants';
import { useDeleteFile, useDownloadResource, useUploadFile, useWorkspaceFiles } from '../../../data/resources';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, marginTop: tokens.spacingVerticalXXL },
  head: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  title: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  caption: { margin: 0 },
  path: { overflowWrap: 'anywhere' },
  // on a phone the table keeps its columns and scrolls sideways rather than squeezing the names
  scroll: { overflowX: 'auto' },
  table: { minWidth: '520px' },
});

/**
 * The workspace's files (issue 39): uploads for tap-files, under uploads/. An upload streams the
 * picked file as it is; the list shows what the database holds, which every job's project gets.
 */
export function WorkspaceFiles({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const [reload, setReload] = useState(0);
  const listed = useWorkspaceFiles(workspace, reload);
  const upload = useUploadFile();
  const remove = useDeleteFile();
  const download = useDownloadResource();
  const picker = useRef<HTMLInputElement>(null);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<WorkspaceResource | null>(null);
  const files = listed.data?.['_embedded']?.resources ?? null;
  const error = listed.state.status === 'failed' ? listed.state.message : null;
  const problem = upload.error ?? remove.error ?? download.error;

  const picked = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(event.target.files ?? [])];
    event.target.value = '';
    setUploaded(null);
    const stored: string[] = [];
    for (const file of chosen) {
      const outcome = await upload.run({ workspace, file });
      if (!outcome.ok) break;
      stored.push(outcome.value.path);
    }
    if (stored.length > 0) setUploaded(`Uploaded ${stored.join(', ')}. A tap-files pipeline reads it when its paths include ${UPLOAD_FOLDER}.`);
    setReload((n) => n + 1);
  };

  const deleteFile = async (file: WorkspaceResource) => {
    const outcome = await remove.run(file);
    setConfirming(null);
    if (outcome.ok) setReload((n) => n + 1);
  };

  return (
    <section className={styles.section} aria-label="Files">
      <div className={styles.head}>
        <div className={styles.title}>
          <Subtitle2 as="h2">Files</Subtitle2>
          <Caption1 as="p" className={styles.caption}>{`CSV, JSON and NDJSON files a tap-files pipeline can load: add ${UPLOAD_FOLDER} to its paths.`}</Caption1>
        </div>
        <Button appearance="primary" icon={upload.pending ? <Spinner size="tiny" /> : <ArrowUploadRegular />} disabled={upload.pending} onClick={() => picker.current?.click()}>
          {upload.pending ? 'Uploading…' : 'Upload files'}
        </Button>
        <input ref={picker} type="file" multiple hidden accept={UPLOADABLE_EXTENSIONS.join(',')} aria-label="Files to upload" onChange={(event) => void picked(event)} />
      </div>
      {uploaded !== null && (
        <MessageBar intent="success">
          <MessageBarBody>{uploaded}</MessageBarBody>
        </MessageBar>
      )}
      {(problem ?? error) !== null && (
        <MessageBar intent="error">
          <MessageBarBody>{problem ?? error}</MessageBarBody>
        </MessageBar>
      )}
      {files === null ? (
        error === null && <Spinner label="Loading files" />
      ) : files.length === 0 ? (
        <Body1>No files yet. Upload a CSV, JSON or NDJSON file to load it with tap-files.</Body1>
      ) : (
        <div className={styles.scroll}>
          <Table className={styles.table} aria-label="Workspace files" size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Path</TableHeaderCell>
                <TableHeaderCell>Size</TableHeaderCell>
                <TableHeaderCell>Modified</TableHeaderCell>
                <TableHeaderCell>Actions</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {files.map((file) => (
                <TableRow key={file.path} data-file={file.path}>
                  <TableCell className={styles.path}>{file.path}</TableCell>
                  <TableCell>{fileSizeText(file.size)}</TableCell>
                  <TableCell>{formatJobDate(file.lastModified)}</TableCell>
                  <TableCell>
                    <Button appearance="subtle" icon={<ArrowDownloadRegular />} aria-label={`Download ${file.path}`} onClick={() => void download.run({ workspace, path: file.path })} />
                    {hasLink(file, REL.deleteResource) && (
                      <Button appearance="subtle" icon={<DeleteRegular />} aria-label={`Delete ${file.path}`} disabled={remove.pending} onClick={() => setConfirming(file)} />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <Dialog open={confirming !== null} onOpenChange={(_, data) => !data.open && !remove.pending && setConfirming(null)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{`Delete ${confirming?.path ?? 'file'}`}</DialogTitle>
            <DialogContent>A pipeline that reads this file will no longer find it. Its tables keep the rows already loaded.</DialogContent>
            <DialogActions>
              <Button disabled={remove.pending} onClick={() => setConfirming(null)}>
                Cancel
              </Button>
              <Button appearance="primary" disabled={remove.pending} icon={remove.pending ? <Spinner size="tiny" /> : null} onClick={() => confirming && void deleteFile(confirming)}>
                Delete
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </section>
  );
}

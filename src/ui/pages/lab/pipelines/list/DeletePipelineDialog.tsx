import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, MessageBar, MessageBarBody, Spinner, tokens } from '@fluentui/react-components';
import { hasDownstream, IMPACT_TEXTS, impactOf } from '../../../../../domain/lineageImpact';
import type { Pipeline } from '../../../../../domain/resources';
import { ImpactWarning } from '../../../../components/ImpactWarning';
import { useDeletePipeline } from '../../../../data/pipelines';
import { usePipelineLineage } from '../../../../data/lineage';

// Deleting a pipeline asks first; when datasets or dashboards read the tables its runs feed
// (issue 41), the question lists them and the button says 'Delete anyway'. Cancel keeps it all.
// Mounted only while open, so the pipeline's impact is read when the question is asked.

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export function DeletePipelineDialog({ pipeline, workspaceId, onCancel, onDeleted }: { pipeline: Pipeline; workspaceId: string; onCancel: () => void; onDeleted: () => void }) {
  const styles = useStyles();
  const deletion = useDeletePipeline();
  const impact = usePipelineLineage(pipeline, 0).state;
  const name = pipeline.name ?? '(unnamed)';
  const reading = impact.status === 'loading';
  const warns = impact.status === 'ready' && hasDownstream(impactOf(impact.data));
  const deleting = deletion.pending;
  const remove = () => {
    void deletion.run(pipeline).then((outcome) => {
      if (outcome.ok) onDeleted();
    });
  };
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onCancel()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Delete pipeline</DialogTitle>
          <DialogContent className={styles.content}>
            {deletion.error !== null && (
              <MessageBar intent="error">
                <MessageBarBody>{deletion.error}</MessageBarBody>
              </MessageBar>
            )}
            <span>{`Delete '${name}' and its job history? This cannot be undone.`}</span>
            {reading && <Spinner size="tiny" label={IMPACT_TEXTS.reading} />}
            {impact.status === 'failed' && (
              <MessageBar intent="error">
                <MessageBarBody>{impact.message}</MessageBarBody>
              </MessageBar>
            )}
            {warns && <ImpactWarning impact={impact.data} workspaceId={workspaceId} title={IMPACT_TEXTS.deleteWarning} />}
          </DialogContent>
          <DialogActions>
            <Button disabled={deleting} onClick={onCancel}>
              Cancel
            </Button>
            <Button appearance="primary" disabled={deleting || reading} icon={deleting ? <Spinner size="tiny" /> : null} onClick={remove}>
              {warns ? IMPACT_TEXTS.deleteAnyway : IMPACT_TEXTS.delete}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

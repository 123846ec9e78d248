import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { IMPACT_TEXTS } from '../../../../../domain/lineageImpact';
import type { PipelineLineage } from '../../../../../domain/lineageResources';
import { ImpactWarning } from '../../../../components/ImpactWarning';

/**
 * The question before a save that renames the pipeline, changes its table prefix or deselects
 * streams while datasets or dashboards read its tables (issue 41; the pipelineForm machine's
 * confirmingImpact). Keep editing changes nothing; Save anyway saves.
 */
export function SaveImpactDialog({ question, workspaceId, onSave, onKeep }: { question: { title: string; impact: PipelineLineage } | null; workspaceId: string; onSave: () => void; onKeep: () => void }) {
  return (
    <Dialog open={question !== null} onOpenChange={(_, data) => !data.open && onKeep()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Save this change?</DialogTitle>
          <DialogContent>{question !== null && <ImpactWarning impact={question.impact} workspaceId={workspaceId} title={question.title} />}</DialogContent>
          <DialogActions>
            <Button onClick={onKeep}>Keep editing</Button>
            <Button appearance="primary" onClick={onSave}>
              {IMPACT_TEXTS.saveAnyway}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';

/** The question before a pipeline loads into tables another pipeline loads (src/domain/tableNamespace.ts). */
export function ShareTablesDialog({ question, onShare, onKeep }: { question: string | null; onShare: () => void; onKeep: () => void }) {
  return (
    <Dialog open={question !== null} onOpenChange={(_, data) => !data.open && onKeep()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Share these tables?</DialogTitle>
          <DialogContent>{question}</DialogContent>
          <DialogActions>
            <Button onClick={onKeep}>Change prefix</Button>
            <Button appearance="primary" onClick={onShare}>
              Share tables
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

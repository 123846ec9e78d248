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
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  SearchBox,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { DATASET_BLOCK_VIEWS, type DatasetBlockView } from '../../../domain/dashboard/blocks';
import type { DashboardEditorEvent, DatasetPicker } from '../../../machines/dashboardEditor/dashboardEditor.machine';

// 'Add dataset': search the workspace's datasets, choose how the block shows it, pick one.
// The search itself runs in the dashboard editor machine; this only renders and sends events.

const VIEW_TEXT: Readonly<Record<DatasetBlockView, string>> = { chart: 'Chart', data: 'Table', link: 'Link', download: 'Download button' };

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  results: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, margin: 0, padding: 0, listStyleType: 'none', maxHeight: '320px', overflowY: 'auto' },
  result: { width: '100%', justifyContent: 'flex-start', textAlign: 'start', paddingTop: tokens.spacingVerticalS, paddingBottom: tokens.spacingVerticalS },
  resultText: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', minWidth: 0, overflowWrap: 'anywhere' },
  alias: { fontFamily: tokens.fontFamilyMonospace, color: tokens.colorNeutralForeground3 },
  muted: { color: tokens.colorNeutralForeground3 },
});

interface DatasetPickerDialogProps {
  readonly open: boolean;
  readonly picker: DatasetPicker;
  readonly busy: boolean;
  readonly send: (event: DashboardEditorEvent) => void;
}

export function DatasetPickerDialog({ open, picker, busy, send }: DatasetPickerDialogProps) {
  const styles = useStyles();
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && send({ type: 'user.closePicker' })}>
      <DialogSurface aria-describedby={undefined}>
        <DialogBody>
          <DialogTitle>Add dataset</DialogTitle>
          <DialogContent className={styles.content}>
            <Field label="Search datasets">
              <SearchBox value={picker.q} placeholder="Title, alias or tag:name" onChange={(_, data) => send({ type: 'user.search', q: data.value })} />
            </Field>
            <Field label="Show as">
              <RadioGroup layout="horizontal" value={picker.view} onChange={(_, data) => send({ type: 'user.pickerView', view: data.value as DatasetBlockView })}>
                {DATASET_BLOCK_VIEWS.map((view) => (
                  <Radio key={view} value={view} label={VIEW_TEXT[view]} />
                ))}
              </RadioGroup>
            </Field>
            {picker.error !== null && (
              <MessageBar intent="error" role="alert">
                <MessageBarBody>{picker.error}</MessageBarBody>
              </MessageBar>
            )}
            {busy ? (
              <Spinner size="small" label="Searching datasets" />
            ) : picker.results.length === 0 ? (
              picker.error === null && <Body1 className={styles.muted}>No datasets match.</Body1>
            ) : (
              <ul className={styles.results} aria-label="Datasets">
                {picker.results.map((dataset) => (
                  <li key={dataset.alias}>
                    <Button appearance="subtle" className={styles.result} onClick={() => send({ type: 'user.pickDataset', dataset })}>
                      <span className={styles.resultText}>
                        <span>{dataset.title}</span>
                        <Caption1 className={styles.alias}>{dataset.alias}</Caption1>
                      </span>
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => send({ type: 'user.closePicker' })}>Cancel</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

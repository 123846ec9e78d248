// mermaid: the diagram text is the dataset's rawData. Mermaid (large) is fetched only here, runs
// with securityLevel 'strict' (its sanitiser on, no click handlers, no HTML labels), and a diagram
// that does not render shows its error as a message instead of throwing.
import { makeStyles, Spinner } from '@fluentui/react-components';
import { NO_DATA_TO_DISPLAY } from '../../../domain/visualisation/messages';
import { useMermaidSvg } from '../useMermaidSvg';
import { VisualisationMessage } from './VisualisationMessage';

/** Error text shown above mermaid's own message. */
export const MERMAID_ERROR = 'This diagram could not be drawn';

const useStyles = makeStyles({ diagram: { overflowX: 'auto', '& svg': { maxWidth: '100%', height: 'auto' } } });

export default function MermaidDiagram({ text }: { text: string }) {
  const styles = useStyles();
  const { state, ref } = useMermaidSvg(text, 'mermaid');

  if (text.trim() === '') return <VisualisationMessage message={NO_DATA_TO_DISPLAY} />;
  if (state.status === 'failed') return <VisualisationMessage message={MERMAID_ERROR} detail={state.detail} />;
  return (
    <>
      {state.status === 'drawing' ? <Spinner size="small" label="Drawing diagram" /> : null}
      <div ref={ref} className={styles.diagram} role="img" aria-label="Diagram" />
    </>
  );
}

// mermaid: the diagram text is the dataset's rawData. Mermaid (large) is fetched only here, runs
// with securityLevel 'strict' (its sanitiser on, no click handlers, no HTML labels), and a diagram
// that does not render shows its error as a message instead of throwing.
import { makeStyles, Spinner } from '@fluentui/react-components';
import { useEffect, useId, useRef, useState } from 'react';
import { NO_DATA_TO_DISPLAY } from '../../../domain/visualisation/messages';
import { VisualisationMessage } from './VisualisationMessage';

/** Error text shown above mermaid's own message. */
export const MERMAID_ERROR = 'This diagram could not be drawn';

const useStyles = makeStyles({ diagram: { overflowX: 'auto', '& svg': { maxWidth: '100%', height: 'auto' } } });

type State = { status: 'drawing' } | { status: 'drawn'; svg: string } | { status: 'failed'; detail: string };

export default function MermaidDiagram({ text }: { text: string }) {
  const styles = useStyles();
  const id = `mermaid-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const [state, setState] = useState<State>({ status: 'drawing' });
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    setState({ status: 'drawing' });
    void (async () => {
      try {
        const { default: mermaid } = await import('mermaid');
        mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', suppressErrorRendering: true });
        const { svg } = await mermaid.render(id, text);
        if (live) setState({ status: 'drawn', svg });
      } catch (error) {
        if (live) setState({ status: 'failed', detail: error instanceof Error ? error.message : String(error) });
      }
    })();
    return () => {
      live = false;
    };
  }, [id, text]);

  useEffect(() => {
    // the svg comes from mermaid's strict mode, which sanitises it with DOMPurify before returning it
    if (state.status === 'drawn' && containerRef.current) containerRef.current.innerHTML = state.svg;
  }, [state]);

  if (text.trim() === '') return <VisualisationMessage message={NO_DATA_TO_DISPLAY} />;
  if (state.status === 'failed') return <VisualisationMessage message={MERMAID_ERROR} detail={state.detail} />;
  return (
    <>
      {state.status === 'drawing' ? <Spinner size="small" label="Drawing diagram" /> : null}
      <div ref={containerRef} className={styles.diagram} role="img" aria-label="Diagram" />
    </>
  );
}

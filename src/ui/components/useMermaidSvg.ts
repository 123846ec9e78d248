// One way to draw mermaid text (a dataset's diagram, the lineage graph): mermaid (large) is fetched
// only when something is drawn, runs with securityLevel 'strict' (its sanitiser on, no click
// handlers, no HTML labels), and a text it cannot draw is a failed state with mermaid's message,
// never a throw. The svg goes into the element `ref` points at once it is drawn.
import { useEffect, useId, useRef, useState } from 'react';

type MermaidState = { status: 'drawing' } | { status: 'drawn'; svg: string } | { status: 'failed'; detail: string };

export function useMermaidSvg(text: string, idPrefix: string): { state: MermaidState; ref: React.RefObject<HTMLDivElement> } {
  const id = `${idPrefix}-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const [state, setState] = useState<MermaidState>({ status: 'drawing' });
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    setState({ status: 'drawing' });
    void (async () => {
      try {
        const { default: mermaid } = await import('mermaid');
        mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', suppressErrorRendering: true, flowchart: { useMaxWidth: true } });
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
    // mermaid's strict mode has sanitised the svg (DOMPurify) before returning it
    if (state.status === 'drawn' && ref.current) ref.current.innerHTML = state.svg;
  }, [state]);

  return { state, ref };
}

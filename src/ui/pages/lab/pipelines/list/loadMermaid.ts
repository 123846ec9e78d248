import type { Mermaid } from 'mermaid';

// Mermaid is large (its own chunks, several hundred kB); it is fetched the first time a trigger
// graph is drawn, never with the pipelines list. One initialisation for the whole app: strict
// security (labels sanitised, no click callbacks or scripts from the diagram text), no scanning
// of the page for diagrams.

let loading: Promise<Mermaid> | null = null;

export function loadMermaid(): Promise<Mermaid> {
  loading ??= import('mermaid').then(
    ({ default: mermaid }) => {
      mermaid.initialize({
        startOnLoad: false,
        securityLevel: 'strict',
        theme: 'neutral',
        fontFamily: 'inherit',
        // triggerGraph caps edges at 400 and labels at 48 code points; 200 nodes of entity-escaped
        // text can still pass the 50 000-character default.
        maxTextSize: 400_000,
        flowchart: { useMaxWidth: false, htmlLabels: true },
      });
      return mermaid;
    },
    (failure: unknown) => {
      // A failed chunk load (offline, a new deploy) may succeed on the next open.
      loading = null;
      throw failure;
    },
  );
  return loading;
}

// The harness's stand-in for src/ui/runtime: only the licence key the Visualisation reads.
export function useOptionalRuntime() {
  const key = new URLSearchParams(window.location.search).get('hotKey');
  return { config: { handsontableLicenseKey: key } };
}

/** Saves a Blob as a file named `fileName`, as a click on a download link would. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = fileName;
    anchor.rel = 'noopener';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
  } finally {
    // The download has started from the click; the object URL can go once the event has run.
    window.setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

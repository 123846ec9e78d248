import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Slider, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { canConfirmCrop, initialCrop, LOGO_OUTPUT_MAX, LOGO_TYPES } from '../../../domain/workspaceLogo';

const useStyles = makeStyles({
  stage: { position: 'relative', maxWidth: '100%', overflow: 'auto', backgroundColor: tokens.colorNeutralBackground3 },
  crop: { position: 'absolute', outline: `2px solid ${tokens.colorBrandStroke1}`, boxShadow: '0 0 0 9999px rgba(0,0,0,0.45)', pointerEvents: 'none' },
  column: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

/**
 * The logo dialog (spec 001 §2, §5): a jpeg, png or svg file, cropped square (100 px to start,
 * at least 10 px to confirm). The crop is drawn on a canvas and handed on as a PNG data URL, so an
 * SVG's script never leaves the browser's image decoder.
 */
export function LogoDialog({ open, onClose, onConfirm }: { open: boolean; onClose: () => void; onConfirm: (dataUrl: string) => void }) {
  const styles = useStyles();
  const [source, setSource] = useState<string | null>(null);
  const [natural, setNatural] = useState({ width: 0, height: 0 });
  const [crop, setCrop] = useState({ x: 0, y: 0, size: 0 });
  const image = useRef<HTMLImageElement>(null);

  useEffect(() => () => void (source && URL.revokeObjectURL(source)), [source]);

  const onFile = (file: File | undefined) => {
    if (!file || !(LOGO_TYPES as readonly string[]).includes(file.type)) return;
    setSource(URL.createObjectURL(file));
  };
  const onLoad = () => {
    const img = image.current;
    if (!img) return;
    const width = img.naturalWidth || img.width;
    const height = img.naturalHeight || img.height;
    setNatural({ width, height });
    setCrop(initialCrop(width, height));
  };
  const confirm = () => {
    const img = image.current;
    if (!img || !canConfirmCrop(crop.size)) return;
    const out = Math.min(crop.size, LOGO_OUTPUT_MAX);
    const canvas = document.createElement('canvas');
    canvas.width = out;
    canvas.height = out;
    canvas.getContext('2d')?.drawImage(img, crop.x, crop.y, crop.size, crop.size, 0, 0, out, out);
    onConfirm(canvas.toDataURL('image/png'));
  };
  const max = Math.max(0, Math.min(natural.width, natural.height));

  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface aria-label="Logo">
        <DialogBody>
          <DialogTitle>Logo</DialogTitle>
          <DialogContent className={styles.column}>
            <input type="file" aria-label="Logo file" accept={LOGO_TYPES.join(',')} onChange={(e) => onFile(e.target.files?.[0])} />
            {source && (
              <div className={styles.stage}>
                <img ref={image} src={source} alt="Logo to crop" onLoad={onLoad} style={{ display: 'block' }} />
                <div className={styles.crop} style={{ left: crop.x, top: crop.y, width: crop.size, height: crop.size }} />
              </div>
            )}
            {max > 0 && (
              <>
                <Field label={`Size: ${crop.size} px`}>
                  <Slider min={1} max={max} value={crop.size} onChange={(_, d) => setCrop((c) => ({ size: d.value, x: Math.min(c.x, natural.width - d.value), y: Math.min(c.y, natural.height - d.value) }))} />
                </Field>
                <Field label="Left">
                  <Slider min={0} max={Math.max(0, natural.width - crop.size)} value={crop.x} onChange={(_, d) => setCrop((c) => ({ ...c, x: d.value }))} />
                </Field>
                <Field label="Top">
                  <Slider min={0} max={Math.max(0, natural.height - crop.size)} value={crop.y} onChange={(_, d) => setCrop((c) => ({ ...c, y: d.value }))} />
                </Field>
              </>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button appearance="primary" disabled={!canConfirmCrop(crop.size)} onClick={confirm}>
              Confirm
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

import { Badge, tokens } from '@fluentui/react-components';
import { jobStatusColour, type JobColour } from '../../../domain/jobStatusColour';

// The spec's colour names on the theme's palette tokens.
const COLOURS: Readonly<Record<JobColour, { background: string; foreground: string }>> = {
  grey: { background: tokens.colorNeutralBackground5, foreground: tokens.colorNeutralForeground2 },
  green: { background: tokens.colorPaletteGreenBackground3, foreground: tokens.colorNeutralForegroundOnBrand },
  runningGreen: { background: tokens.colorPaletteLightGreenBackground3, foreground: tokens.colorNeutralForegroundOnBrand },
  red: { background: tokens.colorPaletteRedBackground3, foreground: tokens.colorNeutralForegroundOnBrand },
  orange: { background: tokens.colorPaletteDarkOrangeBackground3, foreground: tokens.colorNeutralForegroundOnBrand },
};

export function JobStatusBadge({ status }: { status: string }) {
  const colour = COLOURS[jobStatusColour(status)];
  return (
    <Badge appearance="filled" shape="rounded" style={{ backgroundColor: colour.background, color: colour.foreground }} data-status={status}>
      {status}
    </Badge>
  );
}

// Chart colours: the metadata palette when it has one, else 12 default colours (spec 002 §9),
// chosen to stay distinguishable and legible on the light Fluent background.
import type { Rgb } from './metadata';

export const DEFAULT_PALETTE: readonly Rgb[] = [
  [15, 108, 189], // blue
  [232, 121, 33], // orange
  [16, 124, 16], // green
  [196, 49, 75], // red
  [135, 100, 184], // purple
  [0, 153, 153], // teal
  [202, 80, 16], // rust
  [98, 100, 167], // indigo
  [152, 111, 11], // olive
  [227, 0, 140], // magenta
  [72, 118, 49], // forest
  [96, 94, 92], // grey
];

/** The i-th colour, cycling through the palette (or the default when it is empty). */
export function colourAt(index: number, palette: readonly Rgb[] | null): Rgb {
  const colours = palette && palette.length > 0 ? palette : DEFAULT_PALETTE;
  const i = Number.isFinite(index) ? Math.abs(Math.trunc(index)) % colours.length : 0;
  return colours[i] ?? DEFAULT_PALETTE[0] ?? [0, 0, 0];
}

/** CSS rgb()/rgba() text of a colour. */
export function cssColour([r, g, b]: Rgb, alpha = 1): string {
  return alpha >= 1 ? `rgb(${r}, ${g}, ${b})` : `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** Black or white text, whichever reads better on the colour (WCAG relative luminance). */
export function textOn([r, g, b]: Rgb): 'black' | 'white' {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  // contrast with white is (1.05)/(L+0.05); with black (L+0.05)/0.05: pick the larger
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? 'white' : 'black';
}

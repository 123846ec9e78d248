import { createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-components';
import { THEME_PRIMARY } from '../domain/constants';

/** A 16-step Fluent brand ramp around the spec's dark slate blue (shade 80 is the colour itself). */
function brandRamp(hex: string): BrandVariants {
  const base = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const mix = (target: number, amount: number) =>
    '#' + base.map((c) => Math.round(c + (target - c) * amount).toString(16).padStart(2, '0')).join('');
  const ramp: Record<number, string> = {};
  for (let step = 1; step <= 16; step++) {
    const shade = step * 10;
    ramp[shade] = shade < 80 ? mix(0, (80 - shade) / 80) : shade === 80 ? hex : mix(255, ((shade - 80) / 80) * 0.9);
  }
  return ramp as BrandVariants;
}

const brand = brandRamp(THEME_PRIMARY);
export const lightTheme: Theme = createLightTheme(brand);

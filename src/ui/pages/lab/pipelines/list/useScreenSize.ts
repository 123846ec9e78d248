import { useEffect, useState } from 'react';
import { screenSize, type ScreenSize } from '../../../../../domain/constants';

/** The spec's small/medium/large breakpoints for the window's current width. */
export function useScreenSize(): ScreenSize {
  const [size, setSize] = useState<ScreenSize>(() => screenSize(window.innerWidth));
  useEffect(() => {
    const onResize = () => setSize(screenSize(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}

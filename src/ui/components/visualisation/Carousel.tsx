// carousel: floor(width / 250) images side by side (at least one), with previous and next.
import { Button, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons';
import { useEffect, useRef, useState } from 'react';
import { carouselPerView, type CarouselSlide } from '../../../domain/visualisation/carousel';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, width: '100%' },
  track: { flex: 1, minWidth: 0, display: 'grid', gap: tokens.spacingHorizontalS },
  slide: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0, margin: 0 },
  image: { width: '100%', height: '180px', objectFit: 'cover', borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground3 },
  compactImage: { height: '100px' },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

export default function Carousel({ slides, compact }: { slides: CarouselSlide[]; compact: boolean }) {
  const styles = useStyles();
  const trackRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [start, setStart] = useState(0);

  useEffect(() => {
    const track = trackRef.current;
    if (!track) return undefined;
    setWidth(track.clientWidth);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver((entries) => setWidth(entries[0]?.contentRect.width ?? 0));
    observer.observe(track);
    return () => observer.disconnect();
  }, []);

  const perView = carouselPerView(width);
  const first = Math.min(start, Math.max(0, slides.length - perView));
  const visible = slides.slice(first, first + perView);
  return (
    <div className={styles.root}>
      <Button appearance="subtle" icon={<ChevronLeftRegular />} aria-label="Previous" disabled={first === 0} onClick={() => setStart(Math.max(0, first - perView))} />
      <div ref={trackRef} className={styles.track} style={{ gridTemplateColumns: `repeat(${perView}, minmax(0, 1fr))` }}>
        {visible.map((slide, index) => (
          <figure key={first + index} className={styles.slide}>
            {slide.url ? <img className={compact ? `${styles.image} ${styles.compactImage}` : styles.image} src={slide.url} alt={slide.name} loading="lazy" referrerPolicy="no-referrer" /> : null}
            <figcaption className={styles.name} title={slide.name}><Caption1>{slide.name}</Caption1></figcaption>
          </figure>
        ))}
      </div>
      <Button appearance="subtle" icon={<ChevronRightRegular />} aria-label="Next" disabled={first + perView >= slides.length} onClick={() => setStart(first + perView)} />
    </div>
  );
}

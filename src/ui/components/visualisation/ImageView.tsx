// image: the rows' url (each row one image, named by its name) or the visualisation's url; only
// http(s) and this site's paths are ever put in src.
import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { TABLE_ROW_LIMIT } from '../../../domain/visualisation/messages';

export interface ImageItem {
  url: string;
  alt: string;
}

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  image: { display: 'block', maxWidth: '100%', height: 'auto', borderRadius: tokens.borderRadiusMedium },
  compact: { maxHeight: '160px', objectFit: 'contain' },
});

export default function ImageView({ images, compact }: { images: ImageItem[]; compact: boolean }) {
  const styles = useStyles();
  return (
    <div className={styles.list}>
      {images.slice(0, compact ? 1 : TABLE_ROW_LIMIT).map((image, index) => (
        <figure key={index} style={{ margin: 0 }}>
          <img className={compact ? `${styles.image} ${styles.compact}` : styles.image} src={image.url} alt={image.alt} loading="lazy" referrerPolicy="no-referrer" />
          {!compact && images.length > 1 ? <figcaption><Caption1>{image.alt}</Caption1></figcaption> : null}
        </figure>
      ))}
    </div>
  );
}

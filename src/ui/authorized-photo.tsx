// A photo behind the bearer token: an <img src> cannot send the Authorization header, so the picture comes
// through `loadImage` (the app passes src/lib/authorized-image.ts) as an object URL, revoked when the photo
// goes or its link changes. Until it loads, or when it cannot, an empty box of the same class stands in with
// the photo's name for screen readers (spec section 8: the loader logs the failure, the page goes on).
import { useEffect, useState } from 'react';
import type { LoadImageFn } from './file-upload/types';

export interface AuthorizedPhotoProps {
  imageLink: string;
  /** The alternative text (the file's name). */
  name: string;
  loadImage: LoadImageFn;
  /** The class of the picture; the placeholder gets it and `<className>--empty`. */
  className: string;
}

export function AuthorizedPhoto({ imageLink, name, loadImage, className }: AuthorizedPhotoProps) {
  const [loaded, setLoaded] = useState<{ link: string; src: string } | null>(null);
  useEffect(() => {
    let created: string | null = null;
    let isCurrent = true;
    loadImage(imageLink).then(
      (src) => {
        created = src;
        if (isCurrent) setLoaded({ link: imageLink, src });
        else URL.revokeObjectURL(src);
      },
      // The loader has logged it; the placeholder stays.
      (error: unknown) => console.debug('No photo for', imageLink, error),
    );
    return () => {
      isCurrent = false;
      if (created) URL.revokeObjectURL(created);
    };
  }, [imageLink, loadImage]);
  // A link that changed shows the placeholder, never the previous (revoked) picture.
  const src = loaded && loaded.link === imageLink ? loaded.src : null;
  return src ? <img className={className} src={src} alt={name} /> : <span className={`${className} ${className}--empty`} role="img" aria-label={name} />;
}

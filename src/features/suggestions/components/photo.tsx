import { useEffect, useRef, useState } from 'react';
import { loadAuthorizedImage } from '../../../lib/authorized-image';

/** A photo kept on the device (not uploaded yet), shown from its bytes. */
export function DevicePhoto({ data, type, name }: { data: ArrayBuffer; type: string; name: string }) {
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([data], { type }));
    if (image.current) image.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [data, type]);
  return <img ref={image} className="suggestion-photo" alt={name} data-source="device" />;
}

/** A photo on the server, fetched with the bearer token; the placeholder stays when it cannot load. */
export function ServerPhoto({ imageLink, name }: { imageLink: string; name: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let isCurrent = true;
    loadAuthorizedImage(imageLink).then(
      (loaded) => {
        url = loaded;
        if (isCurrent) setSrc(loaded);
        else URL.revokeObjectURL(loaded);
      },
      // loadAuthorizedImage has logged it; the placeholder stays (spec section 8).
      () => undefined,
    );
    return () => {
      isCurrent = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [imageLink]);
  return src ? <img className="suggestion-photo" src={src} alt={name} /> : <span className="suggestion-photo suggestion-photo--empty" role="img" aria-label={name} />;
}

import { useEffect, useRef } from 'react';
import { loadAuthorizedImage } from '../../../lib/authorized-image';
import { AuthorizedPhoto } from '../../../ui/authorized-photo';

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
  return <AuthorizedPhoto imageLink={imageLink} name={name} loadImage={loadAuthorizedImage} className="suggestion-photo" />;
}

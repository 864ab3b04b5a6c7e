// Photos a form keeps on the device instead of uploading: the file upload field's `upload` hands each
// (downscaled) file to this keeper, which answers "ready" at once, online or not, and the form reads the kept
// bytes on submit to store them with its entity; whoever sends the entity uploads them later. The thumbnails
// are object URLs of the kept files, revoked when the form goes.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LoadImageFn, UploadFn } from './types';

/** A kept photo's bytes, as a store takes them. */
export interface KeptPhoto {
  data: ArrayBuffer;
  type: string;
  name: string;
}

export interface KeptPhotos {
  /** The file upload field's own props: spread them onto `<FileUpload>`. */
  field: {
    value: string[];
    onChange: (imageIds: string[]) => void;
    upload: UploadFn;
    loadImage: LoadImageFn;
  };
  /** The photos the field holds now, in its order. */
  read: () => Promise<KeptPhoto[]>;
}

export function useKeptPhotos(): KeptPhotos {
  const [kept, setKept] = useState<ReadonlyMap<string, File>>(() => new Map());
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  // The object URLs handed to the field as links, revoked when the form goes.
  const links = useRef<string[]>([]);
  useEffect(() => {
    const made = links.current;
    return () => {
      for (const link of made.splice(0)) URL.revokeObjectURL(link);
    };
  }, []);
  const upload = useCallback<UploadFn>((file) => {
    const imageId = crypto.randomUUID();
    setKept((previous) => new Map(previous).set(imageId, file));
    // An object URL of the file itself, so the thumbnail needs nothing but this answer.
    const imageLink = URL.createObjectURL(file);
    links.current.push(imageLink);
    return Promise.resolve({ status: 200, data: { imageId, imageLink, name: file.name } });
  }, []);
  // The link is already an object URL of the kept file; the field revokes what it gets, so hand over a copy.
  const loadImage = useCallback<LoadImageFn>((link) => fetch(link).then(async (response) => URL.createObjectURL(await response.blob())), []);
  const read = useCallback(async (): Promise<KeptPhoto[]> => {
    const photos: KeptPhoto[] = [];
    for (const id of photoIds) {
      const file = kept.get(id);
      if (file) photos.push({ data: await file.arrayBuffer(), type: file.type, name: file.name });
    }
    return photos;
  }, [kept, photoIds]);
  const field = useMemo(() => ({ value: photoIds, onChange: setPhotoIds, upload, loadImage }), [photoIds, upload, loadImage]);
  return { field, read };
}

// The file upload field (spec sections 3, 4, 5, 8): images picked (or dropped) here are downscaled on the
// device, uploaded one call each through the `upload` prop, and shown with progress, retry and remove.
// Guarantees: only accepted types are added (PNG and JPEG by default); never more than `max` items (3 by
// default): extras are cut off and nothing is added when full; an answer counts only with `status` 200;
// no answer means 'Server error. Try again later'; a non-200 shows the server's message or that text;
// `value` (and every `onChange`) lists the imageIds of finished items only, in the order they were added.
import { useCallback, useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { lazyModule } from '../lazy-module';
import { MAX_IMAGE_SIDE } from './types';
import type { LoadImageFn, UploadAnswer, UploadedImage, UploadFn, UploadItem } from './types';
import '../field.css';
import './file-upload.css';

export type { LoadImageFn, UploadAnswer, UploadedImage, UploadFn, UploadItem, UploadStatus } from './types';

// The downscaler (downscale.ts) is fetched with the first photo, not with every form that offers one. Should it not
// load, the photo goes as it is, as one the browser cannot decode does: the server has the last word on its size.
const downscaler = lazyModule(() => import('./downscale'));
if (!import.meta.env.PROD) await downscaler.load();

async function downscaled(file: File, maxSide: number): Promise<File> {
  const loaded = await downscaler.load().catch((error: unknown) => {
    console.warn('Sending the file as it is: the downscaler could not be loaded', error);
    return null;
  });
  return loaded ? loaded.downscaleImage(file, maxSide) : file;
}

export const DEFAULT_ACCEPT: readonly string[] = ['image/png', 'image/jpeg'];
export const DEFAULT_MAX_FILES = 3;

export interface FileUploadProps {
  label: ReactNode;
  /** The field's name in the model (`data-field` on the control). */
  name: string;
  /** imageIds of the finished uploads. */
  value: readonly string[];
  onChange: (imageIds: string[]) => void;
  upload: UploadFn;
  /** Thumbnails of finished items; the object URL it gives is revoked when the thumbnail goes. */
  loadImage?: LoadImageFn;
  /** MIME types that may be added ('image/*' style wildcards too). */
  accept?: readonly string[];
  max?: number;
  /** Images uploaded before (editing an entity): shown as finished items. Read once, at mount. */
  initialImages?: readonly UploadedImage[];
  /** Long side to downscale photos to before upload, in px; `false` sends files as they are. */
  downscaleTo?: number | false;
  error?: ReactNode;
  tip?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  /** Every change of the items, for a form that shows or blocks on unfinished uploads. */
  onItemsChange?: (items: readonly UploadItem[]) => void;
  /**
   * What a finished item says instead of 'Uploaded', for an `upload` that only keeps the file (on the
   * device, to be sent later with its entity): the field must not claim the server has it.
   */
  finishedText?: string;
}

/** Whether a file of MIME type `type` fits `accept` ('image/png', or a wildcard such as 'image/*'). */
export function isAccepted(type: string, accept: readonly string[]): boolean {
  const mime = type.toLowerCase();
  return accept.some((pattern) => {
    const wanted = pattern.toLowerCase().trim();
    return wanted.endsWith('/*') ? mime.startsWith(wanted.slice(0, -1)) : mime === wanted;
  });
}

/** The imageIds an item list gives the field: finished items only. */
export function finishedIds(items: readonly UploadItem[]): string[] {
  return items.flatMap((item) => (item.status === 'finished' && item.imageId ? [item.imageId] : []));
}

function serverErrorText(intl: IntlShape): string {
  return intl.formatMessage({ id: 'ui.upload.serverError', defaultMessage: 'Server error. Try again later' });
}

/** The item an answer leaves: finished only with status 200 and an image; else an error with a message. */
export function settleItem(item: UploadItem, answer: UploadAnswer | null, fallbackMessage: string): UploadItem {
  const data = answer?.data;
  if (answer && answer.status === 200 && data && typeof data.imageId === 'string' && typeof data.imageLink === 'string') {
    return { ...item, status: 'finished', progress: 1, imageId: data.imageId, imageLink: data.imageLink, error: null };
  }
  const serverMessage = answer && answer.status !== 200 && typeof answer.message === 'string' ? answer.message.trim() : '';
  return { ...item, status: 'error', progress: 0, error: serverMessage || fallbackMessage };
}

function statusText(intl: IntlShape, item: UploadItem, finishedText: string | undefined): string {
  switch (item.status) {
    case 'pending':
      return intl.formatMessage({ id: 'ui.upload.status.pending', defaultMessage: 'Preparing…' });
    case 'uploading':
      return intl.formatMessage(
        { id: 'ui.upload.status.uploading', defaultMessage: 'Uploading… {progress, number, percent}' },
        { progress: item.progress },
      );
    case 'finished':
      return finishedText ?? intl.formatMessage({ id: 'ui.upload.status.finished', defaultMessage: 'Uploaded' });
    case 'error':
      return item.error ?? serverErrorText(intl);
  }
}

export function FileUpload({
  label,
  name,
  value,
  onChange,
  upload,
  loadImage,
  accept = DEFAULT_ACCEPT,
  max = DEFAULT_MAX_FILES,
  initialImages,
  downscaleTo = MAX_IMAGE_SIDE,
  error,
  tip,
  required = false,
  disabled = false,
  onItemsChange,
  finishedText,
}: FileUploadProps) {
  const intl = useIntl();
  const baseId = useId();
  const inputId = `${baseId}-input`;
  const labelId = `${baseId}-label`;
  const actionId = `${baseId}-action`;
  const tipId = `${baseId}-tip`;
  const errorId = `${baseId}-error`;
  const noticeId = `${baseId}-notice`;

  const [items, setItems] = useState<UploadItem[]>(() =>
    (initialImages ?? []).slice(0, max).map((image, index) => ({
      id: `${baseId}-initial-${index}`,
      file: null,
      status: 'finished',
      name: image.name,
      imageId: image.imageId,
      imageLink: image.imageLink,
      progress: 1,
      error: null,
    })),
  );
  /** A refusal the user must see (full, cut off, wrong type). */
  const [notice, setNotice] = useState<string | null>(null);
  /** Upload outcomes, for screen readers only: the rows show them already. */
  const [announcement, setAnnouncement] = useState('');
  const [isDragging, setIsDragging] = useState(false);

  // The latest items and callbacks, read by uploads that finish after many renders.
  const itemsRef = useRef(items);
  const nextId = useRef(0);
  const controllers = useRef(new Map<string, AbortController>());
  const prepared = useRef(new Map<string, File>());
  const inputRef = useRef<HTMLInputElement>(null);
  const callbacks = useRef({ onChange, onItemsChange, upload });
  const valueKey = value.join('\n');
  // What the field told its owner since the owner last set a value of its own. Uploads that finish in
  // the same tick emit several values before the owner re-renders, so an older one of ours can come
  // back after a newer one: only a value we never emitted means the owner changed it.
  const emittedKeys = useRef(new Set([valueKey]));
  const lastEmittedKey = useRef(valueKey);

  useEffect(() => {
    callbacks.current = { onChange, onItemsChange, upload };
  });

  const commit = useCallback((next: UploadItem[]) => {
    const before = finishedIds(itemsRef.current).join('\n');
    itemsRef.current = next;
    setItems(next);
    callbacks.current.onItemsChange?.(next);
    const ids = finishedIds(next);
    if (ids.join('\n') !== before) {
      lastEmittedKey.current = ids.join('\n');
      emittedKeys.current.add(lastEmittedKey.current);
      callbacks.current.onChange(ids);
    }
  }, []);

  const patchItem = useCallback(
    (id: string, change: (item: UploadItem) => UploadItem) => {
      if (!itemsRef.current.some((item) => item.id === id)) return false;
      commit(itemsRef.current.map((item) => (item.id === id ? change(item) : item)));
      return true;
    },
    [commit],
  );

  // The owner set another value (a form reset, say): finished items it no longer lists go.
  useEffect(() => {
    if (valueKey === lastEmittedKey.current) {
      // The owner caught up: our older values can no longer come back as echoes.
      emittedKeys.current = new Set([valueKey]);
      return;
    }
    if (emittedKeys.current.has(valueKey)) return;
    emittedKeys.current = new Set([valueKey]);
    lastEmittedKey.current = valueKey;
    const wanted = new Set(valueKey === '' ? [] : valueKey.split('\n'));
    const kept = itemsRef.current.filter((item) => item.status !== 'finished' || (item.imageId !== null && wanted.has(item.imageId)));
    if (kept.length !== itemsRef.current.length) {
      itemsRef.current = kept;
      setItems(kept);
    }
  }, [valueKey]);

  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
      running.clear();
    };
  }, []);

  const start = useCallback(
    async (id: string) => {
      const item = itemsRef.current.find((candidate) => candidate.id === id);
      if (!item?.file) return;
      const controller = new AbortController();
      controllers.current.set(id, controller);
      try {
        let file = prepared.current.get(id);
        if (!file) {
          const canBeJpeg = isAccepted('image/jpeg', accept);
          file = downscaleTo !== false && canBeJpeg ? await downscaled(item.file, downscaleTo) : item.file;
          prepared.current.set(id, file);
        }
        if (!patchItem(id, (current) => ({ ...current, status: 'uploading', progress: 0, error: null }))) return;
        let answer: UploadAnswer | null;
        try {
          answer = await callbacks.current.upload(
            file,
            (fraction) => {
              if (controller.signal.aborted) return;
              const progress = Math.min(1, Math.max(0, fraction));
              patchItem(id, (current) => (current.status === 'uploading' ? { ...current, progress } : current));
            },
            controller.signal,
          );
        } catch (uploadError) {
          // An upload function should answer null rather than throw; either way nothing usable came back.
          console.error('The upload failed without an answer', uploadError);
          answer = null;
        }
        if (controller.signal.aborted) return;
        const current = itemsRef.current.find((candidate) => candidate.id === id);
        if (current) {
          const done = settleItem(current, answer, serverErrorText(intl));
          patchItem(id, () => done);
          // The row shows the outcome; screen readers hear it too, without a second visible copy.
          setAnnouncement(
            done.status === 'finished'
              ? finishedText !== undefined
                ? `${done.name}: ${finishedText}`
                : intl.formatMessage({ id: 'ui.upload.announce.finished', defaultMessage: '{name}: uploaded' }, { name: done.name })
              : intl.formatMessage({ id: 'ui.upload.announce.failed', defaultMessage: '{name}: {error}' }, { name: done.name, error: done.error }),
          );
        }
      } finally {
        if (controllers.current.get(id) === controller) controllers.current.delete(id);
      }
    },
    [accept, downscaleTo, finishedText, intl, patchItem],
  );

  const addFiles = useCallback(
    (offered: readonly File[]) => {
      if (disabled || offered.length === 0) return;
      const fitting = offered.filter((file) => isAccepted(file.type, accept));
      const refusedType = offered.find((file) => !isAccepted(file.type, accept));
      const room = max - itemsRef.current.length;
      if (room <= 0) {
        setNotice(
          intl.formatMessage(
            { id: 'ui.upload.full', defaultMessage: 'At most {max, plural, one {# file} other {# files}}: remove one to add another.' },
            { max },
          ),
        );
        return;
      }
      const taken = fitting.slice(0, room);
      const added: UploadItem[] = taken.map((file) => {
        nextId.current += 1;
        return {
          id: `${baseId}-${nextId.current}`,
          file,
          status: 'pending',
          name: file.name,
          imageId: null,
          imageLink: null,
          progress: 0,
          error: null,
        };
      });
      if (fitting.length > taken.length) {
        setNotice(
          intl.formatMessage(
            { id: 'ui.upload.cutOff', defaultMessage: 'Not every file was added: at most {max, plural, one {# file} other {# files}}.' },
            { max },
          ),
        );
      } else if (refusedType) {
        setNotice(
          intl.formatMessage(
            { id: 'ui.upload.wrongType', defaultMessage: '{name} was not added: only PNG and JPEG images can be uploaded.' },
            { name: refusedType.name },
          ),
        );
      } else {
        setNotice(null);
      }
      if (added.length === 0) return;
      commit([...itemsRef.current, ...added]);
      for (const item of added) void start(item.id);
    },
    [accept, baseId, commit, disabled, intl, max, start],
  );

  const remove = useCallback(
    (id: string) => {
      controllers.current.get(id)?.abort();
      controllers.current.delete(id);
      prepared.current.delete(id);
      commit(itemsRef.current.filter((item) => item.id !== id));
      setNotice(null);
      // The removed row took its buttons with it: keep the keyboard user in the field.
      inputRef.current?.focus();
    },
    [commit],
  );

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (disabled) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setIsDragging(true);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setIsDragging(false);
    addFiles(Array.from(event.dataTransfer.files));
  };

  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const isFull = items.length >= max;
  const describedBy = [hasError ? errorId : tipId, notice ? noticeId : ''].filter(Boolean).join(' ');
  const classes = [
    'field',
    'file-upload',
    hasError ? 'field--invalid' : '',
    disabled ? 'file-upload--disabled' : '',
    isDragging ? 'file-upload--dragging' : '',
    items.length > 0 ? 'file-upload--filled' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={classes} data-field={name} data-count={items.length}>
      <span className="field__label" id={labelId}>
        {label}
        {required && <span className="field__required" aria-hidden="true" />}
      </span>
      <div
        className="file-upload__zone"
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={() => setIsDragging(false)}
        onDrop={onDrop}
      >
        <div className="file-upload__picker">
          {/* The real file input: focusable and operable by keyboard (Enter or Space opens the picker);
              the label beside it is what the eye sees as the button. */}
          <input
            ref={inputRef}
            id={inputId}
            className="file-upload__input"
            type="file"
            multiple={max > 1}
            accept={accept.join(',')}
            disabled={disabled}
            aria-labelledby={`${labelId} ${actionId}`}
            aria-describedby={describedBy}
            aria-invalid={hasError || undefined}
            aria-required={required || undefined}
            onChange={(event) => {
              const files = Array.from(event.currentTarget.files ?? []);
              // Cleared so that picking the same file again (after removing it) fires a change.
              event.currentTarget.value = '';
              addFiles(files);
            }}
          />
          <label htmlFor={inputId} id={actionId} className="button button--secondary file-upload__button">
            <svg className="file-upload__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M12 16V4m0 0-4.5 4.5M12 4l4.5 4.5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            {intl.formatMessage({ id: 'ui.upload.add', defaultMessage: 'Add photo' })}
          </label>
          <span className="file-upload__drop-hint" aria-hidden="true">
            {intl.formatMessage({ id: 'ui.upload.drop', defaultMessage: 'or drop it here' })}
          </span>
          <span className="file-upload__count" data-full={isFull || undefined}>
            {intl.formatMessage({ id: 'ui.upload.count', defaultMessage: '{count} of {max}' }, { count: items.length, max })}
          </span>
        </div>

        {items.length > 0 && (
          <ul className="file-upload__list" aria-label={intl.formatMessage({ id: 'ui.upload.list', defaultMessage: 'Added files' })}>
            {items.map((item) => (
              <FileRow key={item.id} item={item} loadImage={loadImage} disabled={disabled} onRetry={(id) => void start(id)} onRemove={remove} finishedText={finishedText} />
            ))}
          </ul>
        )}
      </div>

      {hasError ? (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      ) : (
        <p className="field__tip" id={tipId}>
          {tip ??
            intl.formatMessage(
              { id: 'ui.upload.tip', defaultMessage: 'PNG or JPEG, at most {max, plural, one {# file} other {# files}}' },
              { max },
            )}
        </p>
      )}
      <p className="file-upload__notice" id={noticeId} role="status" aria-live="polite">
        {notice}
      </p>
      <span className="file-upload__announcement" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}

interface FileRowProps {
  item: UploadItem;
  loadImage: LoadImageFn | undefined;
  disabled: boolean;
  onRetry: (id: string) => void;
  onRemove: (id: string) => void;
  finishedText: string | undefined;
}

function FileRow({ item, loadImage, disabled, onRetry, onRemove, finishedText }: FileRowProps) {
  const intl = useIntl();
  const stateId = useId();
  const percent = Math.round(item.progress * 100);
  return (
    <li
      className={`file-upload__item file-upload__item--${item.status}`}
      data-status={item.status}
      data-image-id={item.imageId ?? undefined}
    >
      <Thumbnail imageLink={item.status === 'finished' ? item.imageLink : null} loadImage={loadImage} />
      <div className="file-upload__body">
        <span className="file-upload__name" title={item.name}>
          {item.name}
        </span>
        <span className="file-upload__state" id={stateId}>
          {statusText(intl, item, finishedText)}
        </span>
        {item.status === 'uploading' && (
          <progress
            className="file-upload__progress"
            max={100}
            value={percent}
            aria-label={intl.formatMessage({ id: 'ui.upload.progress', defaultMessage: 'Uploading {name}' }, { name: item.name })}
          />
        )}
      </div>
      <div className="file-upload__actions">
        {item.status === 'error' && item.file && (
          <button
            type="button"
            className="file-upload__action"
            data-action="retry"
            disabled={disabled}
            aria-label={intl.formatMessage({ id: 'ui.upload.retry', defaultMessage: 'Retry uploading {name}' }, { name: item.name })}
            title={intl.formatMessage({ id: 'ui.upload.retryShort', defaultMessage: 'Retry' })}
            onClick={() => onRetry(item.id)}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M20 12a8 8 0 1 1-2.34-5.66M20 4v4.5h-4.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
        )}
        <button
          type="button"
          className="file-upload__action file-upload__action--remove"
          data-action="remove"
          disabled={disabled}
          aria-label={intl.formatMessage({ id: 'ui.upload.remove', defaultMessage: 'Remove {name}' }, { name: item.name })}
          title={intl.formatMessage({ id: 'ui.upload.removeShort', defaultMessage: 'Remove' })}
          onClick={() => onRemove(item.id)}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M6 6l12 12M18 6 6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
    </li>
  );
}

/** The picture of a finished upload, fetched through `loadImage`; a failure is only logged (spec section 8). */
function Thumbnail({ imageLink, loadImage }: { imageLink: string | null; loadImage: LoadImageFn | undefined }) {
  const [loaded, setLoaded] = useState<{ link: string; src: string } | null>(null);

  useEffect(() => {
    if (!imageLink || !loadImage) return;
    let isCurrent = true;
    let created: string | null = null;
    loadImage(imageLink).then(
      (src) => {
        created = src;
        if (isCurrent) setLoaded({ link: imageLink, src });
        else revoke(src);
      },
      // The loader logs its failures (spec section 8); the placeholder simply stays.
      (loadError: unknown) => console.debug('No thumbnail for', imageLink, loadError),
    );
    return () => {
      isCurrent = false;
      if (created) revoke(created);
    };
  }, [imageLink, loadImage]);

  const src = loaded && loaded.link === imageLink ? loaded.src : null;
  return (
    <span className="file-upload__thumb" aria-hidden="true">
      {src ? (
        <img className="file-upload__image" src={src} alt="" />
      ) : (
        <svg className="file-upload__placeholder" viewBox="0 0 24 24" width="24" height="24" focusable="false">
          <path d="M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
        </svg>
      )}
    </span>
  );
}

function revoke(url: string): void {
  if (url.startsWith('blob:') && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
}

import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { FileUpload, finishedIds, isAccepted, settleItem, type FileUploadProps } from './file-upload';
import type { UploadAnswer, UploadFn, UploadItem } from './types';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

interface PendingUpload {
  file: File;
  onProgress: (fraction: number) => void;
  signal: AbortSignal | undefined;
  resolve: (answer: UploadAnswer | null) => void;
}

/** An upload prop whose calls wait until the test answers them, one by one. */
function controlledUpload() {
  const calls: PendingUpload[] = [];
  const upload = vi.fn<UploadFn>(
    (file, onProgress, signal) =>
      new Promise<UploadAnswer | null>((resolve) => {
        calls.push({ file, onProgress, signal, resolve });
      }),
  );
  return { upload, calls };
}

/** Answers one pending upload and lets the field settle. */
async function answer(call: PendingUpload | undefined, value: UploadAnswer | null): Promise<void> {
  if (!call) throw new Error('no such upload call');
  await act(async () => {
    call.resolve(value);
    await Promise.resolve();
  });
}

const ok = (imageId: string, name = `${imageId}.png`): UploadAnswer => ({
  status: 200,
  message: 'OK',
  data: { imageId, imageLink: `/main-service/api/v1/uploads/${imageId}.png`, name },
});

function png(name: string): File {
  return new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });
}

type HarnessProps = Partial<FileUploadProps> & Pick<FileUploadProps, 'upload'> & { locale?: 'en' | 'ru'; onValue?: (ids: string[]) => void };

/** The field in a form that keeps its value, as a feature would use it. */
function Field({ onValue, ...props }: Omit<HarnessProps, 'locale'>) {
  const [value, setValue] = useState<string[]>([]);
  return (
    <>
      <FileUpload
        label="Photos"
        name="photos"
        value={value}
        onChange={(ids) => {
          setValue(ids);
          onValue?.(ids);
        }}
        downscaleTo={false}
        {...props}
      />
      <div data-testid="value">{value.join(',')}</div>
    </>
  );
}

function renderField({ locale = 'en', ...props }: HarnessProps) {
  // No pause between user-event's steps: they would wait on real timers, late on a busy machine.
  const user = userEvent.setup({ applyAccept: false, delay: null });
  const view = render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru} defaultLocale="en">
      <Field {...props} />
    </IntlProvider>,
  );
  const input = () => screen.getByLabelText<HTMLInputElement>(/Photos/, { selector: 'input[type="file"]' });
  return { user, input, view };
}

const rows = () => screen.queryAllByRole('listitem');
const valueShown = () => screen.getByTestId('value').textContent;

describe('FileUpload: what it accepts', () => {
  it('has a real file input labelled by the field label and its button, taking PNG and JPEG by default', () => {
    const { input } = renderField({ upload: controlledUpload().upload });
    expect(input().type).toBe('file');
    expect(input().accept).toBe('image/png,image/jpeg');
    expect(input().multiple).toBe(true);
    expect(screen.getByLabelText('Photos Add photo')).toBe(input());
    expect(screen.getByText('PNG or JPEG, at most 3 files')).toBeTruthy();
  });

  it('takes at most 3 files: extras offered at once are cut off and said so', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png'), png('b.png'), png('c.png'), png('d.png'), png('e.png')]);
    expect(rows()).toHaveLength(3);
    expect(rows().map((row) => within(row).getByTitle(/\.png$/).textContent)).toEqual(['a.png', 'b.png', 'c.png']);
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(screen.getByRole('status').textContent).toBe('Not every file was added: at most 3 files.');
    expect(screen.getByText('3 of 3')).toBeTruthy();
  });

  it('adds nothing when full, and tells why', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png'), png('b.png'), png('c.png')]);
    await waitFor(() => expect(calls).toHaveLength(3));
    await user.upload(input(), [png('d.png')]);
    expect(rows()).toHaveLength(3);
    expect(upload).toHaveBeenCalledTimes(3);
    expect(screen.getByRole('status').textContent).toBe('At most 3 files: remove one to add another.');
  });

  it('follows the max prop', async () => {
    const { upload } = controlledUpload();
    const { user, input } = renderField({ upload, max: 1 });
    expect(input().multiple).toBe(false);
    await user.upload(input(), [png('a.png'), png('b.png')]);
    expect(rows()).toHaveLength(1);
  });

  it('refuses a file of a type it does not accept (a drop brings anything)', async () => {
    const { upload } = controlledUpload();
    const { input } = renderField({ upload });
    const zone = input().closest('.file-upload__zone')!;
    fireEvent.drop(zone, { dataTransfer: { files: [new File(['hi'], 'notes.txt', { type: 'text/plain' }), png('a.png')] } });
    await waitFor(() => expect(upload).toHaveBeenCalledTimes(1));
    expect(rows()).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toBe('notes.txt was not added: only PNG and JPEG images can be uploaded.');
  });

  it('takes files dropped on it', async () => {
    const { upload } = controlledUpload();
    const { input } = renderField({ upload });
    const zone = input().closest('.file-upload__zone')!;
    fireEvent.dragOver(zone, { dataTransfer: { files: [], dropEffect: 'none' } });
    expect(input().closest('.file-upload')!.classList.contains('file-upload--dragging')).toBe(true);
    fireEvent.drop(zone, { dataTransfer: { files: [png('dropped.png')] } });
    await waitFor(() => expect(upload).toHaveBeenCalledWith(expect.objectContaining({ name: 'dropped.png' }), expect.any(Function), expect.any(AbortSignal)));
  });

  it('matches accept patterns exactly or by wildcard', () => {
    expect(isAccepted('image/png', ['image/png', 'image/jpeg'])).toBe(true);
    expect(isAccepted('image/gif', ['image/png', 'image/jpeg'])).toBe(false);
    expect(isAccepted('image/gif', ['image/*'])).toBe(true);
    expect(isAccepted('', ['image/*'])).toBe(false);
  });
});

describe('FileUpload: the field value', () => {
  it('gives only finished items their imageId, in the order the files were added', async () => {
    const { upload, calls } = controlledUpload();
    const onValue = vi.fn();
    const { user, input } = renderField({ upload, onValue });
    await user.upload(input(), [png('a.png'), png('b.png'), png('c.png')]);
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(onValue).not.toHaveBeenCalled();

    await answer(calls[1], ok('id-b'));
    expect(valueShown()).toBe('id-b');
    await answer(calls[0], ok('id-a'));
    await answer(calls[2], null);
    expect(valueShown()).toBe('id-a,id-b');
    expect(onValue).toHaveBeenLastCalledWith(['id-a', 'id-b']);
    expect(rows().map((row) => row.dataset.status)).toEqual(['finished', 'finished', 'error']);
  });

  it('says what the owner asks for a finished item when its upload only keeps the file for later', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload, finishedText: 'Ready: sent with the proposal' });
    await user.upload(input(), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await answer(calls[0], ok('id-a'));
    expect(rows()[0]!.textContent).toContain('Ready: sent with the proposal');
    expect(rows()[0]!.textContent).not.toContain('Uploaded');
  });

  it('accepts an answer only with status 200', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await answer(calls[0], { status: 201, message: 'Created', data: { imageId: 'x', imageLink: '/x' } });
    expect(rows()[0]!.dataset.status).toBe('error');
    expect(valueShown()).toBe('');
  });

  it('drops finished items the owner removed from the value (a form reset)', async () => {
    function Resettable({ upload }: { upload: UploadFn }) {
      const [value, setValue] = useState<string[]>([]);
      return (
        <IntlProvider locale="en" messages={en}>
          <FileUpload label="Photos" name="photos" value={value} onChange={setValue} upload={upload} downscaleTo={false} />
          <button type="button" onClick={() => setValue([])}>
            Reset
          </button>
        </IntlProvider>
      );
    }
    const { upload, calls } = controlledUpload();
    const user = userEvent.setup({ delay: null });
    render(<Resettable upload={upload} />);
    await user.upload(screen.getByLabelText(/Photos/, { selector: 'input' }), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await answer(calls[0], ok('id-a'));
    expect(rows()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(rows()).toHaveLength(0);
  });

  it('shows images given as already uploaded as finished items', async () => {
    const loadImage = vi.fn(() => Promise.resolve('blob:thumb-old'));
    renderField({ upload: controlledUpload().upload, loadImage, initialImages: [{ imageId: 'old', imageLink: '/main-service/api/v1/uploads/old.png', name: 'old.png' }] });
    expect(rows()[0]!.dataset.status).toBe('finished');
    expect(rows()[0]!.dataset.imageId).toBe('old');
    await waitFor(() => expect(rows()[0]!.querySelector('img')?.getAttribute('src')).toBe('blob:thumb-old'));
  });

  it('settles an item: finished with the data of a 200, an error with the server message otherwise', () => {
    const item: UploadItem = { id: '1', file: null, status: 'uploading', name: 'a.png', imageId: null, imageLink: null, progress: 0.5, error: null };
    expect(settleItem(item, ok('x'), 'fallback')).toMatchObject({ status: 'finished', imageId: 'x', progress: 1 });
    expect(settleItem(item, null, 'fallback')).toMatchObject({ status: 'error', error: 'fallback' });
    expect(settleItem(item, { status: 413, message: 'Too big' }, 'fallback')).toMatchObject({ status: 'error', error: 'Too big' });
    expect(settleItem(item, { status: 500, message: '' }, 'fallback')).toMatchObject({ status: 'error', error: 'fallback' });
    expect(settleItem(item, { status: 200, message: 'OK', data: null }, 'fallback')).toMatchObject({ status: 'error', error: 'fallback' });
    expect(finishedIds([item, { ...item, status: 'finished', imageId: 'y' }])).toEqual(['y']);
  });
});

describe('FileUpload: progress, errors, retry and remove', () => {
  it('shows progress while uploading', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    act(() => calls[0]!.onProgress(0.45));
    const bar = screen.getByRole('progressbar', { name: 'Uploading a.png' });
    expect(bar.getAttribute('value')).toBe('45');
    expect(screen.getByText('Uploading… 45%')).toBeTruthy();
    await answer(calls[0], ok('id-a'));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Uploaded')).toBeTruthy();
    // Told to screen readers, not shown twice.
    expect(document.querySelector('.file-upload__announcement[aria-live="polite"]')?.textContent).toBe('a.png: uploaded');
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it("says 'Server error. Try again later' when nothing answered", async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await answer(calls[0], null);
    expect(within(rows()[0]!).getByText('Server error. Try again later')).toBeTruthy();
  });

  it("shows the server's message for a non-200 answer", async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await answer(calls[0], { status: 413, message: 'The file is too large: at most 10 MB.' });
    expect(within(rows()[0]!).getByText('The file is too large: at most 10 MB.')).toBeTruthy();
  });

  it('treats an upload function that throws like no answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const upload = vi.fn<UploadFn>(() => Promise.reject(new Error('boom')));
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png')]);
    expect(await screen.findByText('Server error. Try again later')).toBeTruthy();
  });

  it('retries a failed item with the same file, by keyboard', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await answer(calls[0], null);

    const retry = screen.getByRole('button', { name: 'Retry uploading a.png' });
    retry.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.file).toBe(calls[0]!.file);
    expect(rows()[0]!.dataset.status).toBe('uploading');
    await answer(calls[1], ok('id-a'));
    expect(valueShown()).toBe('id-a');
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
  });

  it('removes a finished item from the list and the value, and keeps focus in the field', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png'), png('b.png')]);
    await waitFor(() => expect(calls).toHaveLength(2));
    await answer(calls[0], ok('id-a'));
    await answer(calls[1], ok('id-b'));
    expect(valueShown()).toBe('id-a,id-b');

    await user.click(screen.getByRole('button', { name: 'Remove a.png' }));
    expect(rows()).toHaveLength(1);
    expect(valueShown()).toBe('id-b');
    expect(document.activeElement).toBe(input());
  });

  it('abandons an upload removed while it runs: its late answer changes nothing', async () => {
    const { upload, calls } = controlledUpload();
    const onValue = vi.fn();
    const { user, input } = renderField({ upload, onValue });
    await user.upload(input(), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Remove a.png' }));
    expect(calls[0]!.signal?.aborted).toBe(true);
    await answer(calls[0], ok('late'));
    expect(rows()).toHaveLength(0);
    expect(onValue).not.toHaveBeenCalled();
  });

  it('makes room again after a remove', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png'), png('b.png'), png('c.png')]);
    await waitFor(() => expect(calls).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Remove b.png' }));
    await user.upload(input(), [png('d.png')]);
    expect(rows()).toHaveLength(3);
    await waitFor(() => expect(calls).toHaveLength(4));
  });

  it('shows a thumbnail of a finished upload loaded through loadImage', async () => {
    const { upload, calls } = controlledUpload();
    const loadImage = vi.fn((link: string) => Promise.resolve(`blob:${link}`));
    const { user, input } = renderField({ upload, loadImage });
    await user.upload(input(), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(loadImage).not.toHaveBeenCalled();
    await answer(calls[0], ok('id-a'));
    expect(loadImage).toHaveBeenCalledWith('/main-service/api/v1/uploads/id-a.png');
    await waitFor(() => expect(rows()[0]!.querySelector('img')?.getAttribute('src')).toBe('blob:/main-service/api/v1/uploads/id-a.png'));
  });

  it('keeps the placeholder when a thumbnail cannot be loaded', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const loadImage = vi.fn(() => Promise.reject(new Error('offline')));
    renderField({ upload: controlledUpload().upload, loadImage, initialImages: [{ imageId: 'old', imageLink: '/old.png', name: 'old.png' }] });
    await waitFor(() => expect(loadImage).toHaveBeenCalled());
    expect(rows()[0]!.querySelector('img')).toBeNull();
    expect(rows()[0]!.querySelector('svg')).not.toBeNull();
  });
});

describe('FileUpload: keyboard, states and languages', () => {
  it('is reached by Tab: the file input first, then each row’s buttons', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload });
    await user.upload(input(), [png('a.png')]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await answer(calls[0], null);
    (document.activeElement as HTMLElement | null)?.blur();
    await user.tab();
    expect(document.activeElement).toBe(input());
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Retry uploading a.png' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove a.png' }));
    await user.keyboard(' ');
    expect(rows()).toHaveLength(0);
  });

  it('shows an error as invalid, and a disabled field takes nothing', () => {
    const { upload } = controlledUpload();
    const { input, view } = renderField({ upload, error: 'Add at least one photo' });
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Add at least one photo');
    expect(input().getAttribute('aria-describedby')).toContain(screen.getByRole('alert').id);
    view.unmount();

    const disabled = renderField({ upload, disabled: true });
    expect(disabled.input().disabled).toBe(true);
    fireEvent.drop(disabled.input().closest('.file-upload__zone')!, { dataTransfer: { files: [png('a.png')] } });
    expect(rows()).toHaveLength(0);
    expect(upload).not.toHaveBeenCalled();
  });

  it('speaks Russian: button, tip, states and the server error text', async () => {
    const { upload, calls } = controlledUpload();
    const { user, input } = renderField({ upload, locale: 'ru' });
    expect(screen.getByText('Добавить фото')).toBeTruthy();
    expect(screen.getByText('PNG или JPEG, не более 3 файлов')).toBeTruthy();
    await user.upload(input(), [png('a.png'), png('b.png')]);
    await waitFor(() => expect(calls).toHaveLength(2));
    act(() => calls[0]!.onProgress(0.5));
    expect(screen.getByText(/^Загрузка… 50\s?%$/)).toBeTruthy();
    await answer(calls[0], ok('id-a'));
    await answer(calls[1], null);
    expect(screen.getByText('Загружено')).toBeTruthy();
    expect(screen.getByText('Ошибка сервера. Попробуйте позже')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Удалить файл a.png' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Повторить загрузку файла b.png' })).toBeTruthy();
  });
});

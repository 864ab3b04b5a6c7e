// The file upload in a real browser against the real main-service (signed in as the demo employee):
// three images go up and come back as thumbnails, a fourth is refused, the field's value is the three
// imageIds, and a large photo is downscaled on the device before it leaves.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKit, type OpenedKit } from './kit/harness';
import { ROOT_DIR } from './support/server';
import { waitUntil } from './support/wait';

interface ImageFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Draws an image in the page and returns its bytes: PNG or JPEG, noisy so it does not compress away. */
async function drawImage(page: Page, name: string, type: 'image/png' | 'image/jpeg', width: number, height: number): Promise<ImageFile> {
  const base64 = await page.evaluate(
    async ({ type, width, height }) => {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d')!;
      const gradient = context.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, '#2563eb');
      gradient.addColorStop(1, '#f59e0b');
      context.fillStyle = gradient;
      context.fillRect(0, 0, width, height);
      for (let i = 0; i < 4000; i += 1) {
        context.fillStyle = `hsl(${(i * 37) % 360} 70% 50%)`;
        context.fillRect((i * 7919) % width, (i * 104729) % height, 12, 12);
      }
      const blob = await canvas.convertToBlob({ type, quality: 0.98 });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    },
    { type, width, height },
  );
  return { name, mimeType: type, buffer: Buffer.from(base64, 'base64') };
}

/** Width, height and type of an uploaded image, fetched the way the app does: with the bearer token. */
async function uploadedImage(page: Page, imageId: string): Promise<{ width: number; height: number; type: string; status: number }> {
  return page.evaluate(async (id) => {
    const response = await fetch(`/main-service/api/v1/uploads/${id}`, {
      headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}` },
    });
    const bitmap = await createImageBitmap(await response.blob());
    return { width: bitmap.width, height: bitmap.height, type: response.headers.get('content-type') ?? '', status: response.status };
  }, imageId);
}

describe('the file upload field (kit, signed in)', () => {
  let kit: OpenedKit;
  let field: Locator;
  let items: Locator;

  beforeAll(async () => {
    kit = await openKit({ signedIn: true, locale: 'en', viewport: { width: 800, height: 1000 } });
    field = kit.page.locator('[data-kit="file-upload"] [data-field="photos"]');
    items = field.locator('.file-upload__item');
    await field.waitFor();
  });

  afterAll(async () => {
    await kit?.close();
  });

  it('uploads three images, shows them finished with thumbnails, and refuses a fourth', async () => {
    const { page } = kit;
    const files = [
      await drawImage(page, 'small.png', 'image/png', 120, 90),
      await drawImage(page, 'small.jpg', 'image/jpeg', 160, 120),
      await drawImage(page, 'big-photo.jpg', 'image/jpeg', 2400, 1800),
    ];
    const input = field.locator('input[type="file"]');
    await input.setInputFiles(files);

    await waitUntil(async () => (await field.locator('.file-upload__item[data-status="finished"]').count()) === 3, {
      timeoutMs: 30_000,
      message: `three finished uploads (${(await field.textContent()) ?? ''})`,
    });
    expect(await items.locator('.file-upload__name').allTextContents()).toEqual(['small.png', 'small.jpg', 'big-photo.jpg']);
    expect(await field.getByText('Uploaded', { exact: true }).count()).toBe(3);

    // Thumbnails: object URLs of the images fetched with the bearer token, decoded by the browser.
    await waitUntil(
      async () =>
        (await items.locator('img').evaluateAll((images) =>
          images.filter((img) => (img as HTMLImageElement).src.startsWith('blob:') && (img as HTMLImageElement).naturalWidth > 0).length,
        )) === 3,
      { message: 'three loaded thumbnails' },
    );

    const ids = await items.evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.imageId ?? ''));
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id))).toBe(true);
    const value = page.locator('[data-kit-value="file-upload"]');
    expect(await value.textContent()).toBe(ids.join(', '));

    // The fourth: nothing added, the field says why, the value stays.
    await input.setInputFiles([await drawImage(page, 'fourth.png', 'image/png', 50, 50)]);
    await field.getByText('At most 3 files: remove one to add another.').waitFor();
    expect(await items.count()).toBe(3);
    expect(await value.textContent()).toBe(ids.join(', '));

    // The large photo left the device downscaled: long side 1600 px, still a JPEG.
    expect(await uploadedImage(page, ids[2]!)).toEqual({ width: 1600, height: 1200, type: 'image/jpeg', status: 200 });
    // A small one went as it was.
    expect(await uploadedImage(page, ids[0]!)).toEqual({ width: 120, height: 90, type: 'image/png', status: 200 });

    await mkdir(join(ROOT_DIR, 'tests/.artifacts'), { recursive: true });
    await page.locator('[data-kit="file-upload"]').screenshot({ path: join(ROOT_DIR, 'tests/.artifacts/kit-file-upload-800.png') });
  });

  it('removes an image by keyboard, which takes its id out of the value and makes room again', async () => {
    const { page } = kit;
    const remove = field.getByRole('button', { name: 'Remove small.jpg' });
    await remove.focus();
    await page.keyboard.press('Enter');
    await waitUntil(async () => (await items.count()) === 2, { message: 'two items left' });
    const ids = await items.evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.imageId ?? ''));
    expect(await page.locator('[data-kit-value="file-upload"]').textContent()).toBe(ids.join(', '));
    // Focus stays in the field, on the file input, so the keyboard user can add another at once.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('file');
    expect(await field.locator('.file-upload__count').textContent()).toBe('2 of 3');
  });

  it('shows the server error for uploads nobody answers, and fits a 360 px phone in Russian', async () => {
    const { page } = kit;
    await page.locator('[data-locale="ru"]').click();
    const failing = page.locator('[data-field="failingPhotos"]');
    await failing.getByText('Добавить фото').waitFor();
    await failing.locator('input[type="file"]').setInputFiles([await drawImage(page, 'снимок.png', 'image/png', 80, 60)]);
    await failing.locator('.file-upload__item[data-status="error"] .file-upload__state', { hasText: 'Ошибка сервера. Попробуйте позже' }).waitFor();
    expect(await failing.getByRole('button', { name: 'Повторить загрузку файла снимок.png' }).count()).toBe(1);

    await page.setViewportSize({ width: 360, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.locator('[data-kit="file-upload"]').screenshot({ path: join(ROOT_DIR, 'tests/.artifacts/kit-file-upload-360.png') });
  });
});

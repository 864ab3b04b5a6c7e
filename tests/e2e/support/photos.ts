// Test photos made in Node, the same bytes for every engine: PNGs of coloured noise in blocks (so they do not
// compress to nothing), written to disk so each driver can hand them to a file input its own way. A photo
// wider than 1600 px is downscaled and re-encoded on the device (src/ui/file-upload/downscale.ts); smaller
// ones are stored as they are.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

export interface PhotoOnDisk {
  path: string;
  name: string;
  type: 'image/png';
  sha256: string;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * An RGB PNG of `width`×`height` from `seed`: 16 px blocks of pseudo-random colour ('blocks', compresses
 * well), or a smooth gradient with fine grain, like a camera's shot ('camera': large as a PNG, small as a
 * JPEG, so the device's downscaling pays off and is used).
 */
export function noisePng(width: number, height: number, seed: number, style: 'blocks' | 'camera' = 'blocks'): Buffer {
  let state = seed >>> 0 || 1;
  const next = () => {
    // xorshift32: deterministic, so a photo is the same bytes in every run.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  const blocksX = Math.ceil(width / 16);
  const blocksY = Math.ceil(height / 16);
  const colours = Array.from({ length: blocksX * blocksY }, () => next());
  const rowBytes = width * 3 + 1;
  const raw = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y += 1) {
    raw[y * rowBytes] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const offset = y * rowBytes + 1 + x * 3;
      if (style === 'camera') {
        const grain = next();
        raw[offset] = Math.min(255, Math.floor((x / width) * 200) + (grain & 0x1f));
        raw[offset + 1] = Math.min(255, Math.floor((y / height) * 200) + ((grain >>> 8) & 0x1f));
        raw[offset + 2] = Math.min(255, 120 + ((grain >>> 16) & 0x1f));
        continue;
      }
      const colour = colours[Math.floor(y / 16) * blocksX + Math.floor(x / 16)] ?? 0;
      raw[offset] = colour & 0xff;
      raw[offset + 1] = (colour >>> 8) & 0xff;
      raw[offset + 2] = (colour >>> 16) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Three photos in `dir`: one camera-sized (downscaled on the device) and two small ones. */
export async function writeTestPhotos(dir: string): Promise<PhotoOnDisk[]> {
  const specs = [
    { name: 'camera-shot.png', width: 1800, height: 1350, seed: 11, style: 'camera' as const },
    { name: 'scheme.png', width: 640, height: 480, seed: 22, style: 'blocks' as const },
    { name: 'detail.png', width: 800, height: 600, seed: 33, style: 'blocks' as const },
  ];
  const photos: PhotoOnDisk[] = [];
  for (const spec of specs) {
    const bytes = noisePng(spec.width, spec.height, spec.seed, spec.style);
    const path = join(dir, spec.name);
    await writeFile(path, bytes);
    photos.push({ path, name: spec.name, type: 'image/png', sha256: sha256(bytes) });
  }
  return photos;
}

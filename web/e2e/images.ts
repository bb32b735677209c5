import type { Album, Photo } from '@hoptrack/proto';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { RegisteredUser, UploadFile } from './support';

/**
 * Real images for the browser tests: the media service decodes and
 * re-encodes every upload, so a test file must be a genuine PNG or JPEG.
 * The format follows the name's extension.
 */
export interface TestImageOptions {
  background: string;
  width?: number;
  height?: number;
  /** What is drawn on the background: nothing, a foam-coloured disc, or a pint glass (for screenshots). */
  motif?: 'none' | 'disc' | 'pint';
}

function motifSvg(motif: TestImageOptions['motif'], width: number, height: number): Buffer | null {
  if (motif === 'disc') {
    return Buffer.from(
      `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#fde68a"/></svg>`,
    );
  }
  if (motif === 'pint') {
    return Buffer.from(
      `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">
        <rect x="${width * 0.38}" y="${height * 0.3}" width="${width * 0.24}" height="${height * 0.55}" rx="${width * 0.02}" fill="#d97706"/>
        <rect x="${width * 0.38}" y="${height * 0.22}" width="${width * 0.24}" height="${height * 0.1}" rx="${width * 0.03}" fill="#fef3c7"/>
        <circle cx="${width * 0.2}" cy="${height * 0.25}" r="${Math.min(width, height) * 0.08}" fill="#fde68a" opacity="0.6"/>
      </svg>`,
    );
  }
  return null;
}

export async function testImage(name: string, { background, width = 64, height = 48, motif = 'none' }: TestImageOptions): Promise<UploadFile> {
  const jpeg = /\.jpe?g$/i.test(name);
  const overlay = motifSvg(motif, width, height);
  let canvas = sharp({ create: { width, height, channels: 3, background } });
  if (overlay) canvas = canvas.composite([{ input: overlay }]);
  const buffer = jpeg ? await canvas.jpeg({ quality: 80 }).toBuffer() : await canvas.png().toBuffer();
  return { name, mimeType: jpeg ? 'image/jpeg' : 'image/png', buffer };
}

/** Uploads `files` into `album` as `user` (POST /api/albums/{id}/photos, multipart), as the Add Photos dialog does. */
export async function uploadPhotosViaApi(baseUrl: string, user: RegisteredUser, album: Pick<Album, 'id'>, files: UploadFile[]): Promise<Photo[]> {
  const form = new FormData();
  for (const file of files) form.append('photos', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  const res = await fetch(`${baseUrl}/api/albums/${album.id}/photos`, { method: 'POST', headers: { Authorization: `Bearer ${user.token}` }, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Photo[];
}

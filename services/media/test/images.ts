import { deflateSync, crc32 } from 'node:zlib';
import sharp from 'sharp';

/** A real JPEG carrying EXIF with GPS coordinates and a camera model: what a phone uploads. */
export function jpegWithGps(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 20 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Pocket 9' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 0/1' },
    })
    // Taken with the phone on its side: the pixels are landscape, EXIF says rotate 90°.
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

export function png(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: '#ffcc00' } }).png().toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A few hundred bytes that claim to be a huge PNG (100,000 × 100,000: decoding it would need 40 GB). */
export function decompressionBomb(side = 100_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');

/** An HTML page with a script, named and typed as a JPEG: a browser sniffing it would run the script. */
export const HTML_AS_JPEG = Buffer.from('<!doctype html><html><body><script>fetch("/api/me")</script></body></html>');

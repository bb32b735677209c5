import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * A STORE-only zip writer (no compression: photos are compressed already,
 * and the JSON is small beside them). Each entry's size is declared up front
 * and its bytes are loaded one entry at a time, so the archive streams with
 * at most one entry in memory, and its exact length is known before the first
 * byte (zipSize), which lets the S3 upload be sized. Names are UTF-8 (general
 * purpose bit 11); dates are DOS dates in UTC. ZIP64 records are written only
 * when needed (an offset past 4 GiB, more than 65,535 entries), or always
 * with `zip64: true` (tests).
 */
export interface ZipEntry {
  /** The path inside the archive ('/'-separated, relative). */
  name: string;
  /** Bytes the entry holds: load() must return exactly this many. */
  size: number;
  modified: Date;
  load(): Promise<Buffer>;
}

export interface ZipOptions {
  /** Write the ZIP64 records even when the archive does not need them. */
  zip64?: boolean;
}

const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const END_RECORD = 22;
const ZIP64_END_RECORD = 56;
const ZIP64_LOCATOR = 20;
/** The zip64 extra field of a central header: id, length, the 8-byte offset. */
const ZIP64_OFFSET_EXTRA = 12;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;
const FLAG_UTF8 = 0x0800;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** Unix (3) in the high byte: the external attributes carry a Unix mode. */
const MADE_BY = (3 << 8) | VERSION_ZIP64;
/** A regular file, rw-r--r--. */
const EXTERNAL_ATTRIBUTES = (0o100644 << 16) >>> 0;

interface Placed {
  name: Buffer;
  size: number;
  offset: number;
  crc: number;
  time: number;
  date: number;
}

function checkEntry(name: Buffer, size: number): void {
  if (name.length === 0 || name.length > MAX_16) throw new Error(`zip entry name must be 1 to ${MAX_16} bytes`);
  if (!Number.isSafeInteger(size) || size < 0 || size >= MAX_32) throw new Error(`zip entry ${name.toString()} has an unsupported size ${size}`);
}

const needsZip64Offset = (offset: number, forced: boolean) => forced || offset >= MAX_32;

/** DOS time and date (2-second resolution, 1980–2107), in UTC. */
export function dosDateTime(at: Date): { time: number; date: number } {
  const d = at.getUTCFullYear() < 1980 ? new Date(Date.UTC(1980, 0, 1)) : at.getUTCFullYear() > 2107 ? new Date(Date.UTC(2107, 11, 31, 23, 59, 58)) : at;
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** The exact length of the archive zipStream writes for these entries. */
export function zipSize(entries: ReadonlyArray<Pick<ZipEntry, 'name' | 'size'>>, options: ZipOptions = {}): number {
  const forced = options.zip64 === true;
  let offset = 0;
  let central = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    checkEntry(name, entry.size);
    central += CENTRAL_HEADER + name.length + (needsZip64Offset(offset, forced) ? ZIP64_OFFSET_EXTRA : 0);
    offset += LOCAL_HEADER + name.length + entry.size;
  }
  return offset + central + endSize(entries.length, offset, central, forced);
}

function endSize(count: number, centralOffset: number, centralSize: number, forced: boolean): number {
  return (needsZip64End(count, centralOffset, centralSize, forced) ? ZIP64_END_RECORD + ZIP64_LOCATOR : 0) + END_RECORD;
}

const needsZip64End = (count: number, centralOffset: number, centralSize: number, forced: boolean) =>
  forced || count >= MAX_16 || centralOffset >= MAX_32 || centralSize >= MAX_32;

function localHeader(entry: Placed): Buffer {
  const header = Buffer.alloc(LOCAL_HEADER);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION_DEFAULT, 4);
  header.writeUInt16LE(FLAG_UTF8, 6);
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt16LE(entry.time, 10);
  header.writeUInt16LE(entry.date, 12);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.size, 18);
  header.writeUInt32LE(entry.size, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, entry.name]);
}

function centralHeader(entry: Placed, forced: boolean): Buffer {
  const zip64 = needsZip64Offset(entry.offset, forced);
  const header = Buffer.alloc(CENTRAL_HEADER);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY, 4);
  header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
  header.writeUInt16LE(FLAG_UTF8, 8);
  header.writeUInt16LE(0, 10);
  header.writeUInt16LE(entry.time, 12);
  header.writeUInt16LE(entry.date, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.size, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(zip64 ? ZIP64_OFFSET_EXTRA : 0, 30);
  header.writeUInt16LE(0, 32); // comment
  header.writeUInt16LE(0, 34); // disk
  header.writeUInt16LE(0, 36); // internal attributes
  header.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
  header.writeUInt32LE(zip64 ? MAX_32 : entry.offset, 42);
  if (!zip64) return Buffer.concat([header, entry.name]);
  const extra = Buffer.alloc(ZIP64_OFFSET_EXTRA);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(8, 2);
  extra.writeBigUInt64LE(BigInt(entry.offset), 4);
  return Buffer.concat([header, entry.name, extra]);
}

function endRecords(count: number, centralOffset: number, centralSize: number, forced: boolean): Buffer {
  const parts: Buffer[] = [];
  const zip64 = needsZip64End(count, centralOffset, centralSize, forced);
  if (zip64) {
    const record = Buffer.alloc(ZIP64_END_RECORD);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(BigInt(ZIP64_END_RECORD - 12), 4);
    record.writeUInt16LE(MADE_BY, 12);
    record.writeUInt16LE(VERSION_ZIP64, 14);
    record.writeUInt32LE(0, 16);
    record.writeUInt32LE(0, 20);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(centralSize), 40);
    record.writeBigUInt64LE(BigInt(centralOffset), 48);
    const locator = Buffer.alloc(ZIP64_LOCATOR);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeUInt32LE(0, 4);
    locator.writeBigUInt64LE(BigInt(centralOffset + centralSize), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  const end = Buffer.alloc(END_RECORD);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(zip64 ? MAX_16 : count, 8);
  end.writeUInt16LE(zip64 ? MAX_16 : count, 10);
  end.writeUInt32LE(zip64 ? MAX_32 : centralSize, 12);
  end.writeUInt32LE(zip64 ? MAX_32 : centralOffset, 16);
  end.writeUInt16LE(0, 20);
  parts.push(end);
  return Buffer.concat(parts);
}

/** The archive's bytes, in order: each entry loaded when its turn comes. */
export async function* zipChunks(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, options: ZipOptions = {}): AsyncGenerator<Buffer> {
  const forced = options.zip64 === true;
  const placed: Placed[] = [];
  let offset = 0;
  for await (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    checkEntry(name, entry.size);
    const data = await entry.load();
    if (data.length !== entry.size) throw new Error(`zip entry ${entry.name} holds ${data.length} bytes, not the ${entry.size} declared`);
    const item: Placed = { name, size: data.length, offset, crc: crc32(data) >>> 0, ...dosDateTime(entry.modified) };
    placed.push(item);
    const header = localHeader(item);
    yield header;
    if (data.length > 0) yield data;
    offset += header.length + data.length;
  }
  const central = placed.map((item) => centralHeader(item, forced));
  const centralSize = central.reduce((sum, b) => sum + b.length, 0);
  for (const header of central) yield header;
  yield endRecords(placed.length, offset, centralSize, forced);
}

/** zipChunks as a stream (with backpressure: an entry is loaded only once the reader wants more). */
export function zipStream(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, options: ZipOptions = {}): Readable {
  return Readable.from(zipChunks(entries, options), { objectMode: false });
}

/** The whole archive in memory (small archives, tests). */
export async function zipBuffer(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, options: ZipOptions = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of zipChunks(entries, options)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * A uuid as its 16 bytes and back: where ids are stored many times over
 * (timeline members in Redis), the bytes take 16 where the text takes 36.
 */
export function uuidToBytes(id: string): Buffer {
  return Buffer.from(id.replace(/-/g, ''), 'hex');
}

export function uuidFromBytes(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Every uuid a binary value holds as 16-byte words (a timeline member: session, author). */
export function uuidsInBytes(bytes: Uint8Array): string[] {
  const ids: string[] = [];
  for (let at = 0; at + 16 <= bytes.length; at += 16) ids.push(uuidFromBytes(bytes.subarray(at, at + 16)));
  return ids;
}

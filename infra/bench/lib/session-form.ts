/**
 * The web app's session form (POST /api/sessions) as a ready multipart body,
 * built once and sent many times: the load generator should spend its CPU
 * sending, not encoding. Text fields only (no photo).
 */
const BOUNDARY = 'hoptrackbenchboundary';

export const SESSION_FORM_CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

export function sessionFormBody(fields: Record<string, string>): Buffer {
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`);
}

/** The session every create of the benchmarks logs (session-create.ts, create-commits.ts): an ordinary one, no photo. */
export const BENCH_SESSION_FORM: Buffer = sessionFormBody({
  title: 'Bench night',
  description: 'Logged by the benchmark.',
  location: 'The Bench Arms',
  beerCount: '3',
  duration: '120',
  avgAbv: '5.2',
  latitude: '',
  longitude: '',
  beerTypes: JSON.stringify(['IPA', 'Stout']),
  musicTrack: '',
});

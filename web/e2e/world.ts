import type { Album, FeedSession } from '@hoptrack/proto';
import { expect } from 'vitest';
import {
  expectApi,
  logSessionViaApi,
  makeFriends,
  registerViaApi,
  uniqueUser,
  waitForMessagingUser,
  type RegisteredUser,
  type UploadFile,
} from './support';
import { testImage, uploadPhotosViaApi } from './images';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';

/**
 * A small lived-in world for the screens that should not be empty (the phone
 * layout and the screenshots): Maya with two friends, a pending request, a
 * feed of sessions with photos, likes, reactions and comments, a
 * conversation, and an album. Everything goes through the public API.
 */
export interface DemoWorld {
  maya: RegisteredUser;
  jonas: RegisteredUser;
  priya: RegisteredUser;
  sam: RegisteredUser;
  album: Album;
  sessions: FeedSession[];
}

/** A real picture: a pint glass with a foam head on a coloured ground. */
const beerPicture = (width: number, height: number, background: string, name: string): Promise<UploadFile> =>
  testImage(name, { background, width, height, motif: 'pint' });

async function person(baseUrl: string, label: string, displayName: string, bio: string): Promise<RegisteredUser> {
  const user = { ...uniqueUser(label), displayName };
  const { token, user: created } = await registerViaApi(baseUrl, user);
  const registered: RegisteredUser = { ...user, id: created.id, token };
  await expectApi(baseUrl, token, 'PATCH', '/api/me', { bio });
  return registered;
}

/** Sets a profile picture the way the web app does: signed upload URL, PUT the bytes, then PUT /api/me/profile-picture. */
async function setPicture(baseUrl: string, user: RegisteredUser, ground: string): Promise<void> {
  const { uploadURL } = (await expectApi(baseUrl, user.token, 'POST', '/api/profile-picture/upload')) as { uploadURL: string };
  const picture = await testImage('me.png', { background: ground, width: 96, height: 96 });
  const put = await fetch(new URL(uploadURL, baseUrl), { method: 'PUT', body: new Uint8Array(picture.buffer), headers: { 'content-type': picture.mimeType } });
  expect(put.status).toBeLessThan(300);
  await expectApi(baseUrl, user.token, 'PUT', '/api/me/profile-picture', { profilePictureUrl: new URL(uploadURL, baseUrl).pathname });
}

const TRACK = { id: 'local-2', name: 'Tubthumping', artist: 'Chumbawamba', album: 'Tubthumper', duration: 278, service: 'manual' };

export async function buildDemoWorld(baseUrl: string): Promise<DemoWorld> {
  const maya = await person(baseUrl, 'maya', 'Maya Brewer', 'Stouts in winter, sours in summer.');
  const jonas = await person(baseUrl, 'jonas', 'Jonas Keller', 'Homebrewer. Ask me about yeast.');
  const priya = await person(baseUrl, 'priya', 'Priya Shah', 'Collecting taprooms one city at a time.');
  const sam = await person(baseUrl, 'sam', 'Sam Ortega', 'New in town, looking for a pub quiz team.');
  await setPicture(baseUrl, maya, '#92400e');
  await setPicture(baseUrl, jonas, '#065f46');
  await makeFriends(baseUrl, maya, jonas);
  await makeFriends(baseUrl, maya, priya);
  // Sam has asked Maya: a pending request on her Friends screen.
  await expectApi(baseUrl, sam.token, 'POST', '/api/friendships', { friendId: maya.id }, 201);

  const sessions: FeedSession[] = [];
  sessions.push(
    await logSessionViaApi(
      baseUrl,
      priya,
      { title: 'Sour flight at the taproom', description: 'Five sours, one winner: the raspberry gose.', beerCount: '5', duration: '120', avgAbv: '4.8', location: 'Crooked Stave Artisan Beer Project', beerTypes: JSON.stringify(['Sour', 'Wheat']), musicTrack: '' },
      await beerPicture(640, 420, '#7c2d12', 'sours.jpg'),
    ),
  );
  sessions.push(
    await logSessionViaApi(
      baseUrl,
      jonas,
      { title: 'Brew day tasting', description: 'Tasted last month’s porter straight from the keg.', beerCount: '2', duration: '75', avgAbv: '6.1', location: 'Home', beerTypes: JSON.stringify(['Porter']), musicTrack: JSON.stringify(TRACK) },
      await beerPicture(640, 420, '#1e3a8a', 'porter.jpg'),
    ),
  );
  sessions.push(
    await logSessionViaApi(baseUrl, maya, {
      title: 'Friday pints with the team',
      description: 'Three rounds after work, then the pub quiz.',
      beerCount: '3',
      duration: '150',
      avgAbv: '5.2',
      location: 'Pints Pub Brewery and Freehouse',
      beerTypes: JSON.stringify(['IPA', 'Stout']),
      musicTrack: '',
    }),
  );
  const [sours, porter, pints] = sessions as [FeedSession, FeedSession, FeedSession];
  await expectApi(baseUrl, maya.token, 'POST', `/api/sessions/${sours.id}/like`);
  await expectApi(baseUrl, jonas.token, 'POST', `/api/sessions/${sours.id}/like`);
  await expectApi(baseUrl, maya.token, 'POST', `/api/sessions/${sours.id}/react`, { emoji: '🍻' });
  await expectApi(baseUrl, maya.token, 'POST', `/api/sessions/${porter.id}/comments`, { content: 'Save me a growler of that!' });
  await expectApi(baseUrl, jonas.token, 'POST', `/api/sessions/${pints.id}/like`);
  await expectApi(baseUrl, priya.token, 'POST', `/api/sessions/${pints.id}/react`, { emoji: '🔥' });
  await expectApi(baseUrl, priya.token, 'POST', `/api/sessions/${pints.id}/comments`, { content: 'Next quiz I’m in.' });

  await waitForMessagingUser(baseUrl, jonas, maya);
  await expectApi(baseUrl, jonas.token, 'POST', '/api/messages', { toUserId: maya.id, content: 'Brew day on Saturday, you in?' }, 201);
  await expectApi(baseUrl, maya.token, 'POST', '/api/messages', { toUserId: jonas.id, content: 'Always. I’ll bring the hops 🍺' }, 201);

  const album = (await expectApi(baseUrl, maya.token, 'POST', '/api/albums', { name: 'Summer taprooms', description: 'Patios and pints' }, 201)) as Album;
  const grounds = ['#b45309', '#0f766e', '#7c3aed', '#be123c'];
  await uploadPhotosViaApi(baseUrl, maya, album, await Promise.all(grounds.map((ground, i) => beerPicture(480, 360, ground, `taproom-${i + 1}.jpg`))));

  // Friends' sessions reach Maya's timeline by fan-out events.
  await expect
    .poll(async () => ((await expectApi(baseUrl, maya.token, 'GET', '/api/sessions?limit=50')) as FeedSession[]).length, { timeout: CONDITION_BOUND_MS })
    .toBe(sessions.length);
  return { maya, jonas, priya, sam, album, sessions };
}

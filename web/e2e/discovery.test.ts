import { REVIEW_TEXT_MAX, type Bar, type BarDetail, type Beer, type FoodItem, type Place, type PlacesResults } from '@hoptrack/proto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DENVER, expectApi, expectToast, registerUser, useE2eStack, type RegisteredUser } from './support';
import { testImage } from './images';

/**
 * /discovery against the real stack: nearby bars from a mocked position
 * (downtown Denver), bar and beer search, the bar detail with its reviews
 * and food, the 'Find Venues' dialog through the Places proxy, and the
 * location error toasts.
 */
const stack = useE2eStack();

const NEAREST = 'Pints Pub Brewery and Freehouse';

/** A new user on /discovery (named after `label`); the browser answers geolocation with `DENVER` unless `deny`. */
async function openDiscovery(options: { deny?: boolean; label?: string } = {}): Promise<{ page: Page; user: RegisteredUser }> {
  const user = await registerUser(stack.baseUrl, options.label ?? 'disco');
  const page = await stack.openAs(user, '/discovery', options.deny ? {} : { geolocation: DENVER });
  await page.getByRole('heading', { level: 1, name: 'Discovery' }).waitFor();
  return { page, user };
}

const barCards = (page: Page, label: string) => page.getByRole('list', { name: label, exact: true }).getByRole('listitem');

/**
 * A seeded bar of the first page (the 'Bars' list) that nobody has reviewed
 * and whose name is unique on that page. The e2e database outlives a run, so
 * a bar a failed run left a review on is skipped.
 */
async function unreviewedBar(user: RegisteredUser): Promise<BarDetail> {
  const bars = (await expectApi(stack.baseUrl, user.token, 'GET', '/api/bars')) as Bar[];
  for (const bar of bars) {
    if (bars.filter((other) => other.name === bar.name).length > 1) continue;
    const detail = (await expectApi(stack.baseUrl, user.token, 'GET', `/api/bars/${bar.id}`)) as BarDetail;
    if (detail.reviewCount === 0 && detail.rating === null) return detail;
  }
  throw new Error('no unreviewed bar on the first page');
}

/** Opens the bar's card in the 'Bars' list; its detail dialog. */
async function openBar(page: Page, name: string): Promise<Locator> {
  await barCards(page, 'Bars').filter({ has: page.getByText(name, { exact: true }) }).getByRole('button').click();
  const detail = page.getByRole('dialog', { name, exact: true });
  await detail.waitFor();
  await detail.getByRole('heading', { name: 'Reviews', exact: true }).waitFor();
  return detail;
}

const reviewBy = (detail: Locator, user: RegisteredUser) => detail.getByRole('listitem', { name: `Review by ${user.displayName}`, exact: true });

describe('bars & restaurants', () => {
  it('lists the first page of bars, then the nearest bar first with its distance after "Use my location"', async () => {
    const { page } = await openDiscovery();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Bars & Restaurants', 'Beers']);
    expect(await page.getByRole('tab', { name: 'Bars & Restaurants' }).getAttribute('aria-selected')).toBe('true');
    await barCards(page, 'Bars').first().waitFor();

    const nearby = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/bars/nearby');
    await page.getByRole('button', { name: 'Use my location', exact: true }).click();
    const request = new URL((await nearby).url());
    expect(Number(request.searchParams.get('lat'))).toBeCloseTo(DENVER.latitude, 4);
    expect(Number(request.searchParams.get('lng'))).toBeCloseTo(DENVER.longitude, 4);
    await expectToast(page, 'Location Found', 'Showing bars and restaurants near you.');

    const first = barCards(page, 'Bars near you').first();
    await first.getByText(NEAREST, { exact: true }).waitFor();
    await first.getByText('0.2 mi', { exact: true }).waitFor();
    const distances = (await barCards(page, 'Bars near you').locator('.bar-card__distance').allTextContents()).map((text) =>
      Number(text.replace(' mi', '')),
    );
    expect(distances.length).toBeGreaterThan(1);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);

    // The bar opens with its beers (name, style, ABV %, IBU).
    await first.getByRole('button').click();
    const detail = page.getByRole('dialog', { name: NEAREST });
    await detail.waitFor();
    const beers = detail.getByRole('list', { name: `Beers at ${NEAREST}` });
    const noBeers = detail.getByRole('heading', { name: 'No beers listed' });
    await beers.or(noBeers).first().waitFor();
    if (await beers.isVisible()) {
      expect(await beers.getByRole('listitem').count()).toBeGreaterThan(0);
      expect(await beers.getByText(/^ABV \d+\.\d%$/).count()).toBeGreaterThan(0);
    }
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
  });

  it('finds a bar by part of its name, for any non-empty text', async () => {
    const { page, user } = await openDiscovery();
    const expected = (await expectApi(stack.baseUrl, user.token, 'GET', '/api/bars/search?q=pints')) as Bar[];
    expect(expected.map((bar) => bar.name)).toContain(NEAREST);
    const searched = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/bars/search');
    await page.getByRole('searchbox', { name: 'Search bars' }).fill('  pints ');
    expect(new URL((await searched).url()).searchParams.get('q')).toBe('pints');
    const results = barCards(page, 'Bar search results');
    await results.getByText(NEAREST, { exact: true }).waitFor();
    await expect.poll(() => results.count()).toBe(expected.length);
  });

  it('says so when the location is refused', async () => {
    const { page } = await openDiscovery({ deny: true });
    await barCards(page, 'Bars').first().waitFor();
    await page.getByRole('button', { name: 'Use my location', exact: true }).click();
    await expectToast(page, 'Location error', 'Location access denied. Please enable location services.');
    await page.getByRole('list', { name: 'Bars', exact: true }).waitFor();
  });

  it('says so when the browser has no geolocation', async () => {
    const { page } = await openDiscovery();
    await barCards(page, 'Bars').first().waitFor();
    await page.evaluate(() => Object.defineProperty(Navigator.prototype, 'geolocation', { value: undefined, configurable: true }));
    await page.getByRole('button', { name: 'Use my location', exact: true }).click();
    await expectToast(page, 'Location not supported', 'Geolocation is not supported by this browser.');
  });
});

describe('bar reviews and food', () => {
  it('writes a 4-star review that another user finds helpful, then deletes it', async () => {
    const critic = await openDiscovery({ label: 'critic' });
    const bar = await unreviewedBar(critic.user);
    const detail = await openBar(critic.page, bar.name);
    // A Food section only when the bar has a menu (make dev and this stack put a demo menu on brewpubs).
    expect(await detail.getByRole('heading', { name: 'Food', exact: true }).count()).toBe(bar.food.length > 0 ? 1 : 0);
    await detail.getByText(`No reviews yet. Be the first to review ${bar.name}.`, { exact: true }).waitFor();

    // The form: 'Post review' waits for a rating; the counter follows the text.
    await detail.getByRole('button', { name: 'Write a review', exact: true }).click();
    const form = detail.getByRole('form', { name: 'Write a review' });
    const post = form.getByRole('button', { name: 'Post review', exact: true });
    expect(await post.isDisabled()).toBe(true);
    expect(await form.getByRole('radiogroup', { name: 'Your rating' }).getByRole('radio').count()).toBe(5);
    await form.getByRole('radio', { name: '4 stars', exact: true }).click();
    expect(await form.getByRole('radio', { name: '4 stars', exact: true }).getAttribute('aria-checked')).toBe('true');
    expect(await post.isEnabled()).toBe(true);
    const text = 'Cosy taproom, friendly staff and a hazy IPA worth the trip.';
    await form.getByLabel('Your review (optional)', { exact: true }).fill(text);
    await form.getByText(`${text.length}/${REVIEW_TEXT_MAX}`, { exact: true }).waitFor();
    await post.click();
    await expectToast(critic.page, 'Review posted', `You rated ${bar.name} 4 out of 5.`);

    // Listed with the author's name, stars and text; the bar is now rated 4.0 and the form is gone.
    const mine = reviewBy(detail, critic.user);
    await mine.getByText(critic.user.displayName, { exact: true }).waitFor();
    await mine.getByText(text, { exact: true }).waitFor();
    await mine.getByRole('img', { name: '4 out of 5 stars', exact: true }).waitFor();
    await detail.getByText('1 review', { exact: true }).waitFor();
    await detail.getByText('4.0', { exact: true }).waitFor();
    await detail.getByText(/★ 4\.0/).waitFor();
    await form.waitFor({ state: 'detached' });
    expect(await detail.getByRole('button', { name: 'Write a review', exact: true }).count()).toBe(0);
    expect(await mine.getByRole('button', { name: 'Helpful (0)', exact: true }).isDisabled()).toBe(true);
    expect(((await expectApi(stack.baseUrl, critic.user.token, 'GET', `/api/bars/${bar.id}`)) as BarDetail).rating).toBe(4);

    // A second user finds it helpful: one vote, after which both buttons are disabled.
    const voter = await openDiscovery({ label: 'voter' });
    const seen = await openBar(voter.page, bar.name);
    const theirs = reviewBy(seen, critic.user);
    await theirs.getByText(text, { exact: true }).waitFor();
    expect(await theirs.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await seen.getByRole('button', { name: 'Write a review', exact: true }).waitFor();
    await theirs.getByRole('button', { name: 'Helpful (0)', exact: true }).click();
    const helpful = theirs.getByRole('button', { name: 'Helpful (1)', exact: true });
    await helpful.waitFor();
    expect(await helpful.isDisabled()).toBe(true);
    expect(await helpful.getAttribute('aria-pressed')).toBe('true');
    expect(await theirs.getByRole('button', { name: 'Not helpful', exact: true }).isDisabled()).toBe(true);

    // The author deletes it after confirming; the bar has no reviews (and no rating) again.
    await mine.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = critic.page.getByRole('dialog', { name: 'Delete review?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(critic.page, 'Review deleted', 'Your review has been removed.');
    await confirm.waitFor({ state: 'detached' });
    await mine.waitFor({ state: 'detached' });
    await detail.getByText(`No reviews yet. Be the first to review ${bar.name}.`, { exact: true }).waitFor();
    await detail.getByRole('button', { name: 'Write a review', exact: true }).waitFor();
    const after = (await expectApi(stack.baseUrl, critic.user.token, 'GET', `/api/bars/${bar.id}`)) as BarDetail;
    expect([after.reviewCount, after.rating]).toEqual([0, null]);
  });

  it('says so when the viewer reviewed the bar meanwhile (409), then shows their review', async () => {
    const { page, user } = await openDiscovery({ label: 'twice' });
    const bar = await unreviewedBar(user);
    const detail = await openBar(page, bar.name);
    await detail.getByRole('button', { name: 'Write a review', exact: true }).click();
    const form = detail.getByRole('form', { name: 'Write a review' });
    await form.getByRole('radio', { name: '2 stars', exact: true }).click();

    // Another tab got there first.
    const first = (await expectApi(stack.baseUrl, user.token, 'POST', `/api/bars/${bar.id}/reviews`, { rating: 5 }, 201)) as { id: string };
    try {
      await form.getByRole('button', { name: 'Post review', exact: true }).click();
      await expectToast(page, 'Error', 'You have already reviewed this bar');
      await reviewBy(detail, user).getByRole('img', { name: '5 out of 5 stars', exact: true }).waitFor();
      await form.waitFor({ state: 'detached' });
    } finally {
      await expectApi(stack.baseUrl, user.token, 'DELETE', `/api/bars/${bar.id}/reviews/${first.id}`, undefined, 204);
    }
  });

  it("lists the bar's food with category, price and allergens, marking what is unavailable", async () => {
    // A known menu, whatever the bar's demo menu: the detail answer gets it on its way to the page.
    const { page, user } = await openDiscovery();
    const bar = await unreviewedBar(user);
    const food: FoodItem[] = [
      {
        id: '00000000-0000-4000-8000-00000000f001',
        name: 'Soft Pretzel',
        category: 'Snacks',
        description: 'With beer cheese',
        imageUrl: null,
        allergens: ['gluten', 'dairy'],
        price: 8.5,
        isAvailable: true,
      },
      {
        id: '00000000-0000-4000-8000-00000000f002',
        name: 'Fish and Chips',
        category: 'Mains',
        description: null,
        imageUrl: null,
        allergens: [],
        price: 16,
        isAvailable: false,
      },
    ];
    await page.route(`**/api/bars/${bar.id}`, async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as BarDetail;
      await route.fulfill({ response: answer, json: { ...body, food } });
    });
    const detail = await openBar(page, bar.name);
    await detail.getByRole('heading', { name: 'Food', exact: true }).waitFor();
    const items = detail.getByRole('list', { name: `Food at ${bar.name}`, exact: true }).getByRole('listitem');
    expect(await items.count()).toBe(2);
    const pretzel = items.filter({ hasText: 'Soft Pretzel' });
    for (const shown of ['$8.50', 'Snacks', 'With beer cheese', 'Contains: gluten, dairy']) {
      await pretzel.getByText(shown, { exact: true }).waitFor();
    }
    expect(await pretzel.getByText('Unavailable', { exact: true }).count()).toBe(0);
    const fish = items.filter({ hasText: 'Fish and Chips' });
    for (const shown of ['$16.00', 'Mains', 'Unavailable']) {
      await fish.getByText(shown, { exact: true }).waitFor();
    }
  });
});

describe('beers', () => {
  it('searches beers by style and narrows by the style select', async () => {
    const { page, user } = await openDiscovery();
    await page.getByRole('tab', { name: 'Beers' }).click();
    await page.waitForURL('**/discovery?tab=beers');
    await page.getByRole('list', { name: 'Beers', exact: true }).getByRole('listitem').first().waitFor();

    await page.getByRole('searchbox', { name: 'Search beers' }).fill('Imperial Stout');
    const results = page.getByRole('list', { name: 'Beer search results', exact: true }).getByRole('listitem');
    await results.first().waitFor();
    const expected = (await expectApi(stack.baseUrl, user.token, 'GET', '/api/beers/search?q=Imperial%20Stout')) as Beer[];
    const stouts = expected.filter((beer) => beer.style?.includes('Imperial Stout'));
    expect(stouts.length).toBeGreaterThan(0);
    expect(expected.every((beer) => /imperial stout/i.test(`${beer.name} ${beer.style ?? ''} ${beer.brewery}`))).toBe(true);
    await expect.poll(() => results.count()).toBe(expected.length);
    expect(await results.locator('.beer-card__style').getByText(/Imperial Stout$/).count()).toBe(stouts.length);
    const sample = stouts.find((beer) => beer.abv !== null && beer.ibu !== null) ?? stouts[0]!;
    const card = results.filter({ hasText: sample.name }).first();
    await card.getByText(sample.brewery, { exact: true }).waitFor();
    if (sample.abv !== null) await card.getByText(`ABV ${(Math.round(sample.abv * 1000) / 10).toFixed(1)}%`, { exact: true }).waitFor();
    if (sample.ibu !== null) await card.getByText(`IBU ${sample.ibu}`, { exact: true }).waitFor();

    // The style select lists the styles of the results and narrows the search to one.
    const style = sample.style!;
    const select = page.getByRole('combobox', { name: 'Style' });
    expect(await select.getByRole('option').allTextContents()).toContain(style);
    const narrowed = (await expectApi(
      stack.baseUrl,
      user.token,
      'GET',
      `/api/beers/search?q=Imperial%20Stout&style=${encodeURIComponent(style)}`,
    )) as Beer[];
    expect(narrowed.length).toBeGreaterThan(0);
    const styled = page.waitForRequest((req) => new URL(req.url()).searchParams.get('style') === style);
    await select.selectOption(style);
    expect(new URL((await styled).url()).pathname).toBe('/api/beers/search');
    await expect.poll(() => results.count()).toBe(narrowed.length);
    expect(await results.locator('.beer-card__style').getByText(style, { exact: true }).count()).toBe(narrowed.length);
  });
});

describe('find venues', () => {
  it('lists venues near the mocked location and shows the chosen one with its coordinates', async () => {
    const { page, user } = await openDiscovery();
    const nearby = (await expectApi(
      stack.baseUrl,
      user.token,
      'GET',
      `/api/google-places/nearby?lat=${DENVER.latitude}&lng=${DENVER.longitude}&radius=5000&type=bar`,
    )) as PlacesResults;
    expect(nearby.results.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Find Venues', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Venues' });
    await dialog.waitFor();
    const called = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/google-places/nearby');
    await dialog.getByRole('button', { name: 'Find Venues', exact: true }).click();
    const params = new URL((await called).url()).searchParams;
    expect(params.get('radius')).toBe('5000');
    expect(params.get('type')).toBe('bar');
    const count = nearby.results.length;
    await expectToast(page, 'Venues Found', `Found ${count} ${count === 1 ? 'venue' : 'venues'} near you.`);

    const venues = dialog.getByRole('list', { name: 'Venues near you' }).getByRole('listitem');
    expect(await venues.count()).toBe(count);
    const chosen = nearby.results[0]!;
    await venues.first().getByText(chosen.name, { exact: true }).waitFor();
    await venues.first().getByText(/^\d+\.\d mi$/).waitFor();
    await venues.first().getByRole('button').click();
    await dialog.waitFor({ state: 'detached' });
    const { lat, lng } = chosen.geometry.location;
    await page.getByText(`Selected: ${chosen.name} (${lat.toFixed(4)}, ${lng.toFixed(4)})`, { exact: true }).waitFor();
  });

  it('falls back from bars to restaurants to establishments to 2 sample venues', async () => {
    const { page } = await openDiscovery();
    const asked: string[] = [];
    await page.route('**/api/google-places/nearby?*', (route) => {
      const params = new URL(route.request().url()).searchParams;
      asked.push(`${params.get('type')}@${params.get('radius')}`);
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ results: [], status: 'ZERO_RESULTS' }) });
    });
    await page.getByRole('button', { name: 'Find Venues', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Venues' });
    await dialog.getByRole('button', { name: 'Find Venues', exact: true }).click();
    await expectToast(page, 'Venues Found', 'Found 2 venues near you.');
    expect(asked).toEqual(['bar@5000', 'restaurant@5000', 'establishment@10000']);
    expect(await dialog.getByRole('list', { name: 'Venues near you' }).getByRole('listitem').count()).toBe(2);
  });

  it('searches venues by text and toasts failed calls', async () => {
    const { page } = await openDiscovery();
    await page.getByRole('button', { name: 'Find Venues', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Venues' });
    await dialog.getByRole('searchbox', { name: 'Search places' }).fill('Pints');
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();
    await dialog.getByRole('list', { name: 'Venue search results' }).getByText(NEAREST, { exact: true }).waitFor();

    await page.route('**/api/google-places/**', (route) => route.fulfill({ status: 500, body: '' }));
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();
    await expectToast(page, 'Error', 'Failed to search places');
    await dialog.getByRole('button', { name: 'Find Venues', exact: true }).click();
    await expectToast(page, 'Error', 'Failed to fetch nearby places');
  });

  it('says when the location is refused', async () => {
    const { page } = await openDiscovery({ deny: true });
    await page.getByRole('button', { name: 'Find Venues', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Venues' });
    await dialog.getByRole('button', { name: 'Find Venues', exact: true }).click();
    await expectToast(page, 'Location Access Required', 'Location access denied by user.');
  });
});

describe('what Find Venues shows of a venue (issue 25)', () => {
  /** Opens Find Venues and runs the nearby search from DENVER; the list of results. */
  async function findNearby(page: Page): Promise<Locator> {
    await page.getByRole('button', { name: 'Find Venues', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Venues' });
    await dialog.getByRole('button', { name: 'Find Venues', exact: true }).click();
    const list = dialog.getByRole('list', { name: 'Venues near you' });
    await list.getByRole('listitem').first().waitFor();
    return list;
  }

  const venueCard = (list: Locator, name: string) => list.getByRole('listitem').filter({ has: list.page().getByText(name, { exact: true }) });

  /** No unknown value leaks in as text, and no label stands empty. */
  async function expectNoEmptyFacts(list: Locator): Promise<void> {
    expect(await list.textContent()).not.toMatch(/undefined|null|NaN|\[object/);
    for (const tag of await list.locator('.badge, .bar-card__rating, .bar-card__price, .venue-card__meta, .venue-card__contact a').allTextContents()) {
      expect(tag.trim()).not.toBe('');
    }
    expect(await list.locator('.bar-card__tags:empty, .venue-card__contact:empty').count()).toBe(0);
  }

  it('shows what the local catalogue knows (address, distance, phone, website, types) and nothing it does not', async () => {
    const { page, user } = await openDiscovery({ label: 'venuefacts' });
    const nearby = (await expectApi(
      stack.baseUrl,
      user.token,
      'GET',
      `/api/google-places/nearby?lat=${DENVER.latitude}&lng=${DENVER.longitude}&radius=5000&type=bar`,
    )) as PlacesResults;
    // The catalogue has no hours, prices or photos at all: the proxy leaves them out rather than guess.
    for (const place of nearby.results) {
      expect([place.opening_hours, place.price_level, place.photos]).toEqual([undefined, undefined, []]);
    }
    const pints = nearby.results.find((place) => place.name === NEAREST)!;
    expect([pints.formatted_phone_number, pints.website]).toEqual(['3035347543', 'http://www.pintspub.com']);
    const photoCalls: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/google-places/photo') photoCalls.push(req.url());
    });

    const list = await findNearby(page);
    const card = venueCard(list, NEAREST);
    await card.getByText(pints.vicinity!, { exact: true }).waitFor();
    await card.getByText(/^\d+\.\d mi$/).waitFor();
    expect(await card.getByRole('link', { name: '3035347543', exact: true }).getAttribute('href')).toBe('tel:3035347543');
    const website = card.getByRole('link', { name: 'www.pintspub.com', exact: true });
    expect(await website.getAttribute('href')).toBe('http://www.pintspub.com/');
    expect(await website.getAttribute('target')).toBe('_blank');
    // Its types, less Google's catch-all 'establishment'.
    expect(await card.locator('.badge').allTextContents()).toEqual(['bar', 'restaurant']);
    // A rating only when the bar has reviews (the data sets carry none).
    expect(await card.getByText(/★/).count()).toBe(pints.rating === undefined ? 0 : 1);

    // Unknown across the list: no Open/Closed, no price, no photo and no call for one.
    expect(await list.getByText(/^(Open|Closed)$/).count()).toBe(0);
    expect(await list.locator('.bar-card__price').count()).toBe(0);
    expect(await list.locator('img').count()).toBe(0);
    expect(photoCalls).toEqual([]);
    await expectNoEmptyFacts(list);
  });

  it("shows what Google knows (rating, price, open now, types) and the photo through /api/google-places/photo", async () => {
    const { page, user } = await openDiscovery({ label: 'venuegoogle' });
    // Google cannot be reached from here: the proxy's own answer gets Google's fields on its way to the page.
    await page.route('**/api/google-places/nearby?*', async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as PlacesResults;
      const [first, second, third, ...rest] = body.results;
      const results: Place[] = [
        {
          ...first!,
          rating: 4.4,
          price_level: 2,
          opening_hours: { open_now: true },
          types: ['bar', 'restaurant', 'food', 'point_of_interest', 'establishment'],
          photos: [{ photo_reference: 'ref-known', width: 800, height: 600 }],
          formatted_phone_number: '(303) 534-7543',
          website: 'https://example.com/taproom',
        },
        { ...second!, opening_hours: { open_now: false }, price_level: 0, website: 'javascript:alert(1)' },
        { ...third!, photos: [{ photo_reference: 'ref-gone', width: 800, height: 600 }] },
        ...rest,
      ];
      await route.fulfill({ response: answer, json: { ...body, results } });
    });
    const picture = await testImage('venue.png', { background: '#b45309', width: 160, height: 120, motif: 'pint' });
    const photoCalls: { reference: string | null; width: string | null; auth: string | undefined }[] = [];
    await page.route('**/api/google-places/photo?*', async (route) => {
      const params = new URL(route.request().url()).searchParams;
      photoCalls.push({ reference: params.get('photoreference'), width: params.get('maxwidth'), auth: route.request().headers().authorization });
      // The known reference as Google would answer it; the other goes on to the real proxy, which has no such photo (404).
      if (params.get('photoreference') === 'ref-known') await route.fulfill({ status: 200, contentType: picture.mimeType, body: picture.buffer });
      else await route.fallback();
    });
    const gone = page.waitForResponse((res) => new URL(res.url()).searchParams.get('photoreference') === 'ref-gone');

    const list = await findNearby(page);
    const cards = list.getByRole('listitem');
    const first = cards.nth(0);
    await first.getByText('★ 4.4', { exact: true }).waitFor();
    expect(await first.locator('.bar-card__price').textContent()).toBe('Price $$');
    await first.getByText('Open', { exact: true }).waitFor();
    expect(await first.locator('.badge').allTextContents()).toEqual(['Open', 'bar', 'restaurant', 'food']);
    expect(await first.getByRole('link', { name: '(303) 534-7543', exact: true }).getAttribute('href')).toBe('tel:3035347543');
    expect(await first.getByRole('link', { name: 'example.com', exact: true }).getAttribute('href')).toBe('https://example.com/taproom');
    const photo = first.locator('img.venue-card__photo');
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await photo.getAttribute('src')).toMatch(/^blob:/);

    // Closed where Google says so; 'Free' for price level 0; a website that is not http(s) is not linked.
    const second = cards.nth(1);
    await second.getByText('Closed', { exact: true }).waitFor();
    expect(await second.locator('.bar-card__price').textContent()).toBe('Price Free');
    expect(await second.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await second.textContent()).not.toContain('javascript');
    expect(await second.locator('img').count()).toBe(0);

    // A reference the proxy has no photo for shows nothing, not a broken image.
    expect((await gone).status()).toBe(404);
    expect(await cards.nth(2).locator('img').count()).toBe(0);
    expect(photoCalls.map((call) => call.reference).sort()).toEqual(['ref-gone', 'ref-known']);
    expect(photoCalls.every((call) => call.auth === `Bearer ${user.token}` && call.width === '160')).toBe(true);
    await expectNoEmptyFacts(list);
  });

  it('shows Open/Closed on bar cards only where hours are known', async () => {
    const { page } = await openDiscovery({ label: 'barhours' });
    const bars = barCards(page, 'Bars');
    await bars.first().waitFor();
    // The data sets have no hours: no card claims either.
    expect(await bars.getByText(/^(Open|Closed)$/).count()).toBe(0);

    // Hours known for one bar (as a source with hours would say): that card, and only that one, says so.
    await page.route('**/api/bars/nearby?*', async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as Bar[];
      await route.fulfill({ response: answer, json: body.map((bar, index) => (index === 0 ? { ...bar, isOpen: true } : index === 1 ? { ...bar, isOpen: false } : bar)) });
    });
    await page.getByRole('button', { name: 'Use my location', exact: true }).click();
    const near = barCards(page, 'Bars near you');
    await near.nth(0).getByText('Open', { exact: true }).waitFor();
    await near.nth(1).getByText('Closed', { exact: true }).waitFor();
    expect(await near.getByText(/^(Open|Closed)$/).count()).toBe(2);
  });
});

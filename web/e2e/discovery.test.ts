import { REVIEW_TEXT_MAX, type Bar, type BarDetail, type Beer, type FoodItem, type Place, type PlacesResults } from '@hoptrack/proto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DENVER, expectApi, expectToast, registerUser, useE2eStack, type RegisteredUser } from './support';
import { testImage } from './images';
import { expectDialogFits } from './layout';

/**
 * /discovery against the real stack: nearby bars from a mocked position
 * (downtown Denver), bar and beer search, the bar detail with its reviews
 * and food, the 'Find Venues' dialog through the Places proxy, and the
 * location error toasts.
 */
const stack = useE2eStack();

const NEAREST = 'Pints Pub Brewery and Freehouse';

/** A new user on /discovery (named after `label`); the browser answers geolocation with `DENVER` unless `deny`. */
async function openDiscovery(options: { deny?: boolean; label?: string; narrow?: boolean } = {}): Promise<{ page: Page; user: RegisteredUser }> {
  const user = await registerUser(stack.baseUrl, options.label ?? 'disco');
  const page = await stack.openAs(user, '/discovery', { ...(options.deny ? {} : { geolocation: DENVER }), narrow: options.narrow ?? false });
  await page.getByRole('heading', { level: 1, name: 'Discovery' }).waitFor();
  return { page, user };
}

/** Without a position, Discovery says so (issue 40) instead of listing bars. */
const noLocation = (page: Page) => page.getByRole('region', { name: 'Find bars near you', exact: true });

const barCards = (page: Page, label: string) => page.getByRole('list', { name: label, exact: true }).getByRole('listitem');

/**
 * A seeded bar of the catalogue's first page (GET /api/bars) that nobody has reviewed
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

/** Opens the bar at its own address (/bars/{id}); its detail dialog, over Discovery. */
async function openBar(page: Page, bar: Pick<Bar, 'id' | 'name'>): Promise<Locator> {
  await page.goto(`/bars/${bar.id}`);
  const detail = page.getByRole('dialog', { name: bar.name, exact: true });
  await detail.waitFor();
  await detail.getByRole('heading', { name: 'Reviews', exact: true }).waitFor();
  return detail;
}

const reviewBy = (detail: Locator, user: RegisteredUser) => detail.getByRole('listitem', { name: `Review by ${user.displayName}`, exact: true });

describe('bars & restaurants', () => {
  it('without a position says so and offers "Use my location", never a list of bars worldwide; then the nearest first, with distances', async () => {
    const { page } = await openDiscovery({ deny: true });
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Bars & Restaurants', 'Beers']);
    expect(await page.getByRole('tab', { name: 'Bars & Restaurants' }).getAttribute('aria-selected')).toBe('true');
    const asked: string[] = [];
    page.on('request', (req) => asked.push(new URL(req.url()).pathname));
    await page.reload();
    await noLocation(page).getByText('Discovery does not know where you are yet.', { exact: false }).waitFor();
    // Before issue 40 this was the catalogue's first page, A to Z across the world.
    expect(await page.getByRole('list', { name: 'Bars', exact: true }).count()).toBe(0);
    expect(asked.filter((path) => path === '/api/bars')).toEqual([]);

    await page.context().grantPermissions(['geolocation']);
    await page.context().setGeolocation(DENVER);
    const nearby = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/bars/nearby');
    await noLocation(page).getByRole('button', { name: 'Use my location', exact: true }).click();
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
    expect(await noLocation(page).count()).toBe(0);
  });

  it('opens on the bars near you when the browser already allows the position', async () => {
    const { page } = await openDiscovery();
    await barCards(page, 'Bars near you').first().getByText(NEAREST, { exact: true }).waitFor();
    expect(await noLocation(page).count()).toBe(0);
  });

  it('gives a bar its own address: /bars/{id} opens it, back and forward move through it, the phone calls and the map opens', async () => {
    const { page, user } = await openDiscovery();
    const card = barCards(page, 'Bars near you').first();
    await card.getByText(NEAREST, { exact: true }).waitFor();
    await card.getByRole('link').click();
    const detail = page.getByRole('dialog', { name: NEAREST, exact: true });
    await detail.waitFor();
    await page.waitForURL(/\/bars\/[0-9a-f-]{36}$/);
    const barUrl = page.url();
    const barId = new URL(barUrl).pathname.split('/').pop() ?? '';
    const bar = (await expectApi(stack.baseUrl, user.token, 'GET', `/api/bars/${barId}`)) as BarDetail;
    expect(bar.name).toBe(NEAREST);

    // Its beers (name, style, ABV %, IBU), a phone to call (formatted), and its place on OpenStreetMap.
    const beers = detail.getByRole('list', { name: `Beers at ${NEAREST}` });
    const noBeers = detail.getByRole('heading', { name: 'No beers listed' });
    await beers.or(noBeers).first().waitFor();
    if (await beers.isVisible()) expect(await beers.getByText(/^ABV \d+\.\d%$/).count()).toBeGreaterThan(0);
    expect(await detail.getByRole('link', { name: '(303) 534-7543', exact: true }).getAttribute('href')).toBe('tel:+13035347543');
    const map = detail.getByRole('link', { name: 'Open in maps', exact: true });
    expect(await map.getAttribute('href')).toBe(`https://www.openstreetmap.org/?mlat=${bar.latitude}&mlon=${bar.longitude}#map=17/${bar.latitude}/${bar.longitude}`);
    expect(await map.getAttribute('target')).toBe('_blank');

    // Back closes it onto the same list, forward opens it again, and Close comes back to Discovery.
    await page.goBack();
    await detail.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/discovery');
    await card.getByText(NEAREST, { exact: true }).waitFor();
    await page.goForward();
    await detail.waitFor();
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/discovery');

    // Shared: the address opens the bar in a fresh page, on a phone too, and it fits.
    const phone = await stack.openAs(await registerUser(stack.baseUrl, 'sharee'), new URL(barUrl).pathname, { narrow: true });
    const shared = phone.getByRole('dialog', { name: NEAREST, exact: true });
    await shared.getByRole('heading', { name: 'Reviews', exact: true }).waitFor();
    await expectDialogFits(phone, shared, 'a shared bar on a phone');
    await shared.getByRole('button', { name: 'Close' }).click();
    await phone.waitForURL((url) => url.pathname === '/discovery');
    await phone.getByRole('heading', { level: 1, name: 'Discovery' }).waitFor();
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
    await page.getByRole('button', { name: 'Use my location', exact: true }).click();
    await expectToast(page, 'Location error', 'Location access denied. Please enable location services.');
    await noLocation(page).waitFor();
  });

  it('says so when the browser has no geolocation', async () => {
    const { page } = await openDiscovery();
    await barCards(page, 'Bars near you').first().waitFor();
    await page.evaluate(() => Object.defineProperty(Navigator.prototype, 'geolocation', { value: undefined, configurable: true }));
    await page.getByRole('button', { name: 'Use my location', exact: true }).click();
    await expectToast(page, 'Location not supported', 'Geolocation is not supported by this browser.');
  });
});

describe('bar reviews and food', () => {
  it('writes a 4-star review that another user finds helpful, then deletes it', async () => {
    const critic = await openDiscovery({ label: 'critic' });
    const bar = await unreviewedBar(critic.user);
    const detail = await openBar(critic.page, bar);
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
    const seen = await openBar(voter.page, bar);
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
    const detail = await openBar(page, bar);
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
    const detail = await openBar(page, bar);
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
    // The data sets' bare US digits, shown and called as a North American number (issue 40).
    expect(await card.getByRole('link', { name: '(303) 534-7543', exact: true }).getAttribute('href')).toBe('tel:+13035347543');
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
    expect(await first.getByRole('link', { name: '(303) 534-7543', exact: true }).getAttribute('href')).toBe('tel:+13035347543');
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
    const bars = barCards(page, 'Bars near you');
    await bars.first().waitFor();
    // The data sets have no hours: no card claims either.
    expect(await bars.getByText(/^(Open|Closed)$/).count()).toBe(0);

    // Hours known for one bar (as a source with hours would say): that card, and only that one, says so.
    await page.route('**/api/bars/nearby?*', async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as Bar[];
      await route.fulfill({ response: answer, json: body.map((bar, index) => (index === 0 ? { ...bar, isOpen: true } : index === 1 ? { ...bar, isOpen: false } : bar)) });
    });
    await page.reload();
    const near = barCards(page, 'Bars near you');
    await near.nth(0).getByText('Open', { exact: true }).waitFor();
    await near.nth(1).getByText('Closed', { exact: true }).waitFor();
    expect(await near.getByText(/^(Open|Closed)$/).count()).toBe(2);
  });
});

describe('the place of a session (issue 40)', () => {
  /** The Log dialog on the feed of a new user whose browser is at `DENVER`. */
  async function logDialogAtDenver(label: string): Promise<{ page: Page; dialog: Locator; user: RegisteredUser }> {
    const user = await registerUser(stack.baseUrl, label);
    const page = await stack.openAs(user, '/', { geolocation: DENVER });
    await page.getByRole('button', { name: 'Log Session', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Log Beer Session', exact: true });
    await dialog.waitFor();
    return { page, dialog, user };
  }

  /** Every item of the list shows its distance; the nearest comes first and is near Denver. */
  async function expectNearestFirst(items: Locator): Promise<void> {
    await items.first().waitFor();
    const miles = async () => (await items.locator('.place-input__distance, .venue-card__distance').allTextContents()).map((text) => Number(text.replace(' mi', '')));
    await expect.poll(async () => (await miles()).length).toBe(await items.count());
    const shown = await miles();
    expect([...shown].sort((a, b) => a - b)).toEqual(shown);
    expect(shown[0]).toBeLessThan(5);
  }

  it('ranks the suggestions and the venue search nearest first, each with its distance in miles', async () => {
    const { page, dialog } = await logDialogAtDenver('nearest');
    const place = dialog.getByRole('combobox', { name: 'Location', exact: true });
    await place.fill('brew');
    // Before issue 40: the first five matches A to Z, from anywhere, with no distance.
    await expectNearestFirst(dialog.getByRole('listbox', { name: 'Location suggestions', exact: true }).getByRole('option'));

    await place.fill('');
    await dialog.getByRole('button', { name: 'Find Venues', exact: true }).click();
    const venues = page.getByRole('dialog', { name: 'Find Venues', exact: true });
    await venues.getByRole('searchbox', { name: 'Search places', exact: true }).fill('brew');
    await venues.getByRole('button', { name: 'Search', exact: true }).click();
    await expectNearestFirst(venues.getByRole('list', { name: 'Venue search results', exact: true }).getByRole('listitem'));
  });

  it('"Use my location" replaces a venue name that no longer matches, and the session shows a place, never raw coordinates', async () => {
    const { page, dialog, user } = await logDialogAtDenver('wanderer');
    // A bar in Bavaria, picked from the suggestions: its name and its coordinates.
    const place = dialog.getByRole('combobox', { name: 'Location', exact: true });
    await place.fill('Kronach');
    const suggestion = dialog.getByRole('listbox', { name: 'Location suggestions', exact: true }).getByRole('option').first();
    await suggestion.waitFor();
    await suggestion.click();
    const far = await place.inputValue();
    expect(far).not.toBe('');

    // In Denver, the position is not that bar's: the name goes, the nearest bar's takes its place.
    await dialog.getByRole('button', { name: 'Use my location', exact: true }).click();
    await expectToast(page, 'Location Found', `Near ${NEAREST}: added to the session.`);
    await expect.poll(() => place.inputValue()).toBe(`Near ${NEAREST}`);
    const map = dialog.getByRole('link', { name: 'Open in maps', exact: true });
    expect(await map.getAttribute('href')).toBe('https://www.openstreetmap.org/?mlat=39.739200&mlon=-104.990300#map=17/39.739200/-104.990300');
    // Before issue 40: 'Coordinates: 39.739200, -104.990300' under the name of the bar in Bavaria.
    expect(await dialog.textContent()).not.toMatch(/-?\d+\.\d{4,}/);

    await dialog.getByLabel('Title', { exact: true }).fill(`Pints ${user.username}`);
    await dialog.getByRole('button', { name: 'Log Session', exact: true }).click();
    await expectToast(page, 'Beer session logged successfully!');
    const card = page.getByRole('article', { name: `Pints ${user.username}`, exact: true });
    await card.getByText(`📍 Near ${NEAREST}`, { exact: true }).waitFor();
  });
});

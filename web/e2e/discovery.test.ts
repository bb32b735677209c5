import type { Bar, Beer, PlacesResults } from '@hoptrack/proto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectApi, expectToast, registerUser, signInWithToken, useE2eStack, type RegisteredUser } from './support';

/**
 * /discovery against the real stack: nearby bars from a mocked position
 * (downtown Denver), bar and beer search, the bar detail, the 'Find Venues'
 * dialog through the Places proxy, and the location error toasts.
 */
const stack = useE2eStack();

const DENVER = { latitude: 39.7392, longitude: -104.9903 };
const NEAREST = 'Pints Pub Brewery and Freehouse';

/** A new user on /discovery; the browser answers geolocation with `DENVER` unless `deny`. */
async function openDiscovery(options: { deny?: boolean } = {}): Promise<{ page: Page; user: RegisteredUser }> {
  const user = await registerUser(stack.baseUrl, 'disco');
  const { page, context } = await stack.open('/');
  if (!options.deny) {
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation(DENVER);
  }
  await signInWithToken(page, user.token, '/discovery');
  await page.getByRole('heading', { level: 1, name: 'Discovery' }).waitFor();
  return { page, user };
}

const barCards = (page: Page, label: string) => page.getByRole('list', { name: label, exact: true }).getByRole('listitem');

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

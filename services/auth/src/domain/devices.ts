import { isIPv4, isIPv6 } from 'node:net';

/** Where a sign-in came from, as the request showed it. */
export interface SignInClient {
  userAgent: string;
  ip: string;
}

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*Safari\//, 'Safari'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** "Chrome on Linux" from a User-Agent; what is not a browser is named by its first product ("curl"), or "Unknown device". */
export function deviceName(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return (browser ?? system) as string;
  const product = /^([A-Za-z][\w.-]{0,40})\//.exec(userAgent.trim())?.[1];
  return product ?? 'Unknown device';
}

/**
 * The network of an address, never the address itself (no geo database: the
 * coarse place is the IPv4 /24 or the IPv6 /48 it signed in from).
 */
export function networkOf(ip: string): string {
  const address = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) {
    if (address === '::1') return '::1/128';
    const [head = ''] = address.split('::');
    const groups = head.split(':').filter(Boolean).slice(0, 3);
    while (groups.length < 3) groups.push('0');
    return `${groups.join(':')}::/48`;
  }
  return 'an unknown network';
}

/** How a network reads on the devices list. */
export function placeOf(network: string): string {
  if (network.startsWith('127.') || network === '::1/128') return 'This computer (local network)';
  if (/^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(network)) return `Private network ${network}`;
  return `Network ${network}`;
}

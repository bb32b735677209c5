import { EARTH_RADIUS_MILES } from '@hoptrack/proto/constants';
import type { ToastInput } from './toast';

/**
 * Browser geolocation (spec section 9): high accuracy, a 10 s time-out and
 * positions up to 5 minutes old.
 */
export const GEOLOCATION_OPTIONS: PositionOptions = {
  enableHighAccuracy: true,
  timeout: 10_000,
  maximumAge: 5 * 60 * 1000,
};

export interface Coordinates {
  lat: number;
  lng: number;
}

/** Why no position came back: no API at all, the user said no, or anything else. */
export type LocationFailure = 'unsupported' | 'denied' | 'unavailable' | 'timeout' | 'unknown';

export class LocationError extends Error {
  constructor(readonly reason: LocationFailure) {
    super(reason);
    this.name = 'LocationError';
  }
}

const PERMISSION_DENIED = 1;
const POSITION_UNAVAILABLE = 2;
const TIMEOUT = 3;

/** The current position, or a `LocationError` saying why not. */
export function currentPosition(): Promise<Coordinates> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === 'undefined' || !('geolocation' in navigator) || !navigator.geolocation) {
      reject(new LocationError('unsupported'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ lat: position.coords.latitude, lng: position.coords.longitude }),
      (error) => {
        const reason: LocationFailure =
          error.code === PERMISSION_DENIED
            ? 'denied'
            : error.code === POSITION_UNAVAILABLE
              ? 'unavailable'
              : error.code === TIMEOUT
                ? 'timeout'
                : 'unknown';
        reject(new LocationError(reason));
      },
      GEOLOCATION_OPTIONS,
    );
  });
}

export function locationFailure(error: unknown): LocationFailure {
  return error instanceof LocationError ? error.reason : 'unknown';
}

/** Miles between two points on a sphere of radius 3959 (spec section 9). */
export function milesBetween(a: Coordinates, b: Coordinates): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Distances with one decimal: 0.24 → '0.2 mi'. */
export function milesLabel(miles: number): string {
  return `${miles.toFixed(1)} mi`;
}

const LOCATION_FAILURE_TEXT: Readonly<Record<LocationFailure, string>> = {
  unsupported: 'Geolocation is not supported by this browser.',
  denied: 'Location access denied by user.',
  unavailable: 'Location information is unavailable.',
  timeout: 'Location request timed out.',
  unknown: 'Unknown location error',
};

/**
 * The session form's location failures (spec section 8, 'Location'):
 * 'Location Access Required' when refused, else 'Location Error'.
 */
export function locationFailureToast(error: unknown): ToastInput {
  const reason = locationFailure(error);
  return {
    title: reason === 'denied' ? 'Location Access Required' : 'Location Error',
    description: LOCATION_FAILURE_TEXT[reason],
    variant: 'destructive',
  };
}

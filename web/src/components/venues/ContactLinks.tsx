import { mapLink, phoneLink, websiteLink } from '../../lib/catalogueApi';

interface ContactLinksProps {
  className: string;
  /** As the source has it: shown and called through phoneLink. */
  phone?: string | null;
  /** The country the phone is in, when known (a North American number is formatted as one). */
  country?: string | null;
  website?: string | null;
  /** The place on OpenStreetMap ('Open in maps'), when its coordinates are known. */
  at?: { lat: number; lng: number } | null;
}

/**
 * A place's links, each only when it has what it needs: its phone to call,
 * its website (http(s) only, by its host) and its place on the map. Links sit
 * beside the button that picks or opens a place, never inside it.
 */
export function ContactLinks({ className, phone, country, website, at }: ContactLinksProps) {
  const call = phone ? phoneLink(phone, country) : null;
  const site = website ? websiteLink(website) : null;
  if (!call && !site && !at) return null;
  return (
    <p className={className}>
      {call && <a href={call.href}>{call.label}</a>}
      {site && (
        <a href={site.href} target="_blank" rel="noreferrer">
          {site.host}
        </a>
      )}
      {at && (
        <a href={mapLink(at.lat, at.lng)} target="_blank" rel="noreferrer">
          Open in maps
        </a>
      )}
    </p>
  );
}

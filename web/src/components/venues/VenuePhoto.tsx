import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { catalogueApi, placePhotoKey } from '../../lib/catalogueApi';

/** Pixels asked of the Places proxy: twice the thumbnail's CSS size, for sharp screens. */
const PHOTO_WIDTH_PX = 160;

/** An object URL for the blob while the component shows it, revoked after. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setUrl(null);
    };
  }, [blob]);
  return url;
}

/**
 * A venue's photo through `GET /api/google-places/photo` (the key stays on
 * the server). Decorative beside the venue's name; a photo the proxy cannot
 * give (404, failure) shows nothing rather than a broken image.
 */
export function VenuePhoto({ reference }: { reference: string }) {
  const photo = useQuery({
    queryKey: placePhotoKey(reference, PHOTO_WIDTH_PX),
    queryFn: () => catalogueApi.placePhoto(reference, PHOTO_WIDTH_PX),
  });
  const url = useObjectUrl(photo.data);
  return url ? <img className="venue-card__photo" src={url} alt="" /> : null;
}

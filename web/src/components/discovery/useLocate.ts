import { useState } from 'react';
import { locationFailure } from '../../lib/geolocation';
import { locate as locateBrowser } from '../../lib/knownPosition';
import { useToast } from '../../lib/toast';

/**
 * 'Use my location' on the discovery screen (spec section 8): 'Location Found'
 * on success (the position is remembered for the tab: lib/knownPosition);
 * 'Location not supported' without the API; 'Location error' with the denied
 * text or 'Unable to get your location' otherwise.
 */
export function useLocate() {
  const toast = useToast();
  const [locating, setLocating] = useState(false);

  const locate = async () => {
    setLocating(true);
    try {
      await locateBrowser();
      toast({ title: 'Location Found', description: 'Showing bars and restaurants near you.' });
    } catch (error) {
      const reason = locationFailure(error);
      if (reason === 'unsupported') {
        toast({ title: 'Location not supported', description: 'Geolocation is not supported by this browser.', variant: 'destructive' });
      } else {
        toast({
          title: 'Location error',
          description: reason === 'denied' ? 'Location access denied. Please enable location services.' : 'Unable to get your location',
          variant: 'destructive',
        });
      }
    } finally {
      setLocating(false);
    }
  };

  return { locate, locating };
}

import { useState } from 'react';
import { Link } from 'react-router';

/**
 * A session's photos on its card. One photo is shown large, as it always
 * was; several show the chosen one large (the first at first) with a row of
 * thumbnails to choose another: buttons named 'Show photo N of M', the one
 * shown marked pressed, so keyboards and screen readers page through them.
 * The large photo links to the session's page (`href`).
 */
export function SessionPhotos({ title, photos, href }: { title: string; photos: readonly string[]; href: string }) {
  const [chosen, setChosen] = useState(0);
  const count = photos.length;
  if (count === 0) return null;
  if (count === 1) {
    return (
      <Link to={href} className="session-card__photo-link">
        <img className="session-card__photo" src={photos[0]} alt={`Photo of ${title}`} loading="lazy" />
      </Link>
    );
  }
  // A list that shrank under us (an edit) must not point past its end.
  const shown = Math.min(chosen, count - 1);
  return (
    <div className="session-photos" role="group" aria-label={`Photos of ${title}`}>
      <Link to={href} className="session-card__photo-link">
        <img className="session-card__photo" src={photos[shown]} alt={`Photo ${shown + 1} of ${count}: ${title}`} loading="lazy" />
      </Link>
      <ul className="session-photos__thumbs">
        {photos.map((url, index) => (
          <li key={`${index}:${url}`}>
            <button
              type="button"
              className="session-photos__thumb"
              aria-label={`Show photo ${index + 1} of ${count}`}
              aria-pressed={index === shown}
              onClick={() => setChosen(index)}
            >
              <img src={url} alt="" loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

import { Link } from 'react-router';

/** Shown when a screen throws while rendering, instead of a blank page. */
export function RouteErrorPage() {
  return (
    <div className="page page--narrow not-found">
      <title>Something went wrong · Hoptrack</title>
      <h1 className="not-found__title">Something went wrong</h1>
      <p className="not-found__text">An unexpected error occurred. Please reload the page and try again.</p>
      <Link to="/" className="button button--primary" reloadDocument>
        Go back home
      </Link>
    </div>
  );
}

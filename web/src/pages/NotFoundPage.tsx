import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <div className="page page--narrow not-found">
      <title>Page Not Found · Hoptrack</title>
      <h1 className="not-found__code">404</h1>
      <p className="not-found__title">Page Not Found</p>
      <p className="not-found__text">This tap has run dry: the page you're looking for doesn't exist.</p>
      <Link to="/" className="button button--primary">
        Go back home
      </Link>
    </div>
  );
}

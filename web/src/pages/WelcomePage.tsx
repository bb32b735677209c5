import { useAuthDialog } from '../components/auth-dialog/AuthDialogProvider';
import { BeerIcon, CompassIcon, UsersIcon } from '../components/icons';
import { useAuth } from '../lib/auth';

const FEATURES = [
  { Icon: BeerIcon, title: 'Log every session', text: 'Beers, duration, ABV, the place and the soundtrack.' },
  { Icon: UsersIcon, title: 'Drink with friends', text: 'Follow friends, cheer their sessions and message them.' },
  { Icon: CompassIcon, title: 'Discover', text: 'Find bars, restaurants and beers worth a visit.' },
];

/** The signed-out landing page. */
export function WelcomePage() {
  const { openAuthDialog } = useAuthDialog();
  const { signedOutNotice } = useAuth();
  return (
    <div className="welcome">
      <title>Hoptrack · Like a fitness tracker, but for beer</title>
      <section className="welcome__hero">
        <span className="welcome__badge" aria-hidden="true">
          <BeerIcon width={44} height={44} />
        </span>
        <h1 className="welcome__title">Welcome to Hoptrack</h1>
        <p className="welcome__tagline">Like a fitness tracker, but for beer</p>
        {signedOutNotice && (
          <p className="signin-panel__notice" role="alert">
            {signedOutNotice}
          </p>
        )}
        <p className="welcome__text">
          Track your beer sessions, share them with friends and see how your week is going.
        </p>
        <div className="button-row button-row--center">
          <button type="button" className="button button--primary button--large" onClick={() => openAuthDialog('register')}>
            Get Started Free
          </button>
          <button type="button" className="button button--secondary button--large" onClick={() => openAuthDialog('login')}>
            Sign In
          </button>
        </div>
      </section>
      <ul className="welcome__features">
        {FEATURES.map(({ Icon, title, text }) => (
          <li key={title} className="card feature">
            <Icon className="feature__icon" width={28} height={28} />
            <h2 className="feature__title">{title}</h2>
            <p className="feature__text">{text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

import type { ForgotPasswordResponse } from '@hoptrack/proto';
import { useState } from 'react';
import { Modal } from '../Modal';
import { ResetLinkSent } from '../ResetLinkSent';
import { ForgotPasswordView } from './ForgotPasswordView';
import { LoginView } from './LoginView';
import { RegisterView } from './RegisterView';

export type AuthDialogView = 'login' | 'register' | 'forgot-password';

interface SentReset {
  email: string;
  response: ForgotPasswordResponse;
}

const HEADINGS: Record<AuthDialogView, { title: string; description: string }> = {
  login: { title: 'Sign In', description: 'Welcome back! Sign in to continue your beer journey.' },
  register: { title: 'Create Account', description: 'Join Hoptrack and start tracking your beer sessions.' },
  'forgot-password': {
    title: 'Forgot Password',
    description: "Enter your email address and we'll send you a link to reset your password.",
  },
};

/**
 * The authentication dialog (spec sections 2 and 4): login ↔ register,
 * login ↔ forgot-password, and the 'Check Your Email' confirmation after a
 * reset link was requested. Success of login/register closes it.
 */
export function AuthDialog({ initialView, onClose }: { initialView: AuthDialogView; onClose: () => void }) {
  const [view, setView] = useState<AuthDialogView>(initialView);
  const [sentReset, setSentReset] = useState<SentReset | null>(null);
  const backToLogin = () => {
    setSentReset(null);
    setView('login');
  };

  if (sentReset) {
    return (
      <Modal open title="Check Your Email" onClose={onClose}>
        <ResetLinkSent email={sentReset.email} response={sentReset.response} />
        <button type="button" className="button button--secondary button--block" onClick={backToLogin}>
          Back to Sign In
        </button>
      </Modal>
    );
  }

  const heading = HEADINGS[view];
  return (
    <Modal open title={heading.title} description={heading.description} onClose={onClose}>
      {view === 'login' && (
        <LoginView
          onSuccess={onClose}
          onRegister={() => setView('register')}
          onForgotPassword={() => setView('forgot-password')}
        />
      )}
      {view === 'register' && <RegisterView onSuccess={onClose} onLogin={backToLogin} />}
      {view === 'forgot-password' && (
        <ForgotPasswordView onSent={(email, response) => setSentReset({ email, response })} onLogin={backToLogin} />
      )}
    </Modal>
  );
}

import nodemailer from 'nodemailer';
import { EMAIL_CHANGE_NOTICE_SUBJECT, EMAIL_CHANGE_VERIFICATION_SUBJECT, EXPORT_READY_SUBJECT, PASSWORD_CHANGED_SUBJECT, VERIFICATION_MAIL_SUBJECT } from '@hoptrack/proto';
import type { Logger } from '@hoptrack/runtime';

/** The mails auth sends; each has one variable part (a link, or the new address of a change). */
export type MailKind =
  | 'password-reset'
  | 'email-verification'
  | 'email-change-verification'
  | 'email-change-notice'
  | 'export-ready'
  | 'password-changed'
  | 'address-taken-registration'
  | 'address-taken-change';

/**
 * The variable of the two address-taken notices: the owner's username and the
 * sign-in link in one string (a mail job has one variable part; a username has no spaces).
 */
export const addressTakenVariable = (username: string, signInUrl: string) => `${username} ${signInUrl}`;
const splitAddressTaken = (variable: string) => {
  const space = variable.indexOf(' ');
  return { username: variable.slice(0, space), signInUrl: variable.slice(space + 1) };
};

const TEMPLATES: Record<MailKind, (variable: string) => { subject: string; text: string }> = {
  'password-reset': (resetUrl) => ({
    subject: 'Reset your Hoptrack password',
    text: `Someone asked to reset the password of your Hoptrack account.\n\nOpen this link within 1 hour to choose a new one:\n${resetUrl}\n\nIf it was not you, ignore this e-mail; your password stays as it is.`,
  }),
  'email-verification': (verifyUrl) => ({
    subject: VERIFICATION_MAIL_SUBJECT,
    text: `Welcome to Hoptrack!\n\nOpen this link within 24 hours to verify your e-mail address:\n${verifyUrl}\n\nIf you did not ask for this, ignore this e-mail.`,
  }),
  // To an address someone typed as their new one: it says an existing account asked, and what to do if it was not you.
  'email-change-verification': (verifyUrl) => ({
    subject: EMAIL_CHANGE_VERIFICATION_SUBJECT,
    text: `An existing Hoptrack account asked to use this address as its e-mail address.\n\nIf that was you, open this link within 24 hours to confirm it:\n${verifyUrl}\n\nThis wasn't me: ignore this e-mail. Nothing changes until the link is opened, no account uses this address, and you can still register with it.`,
  }),
  'export-ready': (accountUrl) => ({
    subject: EXPORT_READY_SUBJECT,
    text: `The copy of your Hoptrack data you asked for is ready: your profile, friends, sessions, messages, albums with their original photos, reviews, challenges and notifications, in one zip.\n\nDownload it from your account settings within 48 hours:\n${accountUrl}\n\nIf you did not ask for it, change your password: that signs out every other device.`,
  }),
  // After a change while signed in and after a reset: the variable is the forgot-password page, the way back in for an owner locked out.
  'password-changed': (forgotUrl) => ({
    subject: PASSWORD_CHANGED_SUBJECT,
    text: `The password of your Hoptrack account was just changed, and every other device was signed out.\n\nIf it was you, there is nothing to do.\n\nIf it was not you, take your account back now: ask for a reset link at\n${forgotUrl}\nand choose a new password. The link comes to this address, and setting a new password signs out every device, including whoever changed it. If this address no longer reaches you or the link does not arrive, reply to this e-mail and we will help you recover the account.`,
  }),
  // To the owner of an address someone registered with again (issue 40, item 14): the registration answered as a fresh one, so only the owner learns of it.
  'address-taken-registration': (variable) => {
    const { username, signInUrl } = splitAddressTaken(variable);
    return {
      subject: 'Someone tried to create a Hoptrack account with your address',
      text: `Someone tried to create a Hoptrack account with this address. You already have one, @${username}.\n\nIf that was you, sign in or reset your password: ${signInUrl}\n\nIf it was not you, there is nothing to do: your account is unchanged, and the address stays yours.`,
    };
  },
  // To the owner of an address another account asked to move to: that change answered as a success does, and never takes effect.
  'address-taken-change': (variable) => {
    const { username, signInUrl } = splitAddressTaken(variable);
    return {
      subject: 'Someone tried to move a Hoptrack account to your address',
      text: `Someone tried to move a Hoptrack account to this address. You already have one, @${username}, and the address stays yours: nothing changes.\n\nIf that was you, sign in or reset your password: ${signInUrl}`,
    };
  },
  'email-change-notice': (newAddress) => ({
    subject: EMAIL_CHANGE_NOTICE_SUBJECT,
    text: `Someone signed in to your Hoptrack account asked to change its e-mail address to ${newAddress}.\n\nThe change takes effect when the link sent to that address is opened. If it was not you, sign in and change your password now: that signs out every other device.`,
  }),
};

export const isMailKind = (kind: string): kind is MailKind => kind in TEMPLATES;

export interface Mailer {
  send(kind: MailKind, to: string, variable: string): Promise<void>;
}

/**
 * With SMTP_URL set, mail is sent. Without it (development, tests) the mail
 * is logged so a developer can follow its link; in production the link is
 * never logged, only the fact that mail is not configured.
 */
export function createMailer(options: { smtpUrl?: string; from: string; logger: Logger; production: boolean }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(kind, to, variable) {
        await transport.sendMail({ from: options.from, to, ...TEMPLATES[kind](variable) });
      },
    };
  }
  return {
    async send(kind, to, variable) {
      if (options.production) options.logger.error({ to, kind }, 'mail not sent: SMTP_URL is not set');
      else options.logger.info({ to, kind, link: variable }, 'mail (SMTP_URL not set, not mailed)');
    },
  };
}

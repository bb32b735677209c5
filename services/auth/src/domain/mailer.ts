import nodemailer from 'nodemailer';
import { VERIFICATION_MAIL_SUBJECT } from '@hoptrack/proto';
import type { Logger } from '@hoptrack/runtime';

export interface Mailer {
  sendPasswordReset(to: string, resetUrl: string): Promise<void>;
  sendEmailVerification(to: string, verifyUrl: string): Promise<void>;
}

/**
 * With SMTP_URL set, reset links are mailed. Without it (development, tests)
 * the link is logged so a developer can follow it; in production the token
 * is never logged, only the fact that mail is not configured.
 */
export function createMailer(options: { smtpUrl?: string; from: string; logger: Logger; production: boolean }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async sendPasswordReset(to, resetUrl) {
        await transport.sendMail({
          from: options.from,
          to,
          subject: 'Reset your Hoptrack password',
          text: `Someone asked to reset the password of your Hoptrack account.\n\nOpen this link within 1 hour to choose a new one:\n${resetUrl}\n\nIf it was not you, ignore this e-mail; your password stays as it is.`,
        });
      },
      async sendEmailVerification(to, verifyUrl) {
        await transport.sendMail({
          from: options.from,
          to,
          subject: VERIFICATION_MAIL_SUBJECT,
          text: `Welcome to Hoptrack!\n\nOpen this link within 24 hours to verify your e-mail address:\n${verifyUrl}\n\nIf you did not create an account, ignore this e-mail.`,
        });
      },
    };
  }
  return {
    async sendPasswordReset(to, resetUrl) {
      if (options.production) {
        options.logger.error({ to }, 'password reset requested but SMTP_URL is not set; no e-mail sent');
      } else {
        options.logger.info({ to, resetUrl }, 'password reset link (SMTP_URL not set, not mailed)');
      }
    },
    async sendEmailVerification(to, verifyUrl) {
      if (options.production) {
        options.logger.error({ to }, 'e-mail verification requested but SMTP_URL is not set; no e-mail sent');
      } else {
        options.logger.info({ to, verifyUrl }, 'e-mail verification link (SMTP_URL not set, not mailed)');
      }
    },
  };
}

import { createHash } from 'node:crypto';
import { tooManyRequests, type FixedWindowLimiter } from '@hoptrack/runtime';

/** A Redis key for an e-mail address: a hash, so no key carries an address (an erased person's would outlive their account by a window, docs/decisions.md). */
export const emailKey = (email: string): string => createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 32);

export const TOO_MANY_MAILS = 'Too many e-mails requested, please try again later.';
export const TOO_MANY_TO_ADDRESS = 'Too many e-mails were sent to that address today, please try again tomorrow.';

/**
 * Mail sent on a person's behalf to an address they typed (issue 39: eight
 * e-mail changes sent eight mails to a victim). Two limits, both in Redis
 * across replicas: per person who asks (one a minute, a few a day), and per
 * address mailed, whoever asks (a few a day), so neither one account nor
 * many can flood an inbox.
 */
export interface MailLimits {
  /** Throws 429 when this person has asked for too many mails. */
  sender(userId: string): Promise<void>;
  /** Throws 429 when this address has been sent too many of these mails. */
  address(address: string): Promise<void>;
}

export function mailLimits(options: { perMinute: FixedWindowLimiter; perDay: FixedWindowLimiter; senderDayMax: number; addressDayMax: number }): MailLimits {
  return {
    async sender(userId) {
      if ((await options.perMinute.hit(`mail-from:${userId}`)) > 1) throw tooManyRequests(TOO_MANY_MAILS);
      if ((await options.perDay.hit(`mail-from:${userId}`)) > options.senderDayMax) throw tooManyRequests(TOO_MANY_MAILS);
    },
    async address(address) {
      if ((await options.perDay.hit(`mail-to:${emailKey(address)}`)) > options.addressDayMax) throw tooManyRequests(TOO_MANY_TO_ADDRESS);
    },
  };
}

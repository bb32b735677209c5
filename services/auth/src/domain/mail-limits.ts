import { tooManyRequests, type FixedWindowLimiter } from '@hoptrack/runtime';
import { limitKeys } from './limit-keys';

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
      if ((await options.perMinute.hit(limitKeys.mailFrom(userId))) > 1) throw tooManyRequests(TOO_MANY_MAILS);
      if ((await options.perDay.hit(limitKeys.mailFrom(userId))) > options.senderDayMax) throw tooManyRequests(TOO_MANY_MAILS);
    },
    async address(address) {
      if ((await options.perDay.hit(limitKeys.mailTo(address))) > options.addressDayMax) throw tooManyRequests(TOO_MANY_TO_ADDRESS);
    },
  };
}

import { z } from 'zod';

/**
 * The one error body every service and the gateway answer with.
 * `message` is what the web app shows in a toast; `field` names the offending
 * input on 400/409 so a form can point at it.
 */
export const errorBody = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  field: z.string().optional(),
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const uuid = z.uuid({ message: 'Must be a valid id' });

/** A plain `{ message }` acknowledgement. */
export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

// ---- Lists: one definition of their query parameters for every service ----

/** `limit` of a list page: 1 to `max`, `fallback` when absent. */
export const pageLimit = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(max, { error: `limit must be at most ${max}` })
    .default(fallback);
/** `offset` of a list page addressed by position. */
export const pageOffset = z.coerce.number({ error: 'offset must be a number' }).int().min(0).max(10_000).default(0);
/**
 * Opaque to clients: the `x-next-cursor` header of the previous page, a time
 * and an id (the runtime's encodeTimeCursor/decodeTimeCursor).
 */
export const pageCursor = z.string().max(100).regex(/^\d{1,16}_[0-9a-f-]{36}$/, { error: 'Malformed cursor' }).optional();

/** Path parameter `:id` for any object addressed by uuid. */
export const idParams = z.object({ id: uuid });

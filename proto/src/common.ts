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

/** Path parameter `:id` for any object addressed by uuid. */
export const idParams = z.object({ id: uuid });

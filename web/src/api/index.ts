/**
 * The web's API client (issue 37, "the web app calls contracts, not URLs"):
 * `api.<service>.<contract name>(...)`, derived from proto's contract tables
 * (./routes.gen.ts at run time, their types through ./types.ts), and the one
 * error every failed call throws.
 */
export { api } from './client';
export { ApiError, apiErrorOf, errorStatus, isNetworkFailure, serverError, serverMessage, type ShownError } from './errors';
export type { Args, BodyIn, Client, Endpoint, ParamsIn, QueryIn, Result } from './types';
export { urlOf } from './url';

/**
 * The timeout of every request Tessera makes to a provider. A module of its own so that the
 * session read's refresh bookkeeping can name it without loading the OAuth client.
 */

/** Seconds a single request to a provider may take before the sign-in fails. */
export const PROVIDER_TIMEOUT_SECONDS = 15;

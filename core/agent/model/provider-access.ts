/**
 * @module provider-access
 * How a provider is reached, the same for both client libraries: the model's name, the base URL
 * (`--agent-url`, else the library's own), the key from the provider's environment variable (read
 * once, kept nowhere else), no retries (a refusal reaches the room at once, in the provider's
 * words) and the turn's time limit, and the redaction its words pass through.
 */
import { providerRedactor } from './provider-refusal.ts';

export interface ProviderSettings {
  model: string;
  url: string | null;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

export interface ProviderAccess {
  /** The key, or undefined when the variable is unset or empty. */
  key: string | undefined;
  /** The client library's options besides its credentials. */
  client: { baseURL?: string; maxRetries: 0; timeout: number };
  redact: (text: string) => string;
}

export function providerAccess(settings: ProviderSettings, keyVariable: string): ProviderAccess {
  const key = (settings.env ?? process.env)[keyVariable] || undefined;
  return {
    key,
    client: { ...(settings.url !== null ? { baseURL: settings.url } : {}), maxRetries: 0, timeout: settings.timeoutMs },
    redact: providerRedactor([key]),
  };
}

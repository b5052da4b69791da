/**
 * @module provider-model
 * What both client libraries share: the model's name, the base URL (`--agent-url`, else the
 * library's own), the key from the provider's environment variable (read once, kept nowhere
 * else), no retries (a refusal reaches the room at once, in the provider's words) and the turn's
 * time limit, one client made by the first step and sending pictures through {@link pictureFetch},
 * and a failure turned into the provider's words with every key taken out.
 */
import type { AgentModel, ModelRequest, ModelStep } from './agent-model.ts';
import { pictureFetch, PictureSlots, type Base64 } from './picture-body.ts';
import { providerRedactor, providerRefusal } from './provider-refusal.ts';

export interface ProviderSettings {
  model: string;
  url: string | null;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

/** The client library's options besides its credentials. */
export interface ClientOptions {
  baseURL?: string;
  maxRetries: 0;
  timeout: number;
  fetch: typeof fetch;
}

/** A model behind a provider's client library of type `Client`. */
export abstract class ProviderModel<Client> implements AgentModel {
  readonly name: string;
  readonly #key: string | undefined;
  readonly #options: ClientOptions;
  readonly #redact: (text: string) => string;
  #client: Client | null = null;
  #pictures = new PictureSlots();

  /** `provider` names the provider in its refusals; its key is read from `keyVariable`. */
  constructor(settings: ProviderSettings, private readonly provider: string, keyVariable: string) {
    this.name = settings.model;
    this.#key = (settings.env ?? process.env)[keyVariable] || undefined;
    const baseURL = settings.url !== null ? { baseURL: settings.url } : {};
    this.#options = { ...baseURL, maxRetries: 0, timeout: settings.timeoutMs, fetch: pictureFetch(this.#pictures) };
    this.#redact = providerRedactor([this.#key]);
  }

  /** The library's client; `key` is undefined when the variable is unset or empty. */
  protected abstract connect(key: string | undefined, options: ClientOptions): Promise<Client>;

  /** One step's streamed request, each picture in it written by `base64`. */
  protected abstract reply(client: Client, request: ModelRequest, base64: Base64): Promise<ModelStep>;

  async step(request: ModelRequest): Promise<ModelStep> {
    const pictures = this.#pictures.request();
    try {
      this.#client ??= await this.connect(this.#key, this.#options);
      return await this.reply(this.#client, request, pictures.base64);
    } catch (error) {
      throw providerRefusal(this.provider, error, request.signal, this.#redact);
    } finally {
      pictures.release();
    }
  }
}

/**
 * @module request-delivery
 * The delivery a request gets for a result of a known type: the options it named (already
 * parsed), or its client's profile when it named none, checked against the type (400s before
 * anything is computed).
 */
import { checkDeliveryFits, isResultType } from './check-delivery.ts';
import { withClientProfile, type ClientProfileSettings } from './client-profile.ts';
import type { DeliveryOptions } from './delivery-options.ts';

export function resolveDelivery(asked: DeliveryOptions, type: string, userAgent: string | undefined, settings: ClientProfileSettings): DeliveryOptions {
  checkDeliveryFits(asked, type);
  return isResultType(type) ? withClientProfile(asked, type, userAgent, settings) : asked;
}
